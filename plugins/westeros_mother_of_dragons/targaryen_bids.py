"""Targaryen's Clash of Kings bid (RULES.md 11.6.6): after the bids for a track are revealed,
Targaryen may move its own bid, one PT at a time, onto other houses' bids (never its own, in
total at most its bid). The track is then built from the adjusted bids, ties go to the Iron
Throne holder (3.6.3) and Targaryen stays last (11.2.3). Each PT is a ``distribute_bid`` prompt
(another house, or stop) whose data show the revealed bids as they stand, public since the
reveal (3.6.2), so Targaryen can aim its Power."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from westeros.engine.bidding import build_track
from westeros.engine.choices import ChooseOption
from westeros.engine.flow import Prompt, Step
from westeros.engine.state import State

from .essos import TARGARYEN

STOP = "done"
REASON = "11.6.6 Targaryen distributes its bid"


@dataclasses.dataclass(frozen=True, slots=True)
class DistributeBid(ChooseOption):
    """Targaryen adds 1 of its ``left`` bid PT to a house's bid, or stops (11.6.6)."""

    track: str = ""
    bids: tuple[tuple[str, int], ...] = ()
    left: int = 0

    prompt_kind: ClassVar[str] = "distribute_bid"

    def prompts(self, state: State) -> dict[str, Prompt]:
        """The option prompt, with the ``track``, the other houses' ``bids`` as they stand
        (with the PT given so far), in the track's current order, and the PT ``left``."""
        p = ChooseOption.prompts(self, state)[self.house]
        bids = dict(self.bids)
        shown = [[h, bids[h]] for h in state.tracks[self.track] if h != TARGARYEN]
        data = {**p.data, "track": self.track, "bids": shown, "left": self.left}
        return {self.house: dataclasses.replace(p, data=data)}

    def chosen(self, state: State, option: str) -> None:
        bids = dict(self.bids)
        if option != STOP:
            bids[option] += 1
            state.emit("bid_distributed", house=TARGARYEN, to=option, track=self.track)
            if self.left > 1:
                state.push(dataclasses.replace(self, bids=tuple(bids.items()), left=self.left - 1))
                return
        build_track(state, self.track, bids)


def offer(state: State, track: str, bids: dict[str, int]) -> Step | None:
    """The ``rule_bids_revealed`` callable: ask Targaryen when it bid anything (11.6.6)."""
    amount = bids.get(TARGARYEN, 0)
    if not amount:
        return None
    adjusted = {**bids, TARGARYEN: -1}  # its bid is given away or spent; it stays last
    others = tuple(h for h in state.tracks[track] if h != TARGARYEN)
    return DistributeBid(TARGARYEN, (*others, STOP), REASON, track, tuple(adjusted.items()), amount)
