"""Random-play conformance: full games with uniformly random legal decisions and the game's
invariants checked after every action (issue 2, acceptance 2). Used by the test suite, by
``benchmarks/conformance.py`` and by modders testing their plugins against the real engine."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from .engine import board
from .engine.actions import Action
from .engine.content import LAND, Ruleset
from .engine.flow import apply, pending, random_action
from .engine.power import MAX_POWER, on_board
from .engine.setup import new_game
from .engine.state import State


def violations(state: State) -> list[str]:
    """Every invariant of the rules that ``state`` breaks (an empty list when all hold)."""
    out: list[str] = []
    rules = state.rules
    for area, units in state.units.items():
        if not units:
            out.append(f"empty unit tuple kept for {area}")
            continue
        houses = {u.house for u in units}
        if len(houses) > 1:
            out.append(f"two houses in {area}: {sorted(houses)}")
        for u in units:
            if rules.unit_types[u.type].domain != rules.domain[area]:
                out.append(f"{u.type} of {u.house} in {area} ({rules.domain[area]})")
        cap = rules.kind(area).rules.unit_cap(state, area)
        if cap is not None and len(units) > cap:
            out.append(f"{len(units)} units in {area}, cap {cap}")
        if area in state.blocked:
            out.append(f"units in blocked area {area}")
        if area in state.neutral:
            out.append(f"units beside a neutral force in {area}")
    for house in state.houses:
        counts = board.units_of(state, house)
        for unit_type, n in counts.items():
            limit = rules.houses[house].unit_limits.get(unit_type, 0)
            if n > limit:
                out.append(f"{house} has {n} {unit_type}, limit {limit}")
        if state.power[house] < 0:
            out.append(f"{house} has negative power {state.power[house]}")
        if state.power[house] + on_board(state, house) > MAX_POWER:
            out.append(f"{house} holds more than {MAX_POWER} power tokens")
        if not 0 <= state.supply[house] <= 6:
            out.append(f"{house} supply {state.supply[house]} off the track")
    for area, house in state.power_tokens.items():
        if rules.domain[area] != LAND:
            out.append(f"power token of {house} in non-land area {area}")
        if area in state.units and state.units[area][0].house != house:
            out.append(f"power token of {house} under another house's units in {area}")
    if state.combat is None:
        for area, order in state.orders.items():
            if area not in state.units:
                out.append(f"order {order.token} of {order.house} in empty {area}")
            elif state.units[area][0].house != order.house:
                out.append(f"order of {order.house} on another house's units in {area}")
    if not 0 <= state.threat <= 12:
        out.append(f"wildling threat {state.threat} off the track")
    if state.winner is None and not pending(state):
        out.append("no decision pending and no winner")
    return out


def supply_violations(state: State) -> list[str]:
    """Houses over their supply limit; checked where the rules enforce it (start of Planning)."""
    return [
        f"{h} breaks supply {state.supply[h]}: armies {board.army_sizes(state, h)}"
        for h in state.houses
        if not board.within_supply(state, h)
    ]


@dataclasses.dataclass
class Playout:
    """The outcome of one random game: its final state, the decisions made (house, action) and
    any broken invariants."""

    state: State
    actions: list[tuple[str, Action]]
    decisions: int
    problems: list[str]

    @property
    def log(self) -> list[tuple[str, dict[str, Any]]]:
        """The decisions as a game log: (house, the action's JSON)."""
        return [(house, action.to_json()) for house, action in self.actions]


def random_game(
    rules: Ruleset,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = True,
    max_decisions: int = 20_000,
) -> Playout:
    """Play one game with uniformly random legal decisions for every house."""
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    log: list[tuple[str, Action]] = []
    problems: list[str] = []
    last_round_checked = 0
    for n in range(max_decisions):
        waiting = pending(state)
        if not waiting:
            break
        if check and state.round != last_round_checked and _is_planning(waiting):
            problems += [f"round {state.round}: {p}" for p in supply_violations(state)]
            last_round_checked = state.round
        house = rnd.choice(sorted(waiting))
        action: Action = random_action(state, house, rnd)
        log.append((house, action))
        state, _ = apply(state, house, action)
        if check:
            found = violations(state)
            if found:
                problems += [f"after decision {n + 1} ({house} {action}): {p}" for p in found]
                break
    else:
        problems.append(f"game not over after {max_decisions} decisions")
    if state.winner is None and not problems:
        problems.append("game ended without a winner")
    return Playout(state, log, len(log), problems)


def _is_planning(waiting: Mapping[str, Any]) -> bool:
    return any(p.kind == "place_orders" for p in waiting.values())
