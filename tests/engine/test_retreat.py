"""Retreat (RULES.md 5.4.10) and §12 items 10, 11, 12 and 36."""

from __future__ import annotations

import pytest

from tests.builders import act, blank, prompt, put
from tests.engine.test_combat import fight, hand, units
from westeros.engine import board
from westeros.engine.actions import SelectArea, SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalMove, NotPending
from westeros.engine.state import State


def _blackwater(rules: Ruleset) -> State:
    """Stark defends Blackwater with a footman against Lannister's knight from Stoney Sept;
    Tywin (4, no swords) beats Catelyn Stark (0)."""
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "catelyn-stark")
    return s


def test_5_4_10_the_loser_chooses_among_legal_areas_only(rules: Ruleset) -> None:
    s = _blackwater(rules)
    put(s, "crackclaw-point", "baratheon", "footman")  # another house's units
    s.power_tokens["harrenhal"] = "greyjoy"  # another house's power token
    assert s.neutral["kings-landing"] == 5  # a neutral force
    put(s, "the-reach", "stark", "footman")  # the loser's own area: fine
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    p = prompt(s, "stark")
    assert p.kind == "retreat" and p.data["loser"] == "stark"
    # Stoney Sept, where the attacker came from, is empty now but still excluded (§12.10).
    assert p.data["areas"] == ["searoad-marches", "the-reach"]
    s = act(s, "stark", SelectArea("the-reach"))
    assert units(s, "the-reach") == [("stark", "footman", False), ("stark", "footman", True)]
    assert units(s, "blackwater") == [("lannister", "knight", False)]


def test_5_4_10_never_into_another_houses_home_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "searoad-marches", "stark", "footman")
    put(s, "blackwater", "baratheon", "knight")
    hand(s, "baratheon", "stannis-baratheon")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "baratheon", "blackwater", "searoad-marches")
    assert prompt(s, "stark").data["areas"] == ["stoney-sept", "the-reach"]

    s = blank(rules)
    put(s, "searoad-marches", "stark", "footman")
    put(s, "blackwater", "baratheon", "knight")
    del s.garrisons["lannisport"]
    s.power_tokens["lannisport"] = "stark"  # Stark's token overrides the printed one (1.3.3)
    hand(s, "baratheon", "stannis-baratheon")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "baratheon", "blackwater", "searoad-marches")
    assert prompt(s, "stark").data["areas"] == ["lannisport", "stoney-sept", "the-reach"]


def test_5_4_10_retreat_may_use_the_losers_own_ship_transport(rules: Ruleset) -> None:
    def setup(ship_owner: str) -> State:
        s = blank(rules)
        s.blade_used = True
        put(s, "the-stony-shore", "stark", "footman")
        put(s, "winterfell", "greyjoy", "knight", "footman")
        put(s, "bay-of-ice", ship_owner, "ship")
        hand(s, "greyjoy", "victarion-greyjoy")
        hand(s, "stark", "catelyn-stark")
        return fight(s, "greyjoy", "winterfell", "the-stony-shore", "knight")

    s = setup("stark")
    assert prompt(s, "stark").data["areas"] == ["castle-black", "flints-finger", "greywater-watch"]
    s = act(s, "stark", SelectArea("greywater-watch"))
    assert units(s, "greywater-watch") == [("stark", "footman", True)]
    # Only the loser's own ships carry it: with a Greyjoy ship there is nowhere to go.
    s = setup("greyjoy")
    assert board.units_of(s, "stark")["footman"] == 0


def test_5_4_10_a_losing_attacker_goes_back_routed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman", "footman")
    hand(s, "lannister", "cersei-lannister")
    hand(s, "stark", "the-blackfish")
    s = fight(s, "lannister", "stoney-sept", "blackwater", "footman")
    assert units(s, "stoney-sept") == [
        ("lannister", "footman", False),
        ("lannister", "footman", True),
    ]
    assert units(s, "blackwater") == [("stark", "footman", False)]


def test_5_4_10_with_no_legal_area_the_units_are_destroyed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "widows-watch", "stark", "footman", "knight")
    put(s, "white-harbor", "lannister", "knight", "knight")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "lannister", "white-harbor", "widows-watch")
    assert board.units_of(s, "stark") == {}
    assert units(s, "widows-watch") == [("lannister", "knight", False)] * 2


def test_6_2_6_ships_retreat_into_a_port_of_their_own_land_only(rules: Ruleset) -> None:
    def setup(loser: str, in_port: int) -> State:
        s = blank(rules)
        s.blade_used = True
        s.supply[loser] = 6  # only the port's capacity limits the retreat
        put(s, "the-golden-sound", loser, "ship")
        put(s, "sunset-sea", "greyjoy", "ship")
        if in_port:
            put(s, "port-of-lannisport", "lannister", *["ship"] * in_port)
        put(s, "ironmans-bay", "greyjoy", "ship", "ship")
        hand(s, "greyjoy", "victarion-greyjoy")
        hand(s, loser, "catelyn-stark" if loser == "stark" else "cersei-lannister")
        return fight(s, "greyjoy", "ironmans-bay", "the-golden-sound")

    s = setup("lannister", 0)
    assert units(s, "port-of-lannisport") == [("lannister", "ship", True)]
    s = setup("lannister", 3)  # the port already holds its 3 ships (6.1.3)
    assert units(s, "port-of-lannisport") == [("lannister", "ship", False)] * 3
    assert board.units_of(s, "lannister")["ship"] == 3
    s = setup("stark", 0)
    assert board.units_of(s, "stark") == {}


def test_5_4_10_an_illegal_retreat_area_is_refused(rules: Ruleset) -> None:
    s = fight(_blackwater(rules), "lannister", "stoney-sept", "blackwater")
    before = s.hash()
    for area in ("stoney-sept", "kings-landing", "winterfell", None):
        with pytest.raises(IllegalMove):
            act(s, "stark", SelectArea(area))
    with pytest.raises(NotPending):
        act(s, "lannister", SelectArea("harrenhal"))
    assert s.hash() == before


def test_12_10_the_defender_may_not_retreat_into_the_attackers_empty_origin(
    rules: Ruleset,
) -> None:
    s = _blackwater(rules)
    for area in ("crackclaw-point", "harrenhal", "searoad-marches", "the-reach"):
        put(s, area, "baratheon", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert "stoney-sept" not in s.units and board.controller(s, "stoney-sept") is None
    assert board.units_of(s, "stark") == {}
    assert units(s, "blackwater") == [("lannister", "knight", False)]


def test_12_11_only_areas_with_the_fewest_supply_losses_and_only_retreating_units_die(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    s.blade_used = True
    s.supply["stark"] = 2  # armies allowed: 3, 2, 2
    put(s, "castle-black", "stark", "footman", "knight")
    put(s, "winterfell", "stark", "footman")
    put(s, "karhold", "stark", "footman", "footman", "footman")
    put(s, "the-stony-shore", "greyjoy", "knight", "knight")
    hand(s, "greyjoy", "victarion-greyjoy")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "greyjoy", "the-stony-shore", "castle-black")
    # Winterfell costs 1 unit (armies 3 and 2), Karhold 2; Winterfell is the only choice and
    # Stark picks which retreating unit is lost.
    p = prompt(s, "stark")
    assert p.kind == "destroy_units" and p.data["count"] == 1
    assert sorted(map(tuple, p.data["units"])) == [
        ("castle-black", "footman"),
        ("castle-black", "knight"),
    ]
    s = act(s, "stark", SelectUnits((("castle-black", "footman"),)))
    assert units(s, "winterfell") == [("stark", "footman", False), ("stark", "knight", True)]
    assert units(s, "karhold") == [("stark", "footman", False)] * 3


def test_12_12_an_attacker_whose_origin_reverted_is_destroyed(rules: Ruleset) -> None:
    s = blank(rules)
    del s.garrisons["lannisport"]  # Stark captured Lannisport earlier
    put(s, "lannisport", "stark", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    hand(s, "stark", "catelyn-stark")
    hand(s, "lannister", "the-hound")
    s = fight(s, "stark", "lannisport", "stoney-sept")
    assert board.controller(s, "lannisport") == "lannister"
    assert board.units_of(s, "stark") == {}
    assert units(s, "stoney-sept") == [("lannister", "knight", False)]


def test_12_36_robb_stark_picks_the_defenders_retreat(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["lannister"] = 1  # armies allowed: 3, 2
    put(s, "blackwater", "lannister", "footman", "footman")
    put(s, "harrenhal", "lannister", "footman", "footman")
    put(s, "the-reach", "baratheon", "footman")
    put(s, "stoney-sept", "stark", "knight", "knight")
    hand(s, "stark", "robb-stark")
    hand(s, "lannister", "the-hound")
    s = fight(s, "stark", "stoney-sept", "blackwater")
    assert prompt(s, "lannister") is None
    p = prompt(s, "stark")
    # Harrenhal would cost Lannister a unit (an army of 4), so it is not offered.
    assert p.kind == "retreat" and p.data["loser"] == "lannister"
    assert p.data["areas"] == ["crackclaw-point", "searoad-marches"]
    s = act(s, "stark", SelectArea("searoad-marches"))
    assert units(s, "searoad-marches") == [("lannister", "footman", True)] * 2
