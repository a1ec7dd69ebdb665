"""A table for AI games with deals (issue 15 point 4): the referee's loop of ``runner`` plus a
round of talks at the start of every Planning phase (4) and the public record kept in the
game's ``DealBook``.

Talks: every seat that negotiates (``Negotiator``: ``DealBot``) offers its deals, in turn
order; each recipient that negotiates answers (others decline), and a counter goes back to the
proposer for a final yes or no. Every seat sees only its own view and its side of the book."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..deals.book import ACCEPT, COUNTER, DECLINE, Deal, DealBook, Proposal, Reply
from ..deals.record import acts
from ..deals.terms import Term
from ..engine import tracks
from ..engine.content import Ruleset
from ..engine.errors import IllegalAction
from ..engine.flow import apply, pending, random_action
from ..engine.setup import new_game
from ..engine.state import State
from ..engine.victory import ranking
from ..engine.view import player_view
from . import legal
from .protocol import DEFAULT_BUDGET, Player, ask
from .runner import MAX_DECISIONS


@runtime_checkable
class Negotiator(Protocol):
    """A seat that takes part in the talks."""

    def see(self, book: DealBook) -> None:
        """Be shown its side of the deal book."""

    def proposals(
        self, view: Mapping[str, Any], rules: Ruleset
    ) -> list[tuple[str, tuple[Term, ...]]]:
        """The deals it offers now: (recipient, terms)."""
        ...

    def answer(self, proposal: Proposal, view: Mapping[str, Any], rules: Ruleset) -> Reply:
        """Its reply to a proposal made to it."""
        ...


@dataclasses.dataclass
class DealGame:
    """The outcome of one AI game with deals."""

    seed: int
    seats: dict[str, str]
    winner: str | None
    ranking: list[str]
    rounds: int
    book: DealBook
    illegal: int = 0


def _reply(seat: Player, proposal: Proposal, state: State, book: DealBook) -> Reply:
    """``seat``'s answer to ``proposal``, seeing only its view and its side of the book."""
    if not isinstance(seat, Negotiator):
        return Reply(DECLINE)
    seat.see(book.seen_by(proposal.recipient))
    return seat.answer(proposal, player_view(state, proposal.recipient), state.rules)


def talks(book: DealBook, seats: Mapping[str, Player], state: State) -> list[Deal]:
    """One round of talks (see module docstring); returns the deals made."""
    made: list[Deal] = []
    rnd = state.round
    for house in tracks.turn_order(state):
        seat = seats[house]
        if not isinstance(seat, Negotiator):
            continue
        seat.see(book.seen_by(house))
        for recipient, terms in seat.proposals(player_view(state, house), state.rules):
            proposal = book.propose(house, recipient, terms, rnd)
            outcome = book.reply(
                proposal.id, recipient, _reply(seats[recipient], proposal, state, book), rnd
            )
            if isinstance(outcome, Proposal):
                answer = _reply(seats[house], outcome, state, book)
                if answer.answer == COUNTER:
                    answer = Reply(DECLINE)
                outcome = book.reply(outcome.id, house, answer, rnd)
            if isinstance(outcome, Deal):
                made.append(outcome)
    return made


def play(
    rules: Ruleset,
    players: Sequence[Player],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    deals: bool = True,
    budget: float = DEFAULT_BUDGET,
    max_decisions: int = MAX_DECISIONS,
) -> DealGame:
    """Play one game to its result like ``runner.play_game`` (players in setup house order),
    with talks before every Planning phase when ``deals`` is on."""
    state = new_game(rules, len(players), seed, options)
    seats = dict(zip(state.houses, players, strict=True))
    book = DealBook()
    rnd = random.Random(seed)
    talked = 0
    illegal = 0
    for _ in range(max_decisions):
        waiting = pending(state)
        if not waiting:
            break
        if (
            deals
            and state.round > talked
            and any(p.kind == "place_orders" for p in waiting.values())
        ):
            talks(book, seats, state)
            talked = state.round
        house = min(waiting)
        seat = seats[house]
        if isinstance(seat, Negotiator):
            seat.see(book.seen_by(house))
        action, _ = ask(seat, state, house, budget)
        before = state
        try:
            state, events = apply(state, house, action)
        except IllegalAction:
            illegal += 1
            try:
                state, events = apply(
                    state, house, legal.fallback_action(player_view(state, house), rules)
                )
            except (IllegalAction, ValueError, KeyError):
                state, events = apply(state, house, random_action(state, house, rnd))
        book.record(acts(before, events))
    return DealGame(
        seed=seed,
        seats={h: p.name for h, p in seats.items()},
        winner=state.winner,
        ranking=ranking(state),
        rounds=state.round,
        book=book,
        illegal=illegal,
    )


__all__ = ["ACCEPT", "DealGame", "Negotiator", "play", "talks"]
