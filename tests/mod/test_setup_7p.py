"""The 7-player game of Mother of Dragons (RULES.md 11.1-11.3) against the shared fact file
(``mother_of_dragons``), field by field: board, House Arryn, tracks, star limits, setup."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from westeros.engine import tracks
from westeros.engine.content import Ruleset
from westeros.engine.errors import ContentError
from westeros.engine.setup import new_game

from .conftest import MOD, TRACK_KEYS, assert_area_matches


def test_11_1_every_area_of_the_7_player_board_matches_the_fact_file(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    theirs = {a["id"]: a for a in facts["mother_of_dragons"]["map_7p"]["areas"]}
    assert set(mod_rules.areas) - mod_rules.setups[7].blocked_areas == set(theirs)
    assert len(theirs) == 61
    for area_id, fact in theirs.items():
        assert_area_matches(mod_rules.areas[area_id], fact)


def test_11_1_adjacency_of_the_7_player_board_is_the_fact_files(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    theirs = {frozenset(p) for p in facts["mother_of_dragons"]["map_7p"]["adjacent"]}
    blocked = mod_rules.setups[7].blocked_areas
    ours = {
        frozenset((a, b))
        for a, ns in mod_rules.adjacency.items()
        for b in ns
        if a not in blocked and b not in blocked
    }
    assert ours == theirs
    assert "the-narrow-sea" not in mod_rules.adjacency["white-harbor"]  # The Bite between
    assert "the-bite" in mod_rules.adjacency["white-harbor"]


def test_11_3_1_the_eyrie_is_arryns_home_stronghold(mod_rules: Ruleset) -> None:
    eyrie = mod_rules.areas["the-eyrie"]
    assert (eyrie.castle, eyrie.home_of, eyrie.garrison) == (2, "arryn", 4)
    assert mod_rules.houses["arryn"].home == "the-eyrie"
    assert mod_rules.areas["port-of-the-eyrie"].attrs == {
        "port_of": "the-eyrie",
        "port_sea": "the-narrow-sea",
    }


def test_11_3_1_arryns_unit_pool_and_house_cards_match_the_fact_file(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    arryn = facts["mother_of_dragons"]["houses"]["arryn"]
    assert dict(mod_rules.houses["arryn"].unit_limits) == arryn["unit_limits"]
    assert mod_rules.cards_of["arryn"] == tuple(c["id"] for c in arryn["house_cards"])
    for fact in arryn["house_cards"]:
        card = mod_rules.house_cards[fact["id"]]
        assert card.name == fact["name"]
        assert (card.strength, card.swords, card.fortifications) == (
            fact["strength"],
            fact["swords"],
            fact["fortifications"],
        )
        assert (card.ability is not None) is fact["has_ability"], fact["id"]
        assert bool(card.text) is fact["has_ability"], fact["id"]


@pytest.fixture(scope="module")
def seven(mod_rules: Ruleset) -> Any:
    return new_game(mod_rules, 7, 11, MOD, start=False)


def test_11_2_1_seven_houses_and_their_tracks(seven: Any, facts: dict[str, Any]) -> None:
    setup = facts["mother_of_dragons"]["setups"][0]
    assert setup["playerCount"] == 7
    assert list(seven.houses) == setup["houses"]
    for ours, theirs in TRACK_KEYS.items():
        assert list(seven.tracks[ours]) == setup["tracks"][theirs], ours
        assert len(seven.tracks[ours]) == 7


def test_11_2_4_star_limits_by_kings_court_position_with_7_houses(seven: Any) -> None:
    court = seven.tracks["kings_court"]
    assert [tracks.star_limit(seven, h) for h in court] == [3, 3, 2, 1, 0, 0, 0]


def test_11_2_6_arryns_starting_units_supply_and_garrison(
    seven: Any, facts: dict[str, Any]
) -> None:
    units = facts["mother_of_dragons"]["starting_units"]["arryn"]
    wanted = Counter({(u["area"], u["unit"]): u["count"] for u in units})
    placed = Counter(
        (area, u.type) for area, units in seven.units.items() for u in units if u.house == "arryn"
    )
    assert placed == wanted
    assert seven.supply["arryn"] == facts["mother_of_dragons"]["houses"]["arryn"]["starting_supply"]
    assert seven.garrisons["the-eyrie"] == 4
    assert seven.power["arryn"] == facts["starting_power_tokens"]
    assert seven.hands["arryn"] == seven.rules.cards_of["arryn"]


def test_11_1_king_s_landing_is_the_only_neutral_force(seven: Any, facts: dict[str, Any]) -> None:
    assert seven.neutral == {"kings-landing": 5}
    mod = facts["mother_of_dragons"]
    essos = {a["id"] for a in mod["map_8p_with_essos"]["areas"]}
    assert seven.blocked == essos - {a["id"] for a in mod["map_7p"]["areas"]}  # 11.2.1


def test_11_2_1_base_houses_start_as_in_the_base_game(
    seven: Any, rules: Ruleset, facts: dict[str, Any]
) -> None:
    base = new_game(rules, 6, 11, start=False)
    for house in base.houses:
        ours = sorted((a, u.type) for a, us in seven.units.items() for u in us if u.house == house)
        theirs = sorted((a, u.type) for a, us in base.units.items() for u in us if u.house == house)
        assert ours == theirs, house
        assert seven.supply[house] == base.supply[house], house


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_11_2_5_fewer_players_with_mother_of_dragons_are_refused_clearly(
    mod_rules: Ruleset, players: int
) -> None:
    with pytest.raises(ContentError, match=r"played with \[7, 8\] players.*vassals.*11\.2\.5"):
        new_game(mod_rules, players, 1, MOD)


def test_11_2_1_seven_players_need_the_option(rules: Ruleset) -> None:
    with pytest.raises(ContentError, match="no setup for 7 players"):
        new_game(rules, 7, 1)
