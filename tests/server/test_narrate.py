"""Plain-language log lines: every event the engine emits in real games has its own sentence,
names come from the content, and the sentences go through gettext."""

from __future__ import annotations

import random

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from westeros.engine import Ruleset, apply, new_game, pending, random_action
from westeros.engine.view import event_view
from westeros.server.narrate import Narrator


def events_of_random_games(rules: Ruleset, games: int) -> list[dict[str, object]]:
    out = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = new_game(rules, 3 + seed % 4, seed, {"tides_of_battle": seed % 2 == 0})
        out.extend(event_view(e) for e in state.events)
        while pending(state):
            house = rnd.choice(sorted(pending(state)))
            state, events = apply(state, house, random_action(state, house, rnd))
            out.extend(event_view(e) for e in events)
    return out


def test_every_event_of_real_games_has_its_own_sentence(rules: Ruleset) -> None:
    narrate = Narrator(rules)
    events = events_of_random_games(rules, 12)
    unknown = sorted({str(e["kind"]) for e in events} - set(rules.event_texts))
    assert not unknown, f"events without a sentence: {unknown}"
    for event in events:
        text = narrate(event)
        assert text and text != narrate.generic(event), event


def test_sentences_use_content_names(rules: Ruleset) -> None:
    narrate = Narrator(rules)
    march = {
        "kind": "march",
        "house": "lannister",
        "area": "stoney-sept",
        "token": "march+1*",
        "moves": [["blackwater", ["footman", "knight"]]],
        "leave_power": True,
    }
    assert narrate(march) == (
        "Lannister marches from Stoney Sept: Footman, Knight to Blackwater. "
        "A power token stays behind."
    )
    cards = {
        "kind": "house_cards_revealed",
        "attacker": ["lannister", "tywin-lannister"],
        "defender": ["stark", None],
    }
    assert narrate(cards) == "House cards: Lannister plays Tywin Lannister, Stark plays no card."


def test_unknown_events_from_plugins_still_read(rules: Ruleset) -> None:
    narrate = Narrator(rules)
    assert narrate({"kind": "dragon_awakens", "house": "martell"}) == "Martell: dragon awakens"
    assert narrate({"kind": "dragon_awakens"}) == "Dragon awakens"


@pytest.fixture
def german(tmp_path_factory: pytest.TempPathFactory) -> Translations:
    catalog = Catalog(locale="de", domain="westeros")
    catalog.add("{house} marches from {area}: {moves}.", "{house} zieht von {area}: {moves}.")
    catalog.add("{units} to {area}", "{units} nach {area}")
    catalog.add("Knight", "Ritter")
    catalog.add(
        ("{house} gains {n} power token.", "{house} gains {n} power tokens."),
        ("{house} erhält {n} Machtmarker.", "{house} erhält {n} Machtmarker."),
    )
    folder = tmp_path_factory.mktemp("locale") / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "westeros.mo").open("wb") as out:
        write_mo(out, catalog)
    found = Translations.load(str(folder.parent.parent), ["de"], domain="westeros")
    assert isinstance(found, Translations)
    return found


def test_sentences_and_names_are_translated(rules: Ruleset, german: Translations) -> None:
    narrate = Narrator(rules, german)
    march = {
        "kind": "march",
        "house": "stark",
        "area": "winterfell",
        "token": "march+0",
        "moves": [["the-shivering-sea", ["knight"]]],
        "leave_power": False,
    }
    assert narrate(march) == "Stark zieht von Winterfell: Ritter nach The Shivering Sea."
    gained = {"kind": "power_gained", "house": "stark", "amount": 2}
    assert narrate(gained) == "Stark erhält 2 Machtmarker."
