"""Rules of Essos and the dragons (RULES.md 11.4.2, 11.5.4, 11.5.5) that the other dragon
tests leave out: Essos castles count for other houses, dragons count for supply and ride
ships, and dragons are not knights for Khal Drogo. Values are read from the rule text."""

from __future__ import annotations

import pytest

from tests.builders import act, order, put, run
from tests.engine.test_house_cards import strength
from westeros.engine import victory
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalMove, SupplyExceeded
from westeros.engine.flow import apply
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import State

from .test_targaryen_cards import attack_blackwater, blank8

T = "targaryen"


def test_11_4_2_essos_castles_count_for_another_houses_victory(mod_rules: Ruleset) -> None:
    """Stark holds Braavos and Volantis and five Westeros castles: 7 castle areas, it wins."""
    s = blank8(mod_rules)
    s.neutral.pop("braavos")
    for area in ("winterfell", "white-harbor", "moat-cailin", "riverrun", "harrenhal"):
        put(s, area, "stark", "footman")
    put(s, "braavos", "stark", "footman")
    assert not victory.consequences(s)  # six castle areas
    put(s, "volantis", "stark", "footman")
    assert victory.consequences(s)
    assert s.winner == "stark"


def dragon_to_myr(rules: Ruleset, supply: int) -> State:
    """Two Targaryen footmen stand in Myr; a dragon in Norvos has a March order."""
    s = blank8(rules)
    s.supply[T] = supply
    put(s, "myr", T, "footman", "footman")
    put(s, "norvos", T, "dragon")
    order(s, "norvos", "march+0")
    return run(s, MarchTurn(T))


def test_11_5_4_a_dragon_counts_for_supply(mod_rules: Ruleset) -> None:
    """Supply 0 allows armies of 2 and 2: the dragon would make Myr an army of 3."""
    s = dragon_to_myr(mod_rules, 0)
    with pytest.raises(SupplyExceeded):
        apply(s, T, ResolveMarch("norvos", (("myr", ("dragon",)),)))
    s = act(dragon_to_myr(mod_rules, 1), T, ResolveMarch("norvos", (("myr", ("dragon",)),)))
    assert sorted(u.type for u in s.units["myr"]) == ["dragon", "footman", "footman"]


def dragon_and_footman_on_dragonstone(rules: Ruleset, ship: bool) -> State:
    s = blank8(rules)
    put(s, "dragonstone", T, "dragon", "footman")
    if ship:
        put(s, "shipbreaker-bay", T, "ship")
    order(s, "dragonstone", "march+0")
    return run(s, MarchTurn(T))


def test_11_5_4_a_dragon_rides_ships_with_other_units(mod_rules: Ruleset) -> None:
    """Dragonstone meets Storm's End only across Shipbreaker Bay: a dragon marching with a
    footman (so not flying) crosses on a Targaryen ship, and cannot without one."""
    march = ResolveMarch("dragonstone", (("storms-end", ("dragon", "footman")),))
    with pytest.raises(IllegalMove):
        apply(dragon_and_footman_on_dragonstone(mod_rules, False), T, march)
    s = act(dragon_and_footman_on_dragonstone(mod_rules, True), T, march)
    assert sorted(u.type for u in s.units["storms-end"]) == ["dragon", "footman"]


def test_11_5_5_khal_drogo_does_not_count_dragons_as_knights(mod_rules: Ruleset) -> None:
    """Round 4 (dragons 2 each): a knight and two dragons with Khal Drogo against 3 footmen
    and Ser Rodrik Cassel. Drogo adds +1 and +1 sword for the one knight only: 2 + 2 x 2 +
    4 + 1 = 11 against 3 + 1; its 1 sword is stopped by Rodrik's 2 fortifications."""
    s = attack_blackwater(mod_rules, "khal-drogo", ("knight", "dragon", "dragon"), round_number=4)
    assert strength(s) == (11, 4)
    assert len(s.units["harrenhal"]) == 3  # no casualty: every footman retreated


def test_11_5_3_a_dragon_on_an_island_still_flies(mod_rules: Ruleset) -> None:
    """Dragonstone has no land neighbour and no ship around: the footman cannot move, yet the
    dragon alone flies to Karhold, so the March order is not dropped unasked."""
    s = dragon_and_footman_on_dragonstone(mod_rules, False)
    s = act(s, T, ResolveMarch("dragonstone", (("karhold", ("dragon",)),)))
    assert [u.type for u in s.units["karhold"]] == ["dragon"]
    assert [u.type for u in s.units["dragonstone"]] == ["footman"]
