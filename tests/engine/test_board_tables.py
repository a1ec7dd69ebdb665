"""The tables the engine's speed work keeps (issue 36 point 6) answer as the board does: the
unblocked neighbours of every area by domain (1.10.4), the sea areas next to each area and the
shores of each sea (5.3.6), and the one-pass control counts (1.3: victory 9.1, supply 1.7.1,
ranking 9.2) equal asking each area on its own, for every plugin option set."""

from __future__ import annotations

import random
from typing import Any

import pytest

from westeros.engine import board
from westeros.engine.content import LAND, SEA
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

OPTION_SETS: list[tuple[int, dict[str, Any], tuple[str, ...]]] = [
    (3, {}, ()),
    (6, {}, ()),
    (6, {"tides_of_battle": True}, ()),
    (7, {"mother_of_dragons": True}, ()),
    (6, {}, ("westeros_ports",)),
]
"""(players, options, disabled plugins) of the games checked."""


def _states(players: int, options: dict[str, Any], disable: tuple[str, ...]) -> list[State]:
    """Every 25th waiting state of a random game, to its end."""
    rules = build_ruleset(options, disable=list(disable))
    rnd = random.Random(players)
    state = new_game(rules, players, players, options)
    out = []
    made = 0
    while waiting := pending(state):
        if made % 25 == 0:
            out.append(state)
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))
        made += 1
    return [*out, state]


@pytest.mark.parametrize(("players", "options", "disable"), OPTION_SETS)
def test_1_10_4_neighbour_tables_hold_the_unblocked_adjacent_areas(
    players: int, options: dict[str, Any], disable: tuple[str, ...]
) -> None:
    rules = build_ruleset(options, disable=list(disable))
    blocked = new_game(rules, players, 0, options).blocked
    table = rules.open_near(blocked)
    for area, near in rules.adjacency.items():
        for domain in (LAND, SEA):
            expected = {a for a in near if a not in blocked and rules.domain[a] == domain}
            assert set(table[area].get(domain, ())) == expected, (area, domain)
        seas = {a for a in near if rules.areas[a].kind == SEA}
        assert set(rules.seas_near[area]) == seas, area
        if rules.areas[area].kind == SEA:
            shores = {a for a in near if rules.domain[a] == LAND}
            assert set(rules.shores[area]) == shores, area


@pytest.mark.parametrize(("players", "options", "disable"), OPTION_SETS)
def test_1_3_control_counted_in_one_pass_is_control_asked_area_by_area(
    players: int, options: dict[str, Any], disable: tuple[str, ...]
) -> None:
    for state in _states(players, options, disable):
        rules = state.rules
        castles = [board.controller(state, a) for a in sorted(rules.castle_areas)]
        assert board.controllers(state, sorted(rules.castle_areas)) == castles
        assert board.most_castles(state) == max(castles.count(h) for h in state.houses)
        lands = [board.controller(state, a) for a in rules.land_areas]
        counts = board.land_counts(state)
        for house in state.houses:
            assert counts[house] == lands.count(house)
            icons = sum(n for a, n in rules.barrel_areas if board.controller(state, a) == house)
            assert board.barrels(state, house) == min(6, icons)
