"""Resolving Consolidate Power orders (5.6): gain power, or muster with a starred order."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from . import power
from .action_phase import loop_of
from .actions import Action
from .content import LAND
from .errors import CannotMuster, NotYourOrder
from .flow import Decision, Prompt, pending
from .state import State

CONSOLIDATE = "consolidate_power"


@dataclasses.dataclass(frozen=True, slots=True)
class ResolveConsolidate(Action):
    """Resolve the Consolidate Power order in ``area``; ``muster`` musters there instead of
    gaining power (starred order in a castle area, 5.6.2)."""

    kind: ClassVar[str] = "resolve_consolidate"
    area: str
    muster: bool = False


def consolidate_areas(state: State, house: str) -> list[str]:
    """Areas holding ``house``'s orders resolved in the Consolidate Power loop (5.6; a
    plugin's order type too, 5.6.3), sorted."""
    tokens = state.rules.order_tokens
    return sorted(
        a
        for a, o in state.orders.items()
        if o.house == house and loop_of(tokens[o.token]) == CONSOLIDATE
    )


def is_consolidate(state: State, area: str) -> bool:
    """Is the order in ``area`` a Consolidate Power order (not a plugin's order type)?"""
    return state.rules.order_tokens[state.orders[area].token].type == CONSOLIDATE


def consolidate_yield(state: State, area: str, house: str) -> int:
    """Power a Consolidate Power order in ``area`` yields (5.6.1, §12.17): the area kind's own
    rule if it has one (ports, 6.2.2), else 1 + crowns on land and 0 at sea."""
    rules = state.rules
    custom = rules.kind(area).rules.consolidate_yield(state, area, house)
    if custom is not None:
        return custom
    if rules.domain[area] == LAND:
        return 1 + rules.areas[area].crowns
    return 0


def may_muster(state: State, area: str) -> bool:
    """May the Consolidate Power order in ``area`` muster instead (5.6.2, §12.18): starred and
    in a castle area (never in a port, 6.2.2)."""
    rules = state.rules
    token = rules.order_tokens[state.orders[area].token]
    return token.type == CONSOLIDATE and token.star and rules.areas[area].castle > 0


@dataclasses.dataclass(frozen=True, slots=True)
class ConsolidateTurn(Decision):
    """``house`` resolves one of its Consolidate Power orders (5.1, 5.6)."""

    house: str
    reads_first: ClassVar[bool] = True

    def prompts(self, state: State) -> dict[str, Prompt]:
        areas = consolidate_areas(state, self.house)
        if not areas:
            return {}
        data: dict[str, Any] = {
            "orders": {
                a: {
                    "token": state.orders[a].token,
                    "yield": consolidate_yield(state, a, self.house)
                    if is_consolidate(state, a)
                    else 0,
                    "may_muster": may_muster(state, a),
                }
                for a in areas
            }
        }
        return {
            self.house: Prompt(self.house, "consolidate_power", (ResolveConsolidate.kind,), data)
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, ResolveConsolidate)
        orders = pending(state)[house].data["orders"]  # consolidate_areas and what each may do
        if action.area not in orders:
            raise NotYourOrder(f"{house} has no Consolidate Power order in {action.area!r}", "5.6")
        if action.muster and not orders[action.area]["may_muster"]:
            raise CannotMuster(
                f"the Consolidate Power order in {action.area!r} cannot muster: only a starred "
                "order in a castle area may"
            )
        state.pop()
        plugin_type = not is_consolidate(state, action.area)
        token = state.orders.pop(action.area).token
        if plugin_type:  # a plugin's order type (5.6.3): the first hook that knows it
            for hook in state.rules.hooks.resolve_order:
                if hook(state, house, action.area, token):
                    break
            return
        if action.muster:
            from .mustering import MusterIn

            state.emit("consolidate_muster", house=house, area=action.area, token=token)
            state.push(MusterIn(house, action.area))
            return
        gained = power.gain(state, house, consolidate_yield(state, action.area, house))
        state.emit("consolidate_power", house=house, area=action.area, token=token, gained=gained)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        choices = []
        for area, order in pending(state)[house].data["orders"].items():
            choices.append(ResolveConsolidate(area))
            if order["may_muster"]:
                choices.append(ResolveConsolidate(area, muster=True))
        return rnd.choice(choices)
