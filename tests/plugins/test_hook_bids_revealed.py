"""The ``rule_bids_revealed`` hook (RULES.md 3.6): a toy plugin doubles Stark's revealed bid
before the track is rebuilt, so a bid of 2 beats a bid of 3."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from tests.builders import act, blank, run
from westeros import hookimpl
from westeros.engine.actions import Bid
from westeros.engine.bidding import TrackBid, build_track
from westeros.engine.content import Ruleset
from westeros.engine.flow import Step, pending
from westeros.engine.state import State

Factory = Callable[..., Ruleset]


@dataclasses.dataclass(frozen=True, slots=True)
class DoubleStark(Step):
    track: str
    bids: tuple[tuple[str, int], ...]

    def run(self, state: State) -> None:
        bids = dict(self.bids)
        bids["stark"] *= 2
        build_track(state, self.track, bids)


def doubled(state: State, track: str, bids: dict[str, int]) -> Step | None:
    return DoubleStark(track, tuple(bids.items()))


class StarkFavour:
    NAME = "stark-favour"

    @hookimpl
    def rule_bids_revealed(self, options: Mapping[str, Any]) -> Callable[..., Any]:
        return doubled


def test_hook_rule_bids_revealed(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(StarkFavour()), 3)
    s.power = {h: 5 for h in s.houses}
    run(s, TrackBid("fiefdoms", tuple(s.houses), ()))
    for house in s.houses:
        s = act(s, house, Bid({"stark": 2, "lannister": 3}.get(house, 0)))
    assert pending(s) == {}
    assert s.tracks["fiefdoms"][:2] == ("stark", "lannister")
