"""Resolving Raid orders (5.2): remove one adjacent enemy order, pillaging Consolidate Power."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from . import board, power
from .actions import Action
from .errors import IllegalTarget, NotYourOrder
from .flow import Decision, Prompt, off_limits, pending
from .state import Order, State

RAID = "raid"
CONSOLIDATE = "consolidate_power"
RAIDABLE = frozenset({"support", RAID, CONSOLIDATE})
STARRED_RAIDABLE = RAIDABLE | {"defense"}


@dataclasses.dataclass(frozen=True, slots=True)
class ResolveRaid(Action):
    """Resolve the Raid order in ``area``, removing the order in ``target`` (None: no target,
    5.2.2)."""

    kind: ClassVar[str] = "resolve_raid"
    area: str
    target: str | None = None


def raid_areas(state: State, house: str) -> list[str]:
    """Areas holding ``house``'s Raid orders, sorted."""
    tokens = state.rules.order_tokens
    return sorted(
        a for a, o in state.orders.items() if o.house == house and tokens[o.token].type == RAID
    )


def targets(state: State, area: str) -> list[str]:
    """Areas the Raid order in ``area`` may target (5.2.1, §12.14, §12.15): adjacent and not
    blocked, of a kind this area may raid, holding another house's Support, Raid or Consolidate
    Power order (also Defense for a starred Raid; never March) or a plugin's raidable order
    (``OrderToken.raidable``), not off limits to the raider (``rule_off_limits``, 11.10.6).
    Sorted."""
    rules = state.rules
    raider = state.orders[area]
    allowed = STARRED_RAIDABLE if rules.order_tokens[raider.token].star else RAIDABLE
    kinds = rules.kind(area).raids
    out = []
    for other in sorted(board.neighbours(state, area)):
        order = state.orders.get(other)
        if (
            order is not None
            and order.house != raider.house
            and rules.areas[other].kind in kinds
            and (
                rules.order_tokens[order.token].type in allowed
                or rules.order_tokens[order.token].raidable
            )
            and not (rules.hooks.off_limits and off_limits(state, raider.house, other, "raid"))
        ):
            out.append(other)
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class RaidTurn(Decision):
    """``house`` resolves one of its Raid orders (5.1, 5.2)."""

    house: str
    reads_first: ClassVar[bool] = True

    def prompts(self, state: State) -> dict[str, Prompt]:
        areas = raid_areas(state, self.house)
        if not areas:
            return {}
        data: dict[str, Any] = {
            "raids": {
                a: {"token": state.orders[a].token, "targets": targets(state, a)} for a in areas
            },
            "may_skip_target": True,
        }
        return {self.house: Prompt(self.house, "raid", (ResolveRaid.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, ResolveRaid)
        raids = pending(state)[house].data["raids"]  # raid_areas and their targets
        if action.area not in raids:
            raise NotYourOrder(f"{house} has no Raid order in {action.area!r}", "5.2")
        if action.target is not None and action.target not in raids[action.area]["targets"]:
            raise IllegalTarget(
                f"the Raid in {action.area!r} cannot remove an order in {action.target!r}"
            )
        state.pop()
        raid_token = state.orders.pop(action.area).token
        becomes = state.rules.order_tokens[raid_token].unused_becomes
        if action.target is None and becomes is not None:
            state.orders[action.area] = Order(house, becomes)
        removed = None
        gained = lost = 0
        if action.target is not None:
            victim = state.orders.pop(action.target)
            removed = victim.token
            if state.rules.order_tokens[removed].type == CONSOLIDATE:
                gained = power.gain(state, house, 1)
                lost = power.lose(state, victim.house, 1)
        state.emit(
            "raid",
            house=house,
            area=action.area,
            token=raid_token,
            target=action.target,
            removed=removed,
            gained=gained,
            lost=lost,
        )

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        raids = pending(state)[house].data["raids"]
        choices = [ResolveRaid(a, t) for a, raid in raids.items() for t in (None, *raid["targets"])]
        return rnd.choice(choices)
