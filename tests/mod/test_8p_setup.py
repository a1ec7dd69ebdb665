"""The 8-player game of Mother of Dragons (RULES.md 11.2.2-11.2.4, 11.2.6, 11.4) against the
shared fact file (``mother_of_dragons``), field by field: the board with Essos, House
Targaryen, its units, the tracks, garrisons, neutral forces and star limits."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from westeros.engine import tracks
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.setup import new_game
from westeros.engine.state import State

from .conftest import MOD, TRACK_KEYS, assert_area_matches


@pytest.fixture(scope="module")
def eight(mod_rules: Ruleset) -> State:
    return new_game(mod_rules, 8, 12, MOD, start=False)


def test_11_2_2_every_area_of_the_8_player_board_matches_the_fact_file(
    eight: State, facts: dict[str, Any]
) -> None:
    theirs = {a["id"]: a for a in facts["mother_of_dragons"]["map_8p_with_essos"]["areas"]}
    rules = eight.rules
    assert set(rules.areas) == set(theirs)
    assert eight.blocked == frozenset()  # Essos is in play with Targaryen
    for area_id, fact in theirs.items():
        assert_area_matches(rules.areas[area_id], fact)


def test_11_2_2_adjacency_of_the_8_player_board_is_the_fact_files(
    eight: State, facts: dict[str, Any]
) -> None:
    theirs = {frozenset(p) for p in facts["mother_of_dragons"]["map_8p_with_essos"]["adjacent"]}
    ours = {frozenset((a, b)) for a, ns in eight.rules.adjacency.items() for b in ns}
    assert ours == theirs


def test_11_4_2_essos_meets_westeros_only_at_sea(eight: State, facts: dict[str, Any]) -> None:
    mod = facts["mother_of_dragons"]
    essos = {a["id"] for a in mod["map_8p_with_essos"]["areas"]} - {
        a["id"] for a in mod["map_7p"]["areas"]
    }
    rules = eight.rules
    assert {"pentos", "braavos", "volantis", "myr", "norvos", "the-rhoyne"} <= essos
    for area in essos:
        for n in rules.adjacency[area] - essos:
            assert rules.areas[area].kind == "sea" and rules.areas[n].kind == "sea", (area, n)


def test_11_2_2_eight_houses_and_their_tracks(eight: State, facts: dict[str, Any]) -> None:
    setup = facts["mother_of_dragons"]["setups"][1]
    assert setup["playerCount"] == 8
    assert list(eight.houses) == setup["houses"]
    for ours, theirs in TRACK_KEYS.items():
        assert list(eight.tracks[ours]) == setup["tracks"][theirs], ours
        assert eight.tracks[ours][-1] == "targaryen"  # 11.2.3


def test_11_2_4_star_limits_by_kings_court_position_with_8_houses(eight: State) -> None:
    court = eight.tracks["kings_court"]
    assert [tracks.star_limit(eight, h) for h in court] == [3, 3, 2, 1, 0, 0, 0, 3]


def test_11_4_3_targaryens_unit_pool_and_house_cards_match_the_fact_file(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    targaryen = facts["mother_of_dragons"]["houses"]["targaryen"]
    house = mod_rules.houses["targaryen"]
    assert dict(house.unit_limits) == targaryen["unit_limits"]
    assert "siege_engine" not in house.unit_limits
    assert house.home == "pentos"
    a_deck = tuple(c["id"] for c in targaryen["house_cards"])
    assert new_game(mod_rules, 8, 1, MOD, start=False).hands["targaryen"] == a_deck
    for fact in targaryen["house_cards"]:
        card = mod_rules.house_cards[fact["id"]]
        assert card.name == fact["name"]
        assert (card.strength, card.swords, card.fortifications) == (
            fact["strength"],
            fact["swords"],
            fact["fortifications"],
        )
        assert (card.ability is not None) is fact["has_ability"], fact["id"]
        assert bool(card.text) is fact["has_ability"], fact["id"]


def test_11_2_6_targaryens_starting_units_supply_and_garrison(
    eight: State, facts: dict[str, Any]
) -> None:
    mod = facts["mother_of_dragons"]
    wanted = Counter(
        {(u["area"], u["unit"]): u["count"] for u in mod["starting_units"]["targaryen"]}
    )
    placed = Counter(
        (area, u.type)
        for area, units in eight.units.items()
        for u in units
        if u.house == "targaryen"
    )
    assert placed == wanted
    assert placed[("norvos", "dragon")] + placed[("the-rhoyne", "dragon")] == 3
    assert eight.supply["targaryen"] == mod["houses"]["targaryen"]["starting_supply"]
    assert eight.garrisons["pentos"] == 2
    assert eight.garrisons["the-eyrie"] == 4
    assert eight.power["targaryen"] == facts["starting_power_tokens"]
    assert len(eight.hands["targaryen"]) == 7


def test_11_1_king_s_landing_and_braavos_hold_the_neutral_forces(eight: State) -> None:
    assert eight.neutral == {"kings-landing": 5, "braavos": 5}


def test_11_2_2_the_other_houses_start_as_with_7_players(mod_rules: Ruleset, eight: State) -> None:
    seven = new_game(mod_rules, 7, 12, MOD, start=False)
    for house in seven.houses:
        ours = sorted((a, u.type) for a, us in eight.units.items() for u in us if u.house == house)
        theirs = sorted(
            (a, u.type) for a, us in seven.units.items() for u in us if u.house == house
        )
        assert ours == theirs, house


def test_11_5_1_dragons_are_never_mustered(mod_rules: Ruleset) -> None:
    assert mod_rules.unit_types["dragon"].musterable is False
    assert mod_rules.unit_types["dragon"].domain == "land"


def test_11_2_2_an_8_player_game_starts_with_a_planning_prompt_for_every_house(
    mod_rules: Ruleset,
) -> None:
    s = new_game(mod_rules, 8, 3, MOD)
    assert set(pending(s)) == set(s.houses)
    assert {p.kind for p in pending(s).values()} == {"place_orders"}
