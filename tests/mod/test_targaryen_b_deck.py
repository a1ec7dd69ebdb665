"""House Targaryen's alternative B deck (RULES.md 11.7.3), one named test per card, in 8-player
games with the ``mod_targaryen_b_deck`` option. Printed values are copied from the table of
11.7.3; Stark fights with Ser Rodrik Cassel (1, two fortifications) or Robb Stark (3)."""

from __future__ import annotations

from typing import Any

from tests.builders import act, prompt, put
from tests.engine.test_combat import fight
from tests.engine.test_house_cards import block, strength
from westeros.conformance import random_game
from westeros.engine import board
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

from .conftest import MOD

MOD_B = MOD | {"mod_targaryen_b_deck": True}
RODRIK = "ser-rodrick-cassel"
B_DECK = (
    "daenerys-targaryen-b",
    "daario-naharis",
    "gray-worm",
    "strong-belwas",
    "captain-groleo",
    "rakharo",
    "missandei",
)


def blank8(rules: Ruleset) -> State:
    """An 8-player game with the B deck, an empty board and the Blade already used."""
    s = new_game(rules, 8, 1, MOD_B, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.blade_used = True
    return s


def cards(s: State, targaryen: str, stark: str, pile: tuple[str, ...] = ()) -> None:
    """Targaryen holds only ``targaryen`` (``pile`` discarded), Stark only ``stark``."""
    s.hands["targaryen"], s.discards["targaryen"] = (targaryen,), pile
    s.hands["stark"], s.discards["stark"] = (stark,), ()


def attack(
    rules: Ruleset, card: str, attackers: tuple[str, ...], area: str = "blackwater", **kw: Any
) -> State:
    """Targaryen attacks ``area`` (3 Stark footmen) from Stoney Sept with ``attackers``."""
    s = blank8(rules)
    put(s, area, "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "targaryen", *attackers)
    block(s, "targaryen", "stark", keep=kw.get("keep", "harrenhal"))
    cards(s, card, kw.get("stark", RODRIK), kw.get("pile", ()))
    return fight(s, "targaryen", "stoney-sept", area)


def test_11_7_3_the_option_deals_the_b_deck(mod_rules: Ruleset) -> None:
    b_rules = build_ruleset(MOD_B)
    assert new_game(b_rules, 8, 1, MOD_B, start=False).hands["targaryen"] == B_DECK
    assert "missandei" not in new_game(mod_rules, 8, 1, MOD, start=False).hands["targaryen"]
    assert "mod_targaryen_b_deck" in mod_rules.options


def test_11_7_3_random_8_player_games_with_the_b_deck(mod_rules: Ruleset) -> None:
    result = random_game(build_ruleset(MOD_B), 8, 8300, MOD_B)
    assert result.problems == []
    assert set(result.state.hands["targaryen"] + result.state.discards["targaryen"]) <= set(B_DECK)


def test_11_7_3_daario_naharis_gray_worm_and_strong_belwas(mod_rules: Ruleset) -> None:
    for card, power, swords in (
        ("daario-naharis", 3, 1),
        ("gray-worm", 2, 1),
        ("strong-belwas", 2, 2),
    ):
        footmen = 7 - power
        s = attack(mod_rules, card, ("footman",) * footmen, stark="robb-stark")
        assert strength(s) == (footmen + power, 3 + 3), card
        assert len(s.units["harrenhal"]) == 3 - swords, card
    assert mod_rules.house_cards["gray-worm"].fortifications == 1


def test_11_7_3_daenerys_targaryen_b(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules)
    s.power["stark"] = 5
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "targaryen", *["footman"] * 4)
    block(s, "targaryen", "stark")
    cards(s, "daenerys-targaryen-b", RODRIK)
    s = fight(s, "targaryen", "stoney-sept", "blackwater")
    assert strength(s) == (4 + 4, 3 + 1)
    assert s.power["stark"] == 5 - 4


def groleo_attacks(rules: Ruleset, origin: str) -> State:
    s = blank8(rules)
    put(s, "kingswood", "stark", "footman", "footman", "footman")
    put(s, origin, "targaryen", "footman")
    put(s, "blackwater-bay", "targaryen", "ship")
    put(s, "shipbreaker-bay", "targaryen", "ship")
    cards(s, "captain-groleo", RODRIK)
    return fight(s, "targaryen", origin, "kingswood")


def test_11_7_3_captain_groleo(mod_rules: Ruleset) -> None:
    assert "dragonstone" not in mod_rules.adjacency["kingswood"]
    assert strength(groleo_attacks(mod_rules, "dragonstone")) == (1 + 1 + 2, 3 + 1)
    assert strength(groleo_attacks(mod_rules, "the-boneway")) == (1 + 1, 3 + 1)  # marched


def test_11_7_3_rakharo(mod_rules: Ruleset) -> None:
    s = attack(mod_rules, "rakharo", ("knight", "knight"))
    assert strength(s) == (2 * 4 + 1, 3 + 1)  # Blackwater has no castle
    s = attack(mod_rules, "rakharo", ("knight", "knight"), area="harrenhal", keep="blackwater")
    assert strength(s) == (2 * 2 + 1, 3 + 1)  # a castle: knights stay 2


def test_11_7_3_missandei(mod_rules: Ruleset) -> None:
    s = attack(mod_rules, "missandei", ("footman",) * 3, pile=("gray-worm", "rakharo"))
    assert strength(s) == (3, 3 + 1)  # lost by 1
    assert prompt(s, "targaryen").data["options"] == ["gray-worm", "rakharo", "pass"]
    s = act(s, "targaryen", Choose("gray-worm"))
    assert s.hands["targaryen"] == ("gray-worm",)
    assert board.controller(s, "blackwater") == "stark"


def test_11_7_3_missandei_losing_by_3_takes_nothing(mod_rules: Ruleset) -> None:
    s = attack(mod_rules, "missandei", ("footman",), pile=("gray-worm",))
    assert strength(s) == (1, 3 + 1)
    assert prompt(s, "targaryen") is None
    assert not [e for e in s.events if e.kind == "card_taken_back"]
