"""The game log as a player reads it (issue 13.3; RULES.md 0.4.4): names, never ids; scores
winner first; no two events that read alike; Robb Stark's retreat choice not called a loss;
and private plugin events, emitted the way docs/plugins.md says, reach only their seat."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from westeros import hookimpl
from westeros.engine import Ruleset, apply, new_game, pending, random_action
from westeros.engine.content import EventText, StateHook, Words
from westeros.engine.view import event_view, visible
from westeros.plugins import build_ruleset
from westeros.server.narrate import Narrator
from westeros.session import GameSession, Human
from westeros.store import GameStore

GAMES = 20
SEAT_LIMIT = 4_000  # decisions per game; random games end long before


def seat_logs(rules: Ruleset, games: int) -> Iterator[list[tuple[dict[str, Any], str]]]:
    """For each random game (3-6 players, Tides of Battle on in every other one): what the
    first seat's log shows, as (event data, sentence) pairs in order."""
    narrate = Narrator(rules)
    for seed in range(games):
        rnd = random.Random(seed)
        state = new_game(rules, 3 + seed % 4, seed, {"tides_of_battle": seed % 2 == 0})
        seat = state.houses[0]
        lines: list[tuple[dict[str, Any], str]] = []
        events = list(state.events)
        for _ in range(SEAT_LIMIT):
            for event in events:
                if visible(event, seat):
                    data = event_view(event)
                    lines.append((data, narrate(data)))
            if not pending(state):
                break
            house = rnd.choice(sorted(pending(state)))
            state, events = apply(state, house, random_action(state, house, rnd))
        yield lines


@pytest.fixture(scope="module")
def logs(rules: Ruleset) -> list[list[tuple[dict[str, Any], str]]]:
    return list(seat_logs(rules, GAMES))


def raw_ids(rules: Ruleset) -> set[str]:
    """Ids that must never show in a sentence: houses, areas, order tokens, and the ids of
    cards and options made of several words (``ser-jaime-lannister``, ``game_of_thrones``,
    ``no_march+1``; a one-word card id such as ``supply`` is also an English word, checked in
    choices below)."""
    options = {o for text in rules.event_texts.values() for o in text.options}
    cards = {*rules.house_cards, *rules.westeros_cards, *rules.wildling_cards}
    return (
        set(rules.houses)
        | set(rules.areas)
        | {i for i in cards | options if re.search(r"[_+-]", i)}
        | {c for c in rules.house_cards if c.isalpha()}  # melisandre, patchface, darkstar
        | {*rules.order_tokens, "march+1", "consolidate_power"}  # tokens, restrictions
    )


def shows(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@pytest.mark.slow
def test_the_log_of_20_random_games_names_things_and_never_shows_an_id(
    rules: Ruleset, logs: list[list[tuple[dict[str, Any], str]]]
) -> None:
    ids = raw_ids(rules)
    narrate = Narrator(rules)
    chosen = 0
    for lines in logs:
        for data, text in lines:
            assert text and text != narrate.generic(data), data
            leaked = sorted(i for i in ids if shows(i, text))
            assert not leaked, (text, leaked)
            if data["kind"] == "chose":
                chosen += 1
                assert not shows(str(data["option"]), text), text  # "chooses martell"
            if data["kind"] == "tides_revealed":
                for card in data["cards"].values():
                    assert not re.search(rf"[A-Z]\w+ {card}\b", text), text  # "Stark two"
    assert chosen > 0  # the choices were really looked at


def test_two_different_events_never_read_alike_in_a_row(
    logs: list[list[tuple[dict[str, Any], str]]],
) -> None:
    """The same event twice (two footmen mustered in one castle) is one line with a count on
    the board (panels.js appendLog); two different events must read differently."""
    for lines in logs:
        for (first, text), (second, again) in itertools.pairwise(lines):
            if text == again:
                assert first == second, (text, first, second)


def test_a_combat_score_is_stated_winner_first(rules: Ruleset) -> None:
    narrate = Narrator(rules)
    defended = {
        "kind": "combat_won",
        "winner": "stark",
        "loser": "lannister",
        "area": "the-twins",
        "strength": [3, 5],
    }
    assert narrate(defended) == "Stark wins the combat in The Twins, 5 to 3."
    attacked = dict(defended, winner="lannister", loser="stark", strength=[6, 2])
    assert narrate(attacked) == "Lannister wins the combat in The Twins, 6 to 2."


def test_a_wildling_attack_is_stated_winner_first(rules: Ruleset) -> None:
    """7.2: the wildlings' strength against the houses' total, the winner's number first."""
    narrate = Narrator(rules)
    attack = {"kind": "wildling_bids", "strength": 8, "bids": {"stark": 2, "lannister": 1}}
    assert narrate({**attack, "total": 3, "winner": "wildlings"}) == (
        "The wildlings win: 8 against 3 (Stark 2, Lannister 1)."
    )
    assert narrate({**attack, "total": 9, "winner": "nights_watch"}) == (
        "The Night's Watch holds: 9 against 8 (Stark 2, Lannister 1)."
    )


@pytest.mark.parametrize(
    ("option", "reads"),
    [
        ("martell", "Lannister chooses Martell."),
        ("game_of_thrones", "Lannister chooses Game of Thrones."),
        ("no_march+1", "Lannister chooses No March +1 orders."),
        ("iron_throne", "Lannister chooses Iron Throne."),
        ("tywin-lannister", "Lannister chooses Tywin Lannister."),
        ("the-twins", "Lannister chooses The Twins."),
    ],
)
def test_a_choice_is_named(rules: Ruleset, option: str, reads: str) -> None:
    event = {"kind": "chose", "house": "lannister", "option": option, "reason": "x"}
    assert Narrator(rules)(event) == reads


def test_forbidden_orders_are_named(rules: Ruleset) -> None:
    event = {"kind": "restriction", "orders": ["defense", "march+1"]}
    assert Narrator(rules)(event) == (
        "This round these orders may not be placed: Defense, March +1."
    )


def test_tides_of_battle_cards_are_named(rules: Ruleset) -> None:
    event = {"kind": "tides_revealed", "cards": {"stark": "two", "lannister": "skull"}}
    assert Narrator(rules)(event) == (
        "Tides of Battle cards: Stark draws a 2; Lannister draws a skull."
    )


# ---------------------------------------------------------------------------------- visibility


class Omens:
    """A plugin following docs/plugins.md: a private event for one house, with ``visible_to``."""

    NAME = "omens"

    @hookimpl
    def rule_setup(self, options: Mapping[str, Any]) -> StateHook | None:
        def omen(state: Any) -> None:
            seer = state.houses[0]
            state.emit("omen_seen", visible_to=frozenset({seer}), house=seer, card="the-comet")

        return omen

    @hookimpl
    def register_event_texts(self) -> list[EventText]:
        def describe(w: Words, e: Mapping[str, Any]) -> str:
            return w._("{house} sees an omen.").format(house=w.house(e["house"]))

        return [EventText("omen_seen", describe)]


def test_a_private_plugin_event_emitted_as_the_guide_says_reaches_only_its_seat(
    tmp_path: Path,
) -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text("utf-8")
    assert "visible_to=frozenset({house})" in guide and "emit(kind, to=" not in guide
    rules = build_ruleset(extra=[Omens()], strict=True)
    store = GameStore.open(f"sqlite:///{tmp_path / 'omens.db'}", rulesets=lambda *_: rules)
    houses = rules.setups[3].houses
    session = GameSession.create(store, rules, 3, {h: Human() for h in houses}, seed=3)
    seer = session.state.houses[0]
    for house in houses:
        log = session.view_message(house, Narrator(rules))["log"]
        omens = [e for e in log if e["kind"] == "omen_seen"]
        if house == seer:
            assert [e["text"] for e in omens] == [f"{rules.houses[seer].name} sees an omen."]
        else:
            assert omens == [], house
            assert "the-comet" not in str(session.view_message(house)), house
