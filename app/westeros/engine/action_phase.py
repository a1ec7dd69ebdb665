"""The Action phase (5.1): Raid, March and Consolidate Power loops, each in turn order."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from . import tracks
from .content import OrderToken, Ruleset
from .flow import Step
from .state import State

RAID = "raid"
MARCH = "march"
CONSOLIDATE = "consolidate_power"


def loop_of(token: OrderToken) -> str:
    """The order loop a token is resolved in (5.1): its type's, or the one a plugin's token
    names (``OrderToken.resolved_in``, 5.6.3)."""
    return token.resolved_in or token.type


@functools.lru_cache(maxsize=16)
def loops(rules: Ruleset) -> dict[str, str]:
    """The order loop (``loop_of``) of every order token of ``rules``, by token id."""
    return {t.id: loop_of(t) for t in rules.order_tokens.values()}


def houses_with(state: State, order_type: str) -> set[str]:
    """Houses that still have an order resolved in the ``order_type`` loop on the board."""
    tokens = loop_tokens(state.rules, order_type)
    return {house for house, token in state.orders.values() if token in tokens}


@functools.lru_cache(maxsize=64)
def loop_tokens(rules: Ruleset, order_type: str) -> frozenset[str]:
    """The ids of the order tokens of ``rules`` resolved in the ``order_type`` loop."""
    return frozenset(t for t, loop in loops(rules).items() if loop == order_type)


def areas_with(state: State, house: str, order_type: str) -> list[str]:
    """Areas where ``house`` has an order of ``order_type``."""
    tokens = state.rules.order_tokens
    return sorted(
        a
        for a, o in state.orders.items()
        if o.house == house and tokens[o.token].type == order_type
    )


@dataclasses.dataclass(frozen=True, slots=True)
class ActionPhase(Step):
    """Queue the three order loops (5.1). The Raven step runs inside Planning (4.4)."""

    def run(self, state: State) -> None:
        state.push(OrderLoop(RAID), OrderLoop(MARCH), OrderLoop(CONSOLIDATE))


@dataclasses.dataclass(frozen=True, slots=True)
class OrderLoop(Step):
    """One pass of the 5.1 loop: the next house in turn order after ``last`` that still has an
    ``order_type`` order resolves one of them; then the loop continues. Turn order is re-read
    every time (Doran Martell, 5.1). Plugins' ``rule_order_loop_start`` runs as a loop begins."""

    order_type: str
    last: str | None = None

    def run(self, state: State) -> None:
        if self.last is None:
            for hook in state.rules.hooks.order_loop_start:
                hook(state, self.order_type)
        waiting = houses_with(state, self.order_type)
        if not waiting:
            return
        order = tracks.turn_order(state)
        start = order.index(self.last) + 1 if self.last in order else 0
        house = next(h for h in order[start:] + order[:start] if h in waiting)
        state.push(turn_step(self.order_type, house), OrderLoop(self.order_type, house))


def turn_step(order_type: str, house: str) -> Step:
    """The decision in which ``house`` resolves one order of ``order_type``."""
    turns = _turns()
    return turns.get(order_type, turns[CONSOLIDATE])(house)


@functools.cache
def _turns() -> dict[str, Callable[[str], Step]]:
    """The turn decision of each order loop, imported on first use (they import this module)."""
    from .consolidate import ConsolidateTurn
    from .march import MarchTurn
    from .raid import RaidTurn

    return {RAID: RaidTurn, MARCH: MarchTurn, CONSOLIDATE: ConsolidateTurn}
