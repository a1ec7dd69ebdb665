"""Clash of Kings (3.6): secret bids for the three influence tracks, one track after another."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from . import power, tracks
from .actions import Action, Bid
from .errors import IllegalChoice
from .flow import Decision, Prompt, Simultaneous, Step
from .state import TRACKS, State


@dataclasses.dataclass(frozen=True, slots=True)
class TrackOrder(Action):
    """The full order of an influence track, first position first (ties of 3.6.3)."""

    kind: ClassVar[str] = "track_order"
    houses: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class ClashOfKings(Step):
    """Bid for the track ``TRACKS[track]`` and then for the later ones (3.6.1): Iron Throne,
    Fiefdoms, King's Court. Each bid starts only after the previous track is rebuilt."""

    track: int = 0

    def run(self, state: State) -> None:
        name = TRACKS[self.track]
        if self.track == 0:
            state.emit("clash_of_kings")
        bidders = tuple(h for h in tracks.turn_order(state) if state.power[h] > 0)
        steps: list[Step] = [TrackBid(name, bidders, ())]
        if self.track + 1 < len(TRACKS):
            steps.append(ClashOfKings(self.track + 1))
        state.push(*steps)


@dataclasses.dataclass(frozen=True, slots=True)
class TrackBid(Simultaneous):
    """Every house with available PT secretly bids 0..its available PT for ``track`` (3.6.2);
    a house without PT bids 0 without being asked."""

    track: str
    houses: tuple[str, ...]
    commits: tuple[tuple[str, Action], ...]
    commit_kinds: ClassVar[tuple[str, ...]] = (Bid.kind,)

    def prompt_for(self, state: State, house: str) -> Prompt:
        return Prompt(
            house, "bid", (Bid.kind,), {"track": self.track, "min": 0, "max": state.power[house]}
        )

    def check(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Bid)
        power.check_bid(state, house, action.amount, "3.6.2")

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Bid(rnd.randint(0, state.power[house]))

    def resolve(self, state: State, commits: dict[str, Action]) -> None:
        bids: dict[str, int] = {}
        for house in tracks.turn_order(state):
            action = commits.get(house)
            bids[house] = action.amount if isinstance(action, Bid) else 0
        for house, amount in bids.items():
            power.lose(state, house, amount)
        state.emit("bids", track=self.track, bids=bids)
        for hook in state.rules.hooks.bids_revealed:
            step = hook(state, self.track, bids)
            if step is not None:
                state.push(step)
                return
        build_track(state, self.track, bids)


def build_track(state: State, track: str, bids: dict[str, int]) -> None:
    """Rebuild ``track`` in descending order of ``bids`` (3.6.3); the Iron Throne holder
    orders tied houses (``BreakTies``)."""
    current = state.tracks[track]
    groups = tuple(
        tuple(h for h in current if bids[h] == amount)
        for amount in sorted(set(bids.values()), reverse=True)
    )
    if all(len(g) == 1 for g in groups):
        tracks.set_order(state, track, tuple(g[0] for g in groups))
        return
    amounts = tuple(bids[g[0]] for g in groups)
    state.push(BreakTies(track, tracks.holder(state, tracks.IRON_THRONE), groups, amounts))


@dataclasses.dataclass(frozen=True, slots=True)
class BreakTies(Decision):
    """The Iron Throne holder orders houses tied on their bids (3.6.3, §12.26): the pre-bid
    holder for the Iron Throne track, the newly determined one for the later tracks.
    ``groups`` are the houses by bid, highest first; ``bids`` the matching amounts."""

    track: str
    decider: str
    groups: tuple[tuple[str, ...], ...]
    bids: tuple[int, ...]

    def prompts(self, state: State) -> dict[str, Prompt]:
        data = {
            "track": self.track,
            "groups": [
                {"bid": b, "houses": list(g)} for b, g in zip(self.bids, self.groups, strict=True)
            ],
        }
        return {self.decider: Prompt(self.decider, "order_ties", (TrackOrder.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, TrackOrder)
        expected = [g for g in self.groups for _ in g]
        if (
            len(action.houses) != len(expected)
            or any(h not in g for h, g in zip(action.houses, expected, strict=False))
            or len(set(action.houses)) != len(expected)
        ):
            raise IllegalChoice(
                "the order must keep higher bids first and only reorder tied houses", rule="3.6.3"
            )
        state.pop()
        tracks.set_order(state, self.track, action.houses)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        order: list[str] = []
        for group in self.groups:
            order.extend(rnd.sample(group, len(group)))
        return TrackOrder(tuple(order))
