"""House Targaryen's A-deck house cards (RULES.md 11.7.2, 11.7.5), one named test each, in
8-player games of Mother of Dragons. Printed values are copied from the table of 11.7.2; Stark
fights with Ser Rodrik Cassel (1, two fortifications, no bonus without a castle) or Robb Stark
(3, no icons)."""

from __future__ import annotations

from typing import Any

from tests.builders import act, prompt, put
from tests.engine.test_combat import fight, hand
from tests.engine.test_house_cards import block, strength
from westeros.engine import board
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply
from westeros.engine.setup import new_game
from westeros.engine.state import State

from .conftest import MOD

RODRIK = "ser-rodrick-cassel"


def blank8(rules: Ruleset, round_number: int = 1) -> State:
    """An 8-player game of Mother of Dragons with an empty board and the Blade already used."""
    s = new_game(rules, 8, 1, MOD, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.blade_used = True
    s.round = round_number
    return s


def options(s: State, house: str) -> Any:
    p = prompt(s, house)
    return None if p is None else p.data.get("options")


def gone(s: State, card: str) -> bool:
    """Is ``card`` out of the game (neither in Targaryen's hand nor its discard pile)?"""
    return card not in s.hands["targaryen"] + s.discards["targaryen"]


def attack_blackwater(
    rules: Ruleset, card: str, attackers: tuple[str, ...], stark_card: str = RODRIK, **kw: Any
) -> State:
    """Targaryen attacks Blackwater (3 Stark footmen) from Stoney Sept with ``attackers``."""
    s = blank8(rules, **kw)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "targaryen", *attackers)
    block(s, "targaryen", "stark")
    hand(s, "targaryen", card)
    hand(s, "stark", stark_card)
    return fight(s, "targaryen", "stoney-sept", "blackwater")


def test_11_7_2_arstan_whitebeard(mod_rules: Ruleset) -> None:
    s = attack_blackwater(mod_rules, "arstan-whitebeard", ("footman",) * 4, "robb-stark")
    assert strength(s) == (4 + 3, 3 + 3)
    assert len(s.units["harrenhal"]) == 3 - 1  # one sword
    assert "arstan-whitebeard" in s.discards["targaryen"]


def test_11_7_2_ser_jorah_mormont(mod_rules: Ruleset) -> None:
    s = attack_blackwater(mod_rules, "ser-jorah-mormont", ("footman",) * 5, "robb-stark")
    assert strength(s) == (5 + 2, 3 + 3)
    assert len(s.units["harrenhal"]) == 3 - 1


def test_11_7_2_khal_drogo(mod_rules: Ruleset) -> None:
    s = attack_blackwater(mod_rules, "khal-drogo", ("knight", "knight", "knight"))
    assert strength(s) == (3 * 2 + 4 + 3, 3 + 1)  # +1 per knight
    assert len(s.units["harrenhal"]) == 3 - (3 - 2)  # +1 sword per knight, Rodrik's 2 forts
    assert board.controller(s, "blackwater") == "targaryen"
    assert gone(s, "khal-drogo")


def test_11_7_2_khal_drogo_leaves_even_after_a_loss(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules)
    put(s, "blackwater", "stark", *["footman"] * 5)
    put(s, "stoney-sept", "targaryen", "footman")
    block(s, "targaryen", "stark")
    hand(s, "targaryen", "khal-drogo")
    hand(s, "stark", RODRIK)
    s = fight(s, "targaryen", "stoney-sept", "blackwater")
    assert strength(s) == (1 + 4, 5 + 1)
    assert board.controller(s, "blackwater") == "stark"
    assert gone(s, "khal-drogo")


def sea_fight(rules: Ruleset, ships: int) -> State:
    s = blank8(rules)
    put(s, "the-narrow-sea", "stark", "ship", "ship")
    put(s, "bay-of-pentos", "targaryen", *["ship"] * ships)
    hand(s, "targaryen", "xaro-xhoan-daxos")
    hand(s, "stark", RODRIK)
    return fight(s, "targaryen", "bay-of-pentos", "the-narrow-sea")


def test_11_7_2_xaro_xhoan_daxos(mod_rules: Ruleset) -> None:
    assert strength(sea_fight(mod_rules, 3)) == (3 * 2 + 2, 2 + 1)  # more ships: worth 2
    assert strength(sea_fight(mod_rules, 2)) == (2 * 1 + 2, 2 + 1)  # as many: worth 1


def test_11_7_2_daenerys_targaryen(mod_rules: Ruleset) -> None:
    s = attack_blackwater(mod_rules, "daenerys-targaryen-a", ("dragon", "footman"), round_number=4)
    assert strength(s) == (2 + 1 + 1 + 2, 3 + 1)  # a dragon of strength 2 (11.5.2), +2
    s = attack_blackwater(mod_rules, "daenerys-targaryen-a", ("footman", "footman"))
    assert strength(s) == (2 + 1, 3 + 1)


def won(events: list[Any]) -> list[int]:
    """The final (attacker, defender) strength of the combat decided among ``events``."""
    return next(e.data["strength"] for e in events if e.kind == "combat_won")


def viserys_attacks(rules: Ruleset, footmen: int) -> State:
    s = blank8(rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "targaryen", *["footman"] * footmen)
    block(s, "targaryen", "stark")
    hand(s, "targaryen", "viserys-targaryen", "khal-drogo", "arstan-whitebeard")
    hand(s, "stark", RODRIK)
    s = fight(s, "targaryen", "stoney-sept", "blackwater")
    return act(s, "targaryen", Choose("viserys-targaryen"))


def test_11_7_2_viserys_targaryen(mod_rules: Ruleset) -> None:
    s = viserys_attacks(mod_rules, 1)
    assert options(s, "targaryen") == ["khal-drogo", "arstan-whitebeard", "pass"]
    s, events = apply(s, "targaryen", Choose("khal-drogo"))
    assert won(events) == [1 + 1 + 4, 3 + 1]  # Khal Drogo's printed 4 added
    assert board.controller(s, "blackwater") == "targaryen"
    assert s.hands["targaryen"] == ("arstan-whitebeard",)
    assert set(s.discards["targaryen"]) >= {"khal-drogo", "viserys-targaryen"}
    assert any(e.kind == "card_discarded_for_strength" for e in events)


def test_11_7_2_viserys_targaryen_leaves_the_game_on_a_loss(mod_rules: Ruleset) -> None:
    s, events = apply(viserys_attacks(mod_rules, 1), "targaryen", Choose("pass"))
    assert won(events) == [1 + 1, 3 + 1]
    assert board.controller(s, "blackwater") == "stark"
    assert gone(s, "viserys-targaryen")
    assert set(s.hands["targaryen"]) == {"khal-drogo", "arstan-whitebeard"}


def illyrio_defends(rules: Ruleset, power: int) -> State:
    """Targaryen defends Blackwater (1 footman) with Illyrio against 3 Stark footmen and Ser
    Rodrik: 1 + 0 loses to 3 + 1, a gap of 3."""
    s = blank8(rules)
    s.power["targaryen"] = power
    put(s, "blackwater", "targaryen", "footman")
    put(s, "stoney-sept", "stark", "footman", "footman", "footman")
    block(s, "targaryen", "stark")
    hand(s, "targaryen", "illyrio-mopatis")
    hand(s, "stark", RODRIK)
    return fight(s, "stark", "stoney-sept", "blackwater")


def test_11_7_2_illyrio_mopatis(mod_rules: Ruleset) -> None:
    s = illyrio_defends(mod_rules, 0)
    assert strength(s) == (3 + 1, 1 + 0)
    assert s.power["targaryen"] == 3
    assert "illyrio-mopatis" in s.hands["targaryen"] + s.discards["targaryen"]


def test_11_7_2_illyrio_mopatis_leaves_with_5_power_or_more(mod_rules: Ruleset) -> None:
    s = illyrio_defends(mod_rules, 2)
    assert s.power["targaryen"] == 5
    assert gone(s, "illyrio-mopatis")


def test_11_7_5_illyrio_mopatis_gets_the_blade_asked_even_when_the_victor_stays(
    mod_rules: Ruleset,
) -> None:
    s = blank8(mod_rules)
    s.blade_used = False
    s.tracks["fiefdoms"] = ("stark", *(h for h in s.tracks["fiefdoms"] if h != "stark"))
    s.power["targaryen"] = 0
    put(s, "blackwater", "targaryen", "footman")
    put(s, "stoney-sept", "stark", "footman", "footman", "footman")
    block(s, "targaryen", "stark")
    hand(s, "targaryen", "illyrio-mopatis")
    hand(s, "stark", RODRIK)
    s = fight(s, "stark", "stoney-sept", "blackwater")
    assert prompt(s, "stark").kind == "use_blade"  # Stark wins 4 to 1 either way
    s, events = apply(s, "stark", Choose("use"))
    assert won(events) == [3 + 1 + 1, 1]
    assert s.power["targaryen"] == 4  # the gap after the Blade
