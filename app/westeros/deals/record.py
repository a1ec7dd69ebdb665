"""The public record of a game as deal acts: what the engine reported, asked of the engine.

``acts`` turns the events of one decision (``flow.apply``) into ``book.Act`` entries, reading
who controlled an area (1.3), whose order a Raid removed (5.2) and whom a support declaration
helped (5.4.1) from the public state just before that decision. Only events every house may see
count; no rule is decided here."""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import board
from ..engine.combat.support import NOBODY
from ..engine.state import Event, State
from .book import BID, MARCH, RAID, SUPPORT, Act


def acts(before: State, events: Iterable[Event]) -> list[Act]:
    """The deal acts of ``events``, emitted by one decision taken in ``before``."""
    out: list[Act] = []
    rnd = before.round
    for event in events:
        if event.to is not None:
            continue
        data = event.data
        if event.kind == "march":
            for dst, _ in data["moves"]:
                owner = board.controller(before, dst)
                out.append(Act(MARCH, data["house"], rnd, dst, owner))
        elif event.kind == "raid" and data["target"] is not None:
            victim = before.orders[data["target"]].house
            out.append(Act(RAID, data["house"], rnd, data["target"], victim))
        elif event.kind == "support_declared" and before.combat is not None:
            side = data["side"]
            combat = before.combat
            helped = None if side == NOBODY else combat.side(side).house
            fighting = (combat.attacker.house, combat.defender.house)
            out.append(Act(SUPPORT, data["house"], rnd, combat.area, helped, fighting=fighting))
        elif event.kind == "bids":
            for house, amount in data["bids"].items():
                out.append(Act(BID, house, rnd, track=data["track"], amount=amount))
    return out
