"""Westeros deck IV (RULES.md 11.11), one named test per card: the printed tokens, then
Targaryen's option; the deck is used only with 8 players and is resolved last."""

from __future__ import annotations

from tests.builders import act, prompt, put, run
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.westeros_phase import ResolveWesterosCard

from .conftest import MOD
from .test_targaryen_cards import blank8

T = "targaryen"
DECLINE = "pass"


def tokens(s: State) -> dict[str, int]:
    return dict(s.ext.get("loyalty_tokens", ()))


def reveal(rules: Ruleset, card: str, power: int = 5, **tokens_on: int) -> State:
    s = blank8(rules, 3)
    s.ext["loyalty_tokens"] = tuple(sorted((a.replace("_", "-"), n) for a, n in tokens_on.items()))
    s.ext["loyalty_collected"] = 0
    s.power = dict.fromkeys(s.houses, power)
    s.revealed = (card,)
    return run(s, ResolveWesterosCard(0))


def options(s: State, house: str = T) -> list[str]:
    p = prompt(s, house)
    return [] if p is None else list(p.data["options"])


def test_11_11_1_deck_iv_only_with_8_players_and_last(mod_rules: Ruleset) -> None:
    eight = new_game(mod_rules, 8, 1, MOD, start=False)
    assert len(eight.westeros_decks) == 4 and len(eight.westeros_decks[3]) == 10
    assert len(new_game(mod_rules, 7, 1, MOD, start=False).westeros_decks) == 3


def test_11_11_domestic_disputes(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "domestic-disputes")
    assert tokens(s) == {"storms-end": 1}
    assert T not in options(s)
    s = act(s, T, Choose("stark"))
    s = act(s, T, Choose("lannister"))
    s = act(s, T, Choose("done"))
    assert tokens(s) == {"storms-end": 1, "winterfell": 1, "lannisport": 1}
    assert s.power[T] == 4  # 1 PT whatever the number of houses


def test_11_11_empty_promises(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "empty-promises")
    assert options(s) == ["moat-cailin", "the-mountains-of-the-moon", DECLINE]
    s = act(s, T, Choose("moat-cailin"))
    assert tokens(s) == {"the-stony-shore": 1, "moat-cailin": 1} and s.power[T] == 4


def test_11_11_fire_made_flesh(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "fire-made-flesh")
    assert tokens(s) == {"the-reach": 1}
    assert options(s) == ["fire_return_dragon", DECLINE]  # no dragon on the board: (b) only
    s = act(s, T, Choose("fire_return_dragon"))
    assert [u.type for u in s.units["pentos"]] == ["dragon"]
    s = blank8(mod_rules, 3)
    put(s, "the-rhoyne", T, "dragon")
    put(s, "pentos", T, "dragon", "dragon")
    s.revealed = ("fire-made-flesh",)
    run(s, ResolveWesterosCard(0))
    assert options(s) == ["fire_destroy_dragon", DECLINE]  # all 3 dragons out: (a) only
    s = act(s, T, Choose("fire_destroy_dragon"))
    s = act(s, T, Choose("the-rhoyne"))
    assert "the-rhoyne" not in s.units
    s = act(s, T, Choose("dragon_token_10"))  # any one still on the track (11.11.2)
    assert s.ext["dragon_tokens_shifted"] == (10,)  # round 3: 2 tokens in the box instead of 1


def test_11_11_playing_with_fire(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "playing-with-fire")
    assert tokens(s) == {"riverrun": 1, "the-arbor": 1}
    assert "kings-landing" not in options(s)  # its neutral force stays
    assert "pentos" not in options(s)  # Westeros only
    s = act(s, T, Choose("the-reach"))
    assert T not in options(s)
    s = act(s, T, Choose("stark"))
    assert options(s, "stark") == ["footman", "knight", "siege_engine"]
    s = act(s, "stark", Choose("knight"))
    assert [(u.house, u.type) for u in s.units["the-reach"]] == [("stark", "knight")]
    assert tokens(s) == {"riverrun": 1, "the-arbor": 1, "the-reach": 1}
    assert s.power[T] == 4


def test_11_11_scattering_dissent(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "scattering-dissent", power=0)  # Targaryen cannot cancel
    assert tokens(s) == {"karhold": 1, "oldtown": 1}
    movers = []
    while waiting := [h for h in s.houses if prompt(s, h) is not None]:
        movers.append(waiting[0])
        s = act(s, waiting[0], Choose(options(s, waiting[0])[0]))
    assert movers == list(reversed(s.tracks["iron_throne"]))  # each house once, reverse order
    assert sum(tokens(s).values()) == 2


def test_11_11_southron_ambitions(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "southron-ambitions")
    s = act(s, T, Choose("the-boneway"))
    assert tokens(s) == {"searoad-marches": 1, "dornish-marches": 1, "the-boneway": 1}


def test_11_11_strongholds_of_resistance(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "strongholds-of-resistance")
    s = act(s, T, Choose(DECLINE))
    assert tokens(s) == {"seagard": 1} and s.power[T] == 5


def test_11_11_the_long_plan(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "the-long-plan")
    s = act(s, T, Choose("greyjoy"))
    assert "pentos" not in options(s, "greyjoy")  # Westeros land areas only
    s = act(s, "greyjoy", Choose("winterfell"))
    assert "winterfell" not in options(s, "greyjoy")  # 2 different areas
    s = act(s, "greyjoy", Choose("the-reach"))
    assert tokens(s) == {"castle-black": 1, "yronwood": 1, "winterfell": 1, "the-reach": 1}
    assert s.power[T] == 4


def test_11_11_3_watering_the_seed(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.ext["loyalty_collected"] = 2
    s.power = dict.fromkeys(s.houses, 5)
    put(s, "riverrun", T, "footman")
    s.revealed = ("watering-the-seed",)
    run(s, ResolveWesterosCard(0))
    assert "riverrun" not in options(s) and "the-reach" not in options(s)
    s = act(s, T, Choose("harrenhal"))
    s = act(s, T, Choose("seagard"))
    assert tokens(s) == {"kings-landing": 1, "harrenhal": 1, "seagard": 1}
    assert s.power[T] == 5 - 3  # its points: 2 collected + Pentos


def test_11_11_word_spreads_quickly(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "word-spreads-quickly")
    assert tokens(s) == {"crackclaw-point": 1, "three-towers": 1}
    first = next(h for h in s.houses if prompt(s, h) is not None)
    move = options(s, first)[0]
    s = act(s, first, Choose(move))
    assert options(s) == ["cancel", "allow"]  # Targaryen may cancel for 2 PT
    s = act(s, T, Choose("cancel"))
    assert s.power[T] == 3
    assert tokens(s) == {"crackclaw-point": 1, "three-towers": 1}
