"""The wildling attack (RULES.md 7.2): secret bids, Night's Watch or wildling victory, the
top wildling card, the threat afterwards and the consequence checks.

A wildling card (``WildlingCard``, 7.3) is content: its three callables receive the state and a
house and push the steps they need. They run as small steps on the stack, so every decision a
card asks for is answered before the next house's effect, the threat update and the checks."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from . import power, tracks, victory
from .actions import Action, Bid
from .choices import ChooseOption
from .flow import Prompt, Simultaneous, Step, left_out
from .state import State

NIGHTS_WATCH = "nights_watch"
LOWEST_BIDDER = "lowest_bidder"
EVERYONE_ELSE = "everyone_else"
THREAT_DROP_ON_WILDLING_WIN = 4


@dataclasses.dataclass(frozen=True, slots=True)
class WildlingAttack(Step):
    """A wildling attack (7.2) of ``strength`` (None: the current threat). Houses in
    ``excluded`` neither bid nor are affected (the second attack of Preemptive Raid, 7.3.2)."""

    strength: int | None = None
    excluded: tuple[str, ...] = ()

    def run(self, state: State) -> None:
        strength = state.threat if self.strength is None else self.strength
        bidders = tuple(
            h
            for h in tracks.turn_order(state)
            if h not in self.excluded and not left_out(state, h, "wildling_bid")
        )
        state.emit("wildling_attack", strength=strength, houses=list(bidders))
        # 3.6.2 by analogy: a house without available PT bids 0 without being asked.
        forced = tuple((h, Bid(0)) for h in bidders if state.power[h] == 0)
        state.push(WildlingBidding(bidders, forced, strength))


@dataclasses.dataclass(frozen=True, slots=True)
class WildlingBidding(Simultaneous):
    """Every bidding house secretly bids 0..available PT; revealed together (7.2.1)."""

    houses: tuple[str, ...]
    commits: tuple[tuple[str, Action], ...]
    strength: int
    commit_kinds: ClassVar[tuple[str, ...]] = (Bid.kind,)

    def prompt_for(self, state: State, house: str) -> Prompt:
        return Prompt(
            house,
            "wildling_bid",
            (Bid.kind,),
            {"min": 0, "max": state.power[house], "strength": self.strength, "reason": "7.2.1"},
        )

    def check(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Bid)
        power.check_bid(state, house, action.amount, "7.2.1")

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Bid(rnd.randint(0, state.power[house]))

    def resolve(self, state: State, commits: dict[str, Action]) -> None:
        bids = tuple((h, commits[h].amount) for h in self.houses)  # type: ignore[attr-defined]
        for house, amount in bids:
            power.lose(state, house, amount)
        total = sum(amount for _, amount in bids)
        nights_watch = total >= self.strength
        state.emit(
            "wildling_bids",
            bids=dict(bids),
            total=total,
            strength=self.strength,
            winner=NIGHTS_WATCH if nights_watch else "wildlings",
        )
        if not bids:
            state.push(AfterAttack(nights_watch, bids))
            return
        best = (max if nights_watch else min)(amount for _, amount in bids)
        tied = tuple(h for h, amount in bids if amount == best)
        if len(tied) == 1:
            state.push(RevealWildlingCard(nights_watch, tied[0], bids))
            return
        state.push(
            WildlingTieBreak(
                tracks.holder(state, tracks.IRON_THRONE),
                tied,
                "7.2.3 " + ("highest bidder" if nights_watch else "lowest bidder"),
                nights_watch,
                bids,
            )
        )


@dataclasses.dataclass(frozen=True, slots=True)
class WildlingTieBreak(ChooseOption):
    """The Iron Throne holder picks the highest (or lowest) bidder among the tied houses, before
    the card is revealed (7.2.3-7.2.4)."""

    nights_watch: bool
    bids: tuple[tuple[str, int], ...]

    def chosen(self, state: State, option: str) -> None:
        state.push(RevealWildlingCard(self.nights_watch, option, self.bids))


@dataclasses.dataclass(frozen=True, slots=True)
class RevealWildlingCard(Step):
    """Reveal the top wildling card, put it at the bottom and queue its effects (7.2.4-7.2.5).
    ``house`` is the highest bidder (Night's Watch win) or the lowest bidder."""

    nights_watch: bool
    house: str
    bids: tuple[tuple[str, int], ...]

    def run(self, state: State) -> None:
        card = state.wildling_deck[0]
        state.wildling_deck = (*state.wildling_deck[1:], card)
        state.wildling_seen = frozenset()
        state.emit(
            "wildling_card",
            card=card,
            outcome=NIGHTS_WATCH if self.nights_watch else LOWEST_BIDDER,
            house=self.house,
        )
        after = AfterAttack(self.nights_watch, self.bids)
        if self.nights_watch:
            state.push(CardEffect(card, NIGHTS_WATCH, self.house), after)
            return
        bidders = tuple(h for h, _ in self.bids)
        state.push(
            CardEffect(card, LOWEST_BIDDER, self.house),
            EveryoneElse(card, self.house, bidders),
            after,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class EveryoneElse(Step):
    """Queue the "everyone else" effect for every other bidding house in turn order, read once
    the lowest bidder's penalty has resolved (7.2.5, 0.3)."""

    card: str
    lowest: str
    bidders: tuple[str, ...]

    def run(self, state: State) -> None:
        state.push(
            *(
                CardEffect(self.card, EVERYONE_ELSE, h)
                for h in tracks.turn_order(state)
                if h in self.bidders and h != self.lowest
            )
        )


@dataclasses.dataclass(frozen=True, slots=True)
class CardEffect(Step):
    """Resolve one half of a wildling card (``outcome``) for ``house`` (7.3)."""

    card: str
    outcome: str
    house: str

    def run(self, state: State) -> None:
        card = state.rules.wildling_cards[self.card]
        effect = {
            NIGHTS_WATCH: card.nights_watch,
            LOWEST_BIDDER: card.lowest_bidder,
            EVERYONE_ELSE: card.everyone_else,
        }[self.outcome]
        effect(state, self.house)


@dataclasses.dataclass(frozen=True, slots=True)
class AfterAttack(Step):
    """After the card: threat to 0 (Night's Watch) or down by 4 (wildlings), min 0 (7.2.6);
    then the consequence checks (7.2.7). Holds the revealed bids of this attack."""

    nights_watch: bool
    bids: tuple[tuple[str, int], ...]

    def run(self, state: State) -> None:
        if self.nights_watch:
            state.threat = 0
        else:
            state.threat = max(0, state.threat - THREAT_DROP_ON_WILDLING_WIN)
        state.emit("threat", threat=state.threat)
        victory.consequences(state)


def _innermost_attack(state: State) -> int:
    """Index in ``state.stack`` of the AfterAttack step of the attack resolving now."""
    for i in range(len(state.stack) - 1, -1, -1):
        if isinstance(state.stack[i], AfterAttack):
            return i
    raise AssertionError("no wildling attack is resolving")


def bid_of(state: State, house: str) -> int:
    """What ``house`` bid in the attack whose card is resolving now (Skinchanger Scout, 7.3.9)."""
    return dict(state.stack[_innermost_attack(state)].bids).get(house, 0)


def after_card(state: State, *steps: Step) -> None:
    """Run ``steps`` once every effect of the card resolving now is done, before the threat
    update (e.g. Rattleshirt's Raiders: reconcile after all supply changes, 7.3.4)."""
    i = _innermost_attack(state)
    state.stack = state.stack[: i + 1] + tuple(reversed(steps)) + state.stack[i + 1 :]
