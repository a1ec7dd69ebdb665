"""Setups for 3-6 players compared field by field with the fact file (RULES.md 2)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from westeros.engine import board, tracks
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game

FACTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "westeros-2e.json"

pytestmark = pytest.mark.skipif(not FACTS.exists(), reason=f"fact file not found at {FACTS}")


@pytest.fixture(scope="module")
def facts() -> dict:
    return json.loads(FACTS.read_text("utf-8"))["base"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_2_setup_matches_the_fact_file(rules: Ruleset, facts: dict, players: int) -> None:
    fact = facts["setups_by_player_count"][str(players)]
    s = new_game(rules, players, seed=7, start=False)
    # 2.1 houses in play
    assert sorted(s.houses) == sorted(fact["houses"])
    # 1.6.1 tracks: base order with absent houses removed
    for track, order in facts["tracks"].items():
        assert s.tracks[track] == tuple(h for h in order if h in fact["houses"])
    # 2.2.1 neutral forces, 2.2.2 blocked areas
    assert s.neutral == fact["neutral_forces"]
    assert s.blocked == frozenset(fact.get("blocked_areas", []))
    # 2.3.1 starting units, except where not placed
    skip = set(fact.get("units_not_placed_in", []))
    expected: Counter[tuple[str, str, str]] = Counter()
    for house in fact["houses"]:
        for u in facts["starting_units"][house]:
            if u["area"] not in skip:
                expected[(u["area"], house, u["unit"])] += u["count"]
    placed = Counter((a, u.house, u.type) for a, units in s.units.items() for u in units)
    assert placed == expected
    for house in fact["houses"]:
        # 2.3.2 garrison on the home area
        home = rules.houses[house].home
        assert s.garrisons[home] == 2
        # 2.3.3 five available power tokens
        assert s.power[house] == 5
        # 2.3.4 seven cards in hand, empty discard pile
        assert len(s.hands[house]) == 7 and s.discards[house] == ()
        # 2.3.5 supply equals the starting supply of the fact file
        assert s.supply[house] == facts["houses"][house]["starting_supply"]
    # garrisons only for houses in play
    assert set(s.garrisons) == {rules.houses[h].home for h in fact["houses"]}
    # 2.2.3 round 1, threat 2
    assert s.round == 1 and s.threat == 2
    # 2.4 star limits: 3-4 players 3,2,1,0
    limits = [tracks.star_limit(s, h) for h in s.tracks["kings_court"]]
    table = facts["starred_orders_by_kings_court_position"]
    assert limits == table["3-4 players" if players <= 4 else "5-6 players"][: len(s.houses)]


def test_2_2_4_decks_are_shuffled_from_the_seed(rules: Ruleset) -> None:
    if not rules.wildling_cards or not rules.westeros_cards:
        pytest.skip("decks not registered yet")
    a = new_game(rules, 6, seed=1, start=False)
    b = new_game(rules, 6, seed=1, start=False)
    c = new_game(rules, 6, seed=2, start=False)
    assert a.wildling_deck == b.wildling_deck and a.westeros_decks == b.westeros_decks
    assert (a.wildling_deck, a.westeros_decks) != (c.wildling_deck, c.westeros_decks)
    assert sorted(a.wildling_deck) == sorted(rules.wildling_cards)


def test_2_3_6_victory_markers_count_starting_castles(rules: Ruleset, facts: dict) -> None:
    s = new_game(rules, 6, seed=1, start=False)
    castles = {a["id"] for a in facts["map"]["areas"] if a["castle"]}
    for house, units in facts["starting_units"].items():
        held = {u["area"] for u in units if u["area"] in castles}
        assert board.castle_count(s, house) == len(held), house


def test_2_ports_plugin_off_removes_port_ships(rules_no_ports: Ruleset) -> None:
    s = new_game(rules_no_ports, 6, seed=1, start=False)
    assert not any(a.startswith("port-of") for a in s.rules.areas)
    assert Counter(u.type for u in s.units.get("ironmans-bay", ())) == {"ship": 1}
