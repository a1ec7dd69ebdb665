"""Deals in a local game (issue 15 point 4): the game's ``DealBook`` beside its session.

A person proposes one term to another house (``propose``): *no attacks between us this round*
(``NonAggression``), *I stay out of <area>* (``StayOut``) or *I support you in <area>*
(``SupportPromise``), holding for the current round (2.2). An AI seat that negotiates
(``Negotiator``, e.g. ``ai.deals_seat.TalkingBot``) answers at once from its own view and its
side of the book; a counter offer waits for the person's answer (``reply``). At the start of
each Planning phase (4) every negotiating AI offers its deals: to another AI they are answered
at once (a counter goes back to the proposer for a last yes or no), to a person they wait for
Accept or Decline.

After every accepted action the public record grows (``record.acts``) and ``check_kept`` tells
whether each deal was kept. The book is saved (``save``) whenever it changes, so a resumed game
keeps its deals. A house sees only its own proposals and deals (``DealBook.seen_by``): the
panel's message (``message``) holds them, the seat's deal log (``log``: each offer, its answer,
and whether each house kept its side) and the areas its deals of this round forbid it to march
into or raid (``promises``, for the board's warning before such a march or raid)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from ..engine import board
from ..engine.flow import pending
from ..engine.state import State
from .book import (
    ACCEPT,
    COUNTER,
    DECLINE,
    MARCH,
    PENDING,
    RAID,
    Act,
    Deal,
    DealBook,
    Proposal,
    Reply,
    breaks,
    check_kept,
    party_verdicts,
)
from .record import acts
from .terms import NonAggression, StayOut, SupportPromise, Term, to_json

NON_AGGRESSION = "non_aggression"
STAY_OUT = "stay_out"
SUPPORT = "support_promise"
OFFERED = (NON_AGGRESSION, STAY_OUT, SUPPORT)
OPEN = "open"
LAPSED = "lapsed"


@runtime_checkable
class Negotiator(Protocol):
    """An AI seat that takes part in the talks."""

    def follow(self, book: Callable[[], DealBook]) -> None:
        """Read its side of the deal book from ``book``."""

    def proposals(self, view: Mapping[str, Any], rules: Any) -> list[tuple[str, tuple[Term, ...]]]:
        """The deals it offers now: (recipient, terms)."""
        ...

    def answer(self, proposal: Proposal, view: Mapping[str, Any], rules: Any) -> Reply:
        """Its reply to a proposal made to it."""
        ...


class Session(Protocol):
    """What the table needs of a ``GameSession``."""

    @property
    def players(self) -> Mapping[str, Any]:
        """Who plays each house."""
        ...

    @property
    def state(self) -> State:
        """The current true state."""
        ...

    @property
    def lock(self) -> threading.RLock:
        """Held while an action is accepted and its observers run."""
        ...

    def is_ai(self, house: str) -> bool:
        """Is ``house`` played by the computer?"""
        ...

    def observe(self, observer: Callable[[Any], None]) -> None:
        """Call ``observer`` after each accepted action."""


MAX_OFFERS_PER_ROUND = 30
"""The most proposals a person's seat makes in one round (2.2): more than any table talks
through, and a seat that floods the others (each offer is stored with the game, and an AI
weighs each one) is refused until the next round (``TooManyOffers``)."""


class DealError(ValueError):
    """A proposal or reply the table refuses (the reason in words)."""

    code = "deal/refused"


class TooManyOffers(DealError):
    """A seat made ``MAX_OFFERS_PER_ROUND`` proposals this round already."""

    code = "deal/too-many-offers"


class DealTable:
    """The deal book of one game and its talks (see module docstring). ``view_of`` gives a
    house's ``player_view``; ``save`` stores the book's JSON; ``stored`` is the JSON saved
    before (a resumed game); ``record``, when given, rebuilds the public acts up to a state
    (an online worker's table, whose stored acts may lag the game: ``online.deals``)."""

    def __init__(
        self,
        session: Session,
        view_of: Callable[[str], Mapping[str, Any]],
        save: Callable[[dict[str, Any]], None],
        stored: Mapping[str, Any] | None = None,
        record: Callable[[State], list[Act]] | None = None,
    ) -> None:
        self.session = session
        self.view_of = view_of
        self.save = save
        self.book = DealBook.from_json(stored["book"]) if stored else DealBook()
        self.talked = int(stored["talked"]) if stored else 0
        # The session's own lock: a board asks for its deals as soon as a new round's view
        # reaches it, and must not be answered before this round's talks (``_accepted``).
        self._lock = session.lock
        self._before = session.state
        if record is not None:
            self.book.acts = record(self._before)
        for house, player in session.players.items():
            if isinstance(player, Negotiator):
                player.follow(functools.partial(self.seen_by, house))
        with self._lock:
            if self._talk(session.state):
                self._save()
        session.observe(self._accepted)

    # ------------------------------------------------------------------ reading
    def seen_by(self, house: str) -> DealBook:
        """What ``house`` may know of the book (``DealBook.seen_by``)."""
        with self._lock:
            return self.book.seen_by(house)

    def message(self, house: str) -> dict[str, Any]:
        """What the board's deals panel of ``house`` shows: the round, the houses it may talk
        to, its proposals (each with its status), its deals (each with its verdict), its deal
        log (``log``) and the areas its deals forbid it to march into or raid now
        (``promises``: ``march`` and ``raid``)."""
        with self._lock:
            state = self.session.state
            mine = self.book.seen_by(house)
            now = state.round
            judged = now if state.winner is None else now + 1
            proposals = []
            for p in mine.proposals.values():
                reply = mine.replies.get(p.id)
                if reply is not None:
                    status = reply.answer
                elif now > p.expires:
                    status = LAPSED
                else:
                    status = OPEN
                proposals.append({**p.to_json(), "status": status})
            deals = []
            for deal in mine.deals.values():
                verdict = check_kept(deal, mine.acts, judged)
                verdict_json = {"status": verdict.status, "breaker": verdict.breaker}
                deals.append({**deal.to_json(), **verdict_json})
            return {
                "type": "deals",
                "house": house,
                "round": now,
                "houses": [h for h in self.session.players if h != house],
                "terms": list(OFFERED),
                "proposals": proposals,
                "deals": deals,
                "log": log(mine, judged),
                "promises": {
                    "march": promises(mine, house, state) if state.winner is None else {},
                    "raid": raid_promises(mine, house, state) if state.winner is None else {},
                },
            }

    def reload(self, stored: Mapping[str, Any]) -> None:
        """Take the proposals, replies, deals and talks of ``stored`` (the book as another
        worker of an online game saved it), keeping this table's own record of the acts."""
        with self._lock:
            book = DealBook.from_json(stored["book"])
            book.acts = self.book.acts
            self.book = book
            self.talked = int(stored["talked"])

    # ------------------------------------------------------------------ a person's messages
    def term(self, house: str, to: str, data: Mapping[str, Any]) -> Term:
        """The term ``house`` offers ``to`` from the panel's ``data`` (``kind``, ``area``)."""
        state = self.session.state
        kind = data.get("kind")
        area = data.get("area")
        rnd = state.round
        if kind == NON_AGGRESSION:
            return NonAggression(tuple(sorted((house, to))), rnd)
        if kind not in (STAY_OUT, SUPPORT):
            raise DealError(f"a deal term is one of {', '.join(OFFERED)}, not {kind!r}")
        if not isinstance(area, str) or area not in state.rules.areas:
            raise DealError("this term needs an area of the map")
        if kind == STAY_OUT:
            return StayOut(house, area, rnd)
        return SupportPromise(house, to, area, rnd)

    def propose(self, house: str, to: Any, term: Mapping[str, Any]) -> dict[str, Any]:
        """``house`` (a person's seat, already checked) offers one term to ``to``; an AI that
        negotiates answers at once. Returns the proposal with its status."""
        state = self.session.state
        if state.winner is not None:
            raise DealError("the game is over")
        if not isinstance(to, str) or to not in self.session.players or to == house:
            raise DealError("a deal is offered to another house of this game")
        with self._lock:
            if self.book.offers_by(house, state.round) >= MAX_OFFERS_PER_ROUND:
                raise TooManyOffers(
                    f"You have made as many offers as one round allows ({MAX_OFFERS_PER_ROUND}):"
                    " offer again next round."
                )
            try:
                proposal = self.book.propose(house, to, (self.term(house, to, term),), state.round)
            except ValueError as exc:
                raise DealError(str(exc)) from exc
            seat = self.session.players.get(to)
            if self.session.is_ai(to):
                reply = self._answer(seat, proposal)
                self.book.reply(proposal.id, to, reply, state.round)
            self._save()
            return self._status(proposal)

    def reply(self, house: str, proposal_id: Any, answer: Any) -> dict[str, Any]:
        """``house`` (a person's seat, already checked) accepts or declines a proposal made
        to it."""
        if answer not in (ACCEPT, DECLINE):
            raise DealError(f"a reply is {ACCEPT} or {DECLINE}, not {answer!r}")
        with self._lock:
            known = isinstance(proposal_id, str)
            proposal = self.book.proposals.get(proposal_id) if known else None
            if proposal is None or proposal.recipient != house:
                raise DealError("there is no such proposal to you")
            try:
                self.book.reply(proposal.id, house, Reply(answer), self.session.state.round)
            except ValueError as exc:
                raise DealError(str(exc)) from exc
            self._save()
            return self._status(proposal)

    # ------------------------------------------------------------------ the AIs
    def _answer(self, seat: Any, proposal: Proposal) -> Reply:
        """An AI seat's reply to ``proposal`` from its own view; a seat that does not
        negotiate declines."""
        if not isinstance(seat, Negotiator):
            return Reply(DECLINE)
        view = self.view_of(proposal.recipient)
        return seat.answer(proposal, view, self.session.state.rules)

    def _talk(self, state: State) -> bool:
        """At the start of a round's Planning phase (4), every negotiating AI's offers; True
        if the talks took place."""
        waiting = pending(state)
        if state.round <= self.talked or not any(
            p.kind == "place_orders" for p in waiting.values()
        ):
            return False
        self.talked = state.round
        for house, seat in self.session.players.items():
            if not (self.session.is_ai(house) and isinstance(seat, Negotiator)):
                continue
            for to, terms in seat.proposals(self.view_of(house), state.rules):
                proposal = self.book.propose(house, to, terms, state.round)
                if not self.session.is_ai(to):
                    continue
                outcome = self.book.reply(
                    proposal.id,
                    to,
                    self._answer(self.session.players.get(to), proposal),
                    state.round,
                )
                if isinstance(outcome, Proposal):
                    last = self._answer(seat, outcome)
                    last = Reply(DECLINE) if last.answer == COUNTER else last
                    self.book.reply(outcome.id, house, last, state.round)
        return True

    def _accepted(self, accepted: Any) -> None:
        """After each accepted action: its public acts, then the talks of a new round."""
        with self._lock:
            new = accepted.state
            done = acts(self._before, accepted.events)
            self.book.record(done)
            self._before = new
            talked = new.winner is None and self._talk(new)
            if done or talked:
                self._save()

    # ------------------------------------------------------------------ helpers
    def _status(self, proposal: Proposal) -> dict[str, Any]:
        reply = self.book.replies.get(proposal.id)
        out: dict[str, Any] = {**proposal.to_json(), "status": reply.answer if reply else OPEN}
        if reply is not None and reply.answer == COUNTER:
            out["counter"] = [to_json(t) for t in reply.terms]
        deal = next((d for d in self.book.deals.values() if reply and _made(d, proposal)), None)
        if deal is not None:
            out["deal"] = deal.id
        return out

    def _save(self) -> None:
        self.save({"book": self.book.to_json(), "talked": self.talked})


def _made(deal: Deal, proposal: Proposal) -> bool:
    """Is ``deal`` the one accepting ``proposal`` made?"""
    if deal.proposal is not None:
        return deal.proposal == proposal.id
    return deal.houses == proposal.parties() and deal.terms == proposal.terms


def log(book: DealBook, now: int) -> list[dict[str, Any]]:
    """The deal log of one house's side of the book (``DealBook.seen_by``), judged at round
    ``now``: round by round, each proposal (``deal_proposed``: who offered whom what), its
    answer (``deal_answered``: accept, decline or counter), then for each deal of that round
    each house's side kept or broken (``deal_kept``/``deal_broken``, ``party_verdicts``) once
    known. Each entry has a ``key`` unique in the game."""
    entries: list[tuple[int, int, dict[str, Any]]] = []
    for p in book.proposals.values():
        terms = [to_json(x) for x in p.terms]
        head = {"round": p.round, "proposal": p.id, "proposer": p.proposer, "terms": terms}
        entries.append(
            (p.round, 0, {**head, "kind": "deal_proposed", "key": p.id, "recipient": p.recipient})
        )
        reply = book.replies.get(p.id)
        if reply is not None:
            answer = {"kind": "deal_answered", "key": f"{p.id}/{reply.answer}"}
            entries.append(
                (p.round, 0, {**head, **answer, "by": p.recipient, "answer": reply.answer})
            )
    for deal in book.deals.values():
        terms = [to_json(x) for x in deal.terms]
        for house, verdict in party_verdicts(deal, book.acts, now).items():
            if verdict.status == PENDING:
                continue
            entries.append(
                (
                    deal.round,
                    1,
                    {
                        "kind": f"deal_{verdict.status}",
                        "key": f"{deal.id}/{house}",
                        "round": deal.round,
                        "deal": deal.id,
                        "house": house,
                        "with": sorted(deal.houses - {house}),
                        "terms": terms,
                    },
                )
            )
    return [entry for _, _, entry in sorted(entries, key=lambda e: (e[0], e[1]))]


def promises(book: DealBook, house: str, state: State) -> dict[str, list[str]]:
    """{area: the ids of ``house``'s deals that a march of it into that area now would break}
    (5.3; the same check as ``check_kept``, on who controls each area now, 1.3)."""
    owners = {area: board.controller(state, area) for area in state.rules.areas}
    return _broken_by(book, house, state.round, MARCH, owners)


def raid_promises(book: DealBook, house: str, state: State) -> dict[str, list[str]]:
    """{area: the ids of ``house``'s deals that a raid of it on the order in that area now
    would break} (5.2; the same check as ``check_kept``, on whose order lies there)."""
    owners = {area: order.house for area, order in state.orders.items()}
    return _broken_by(book, house, state.round, RAID, owners)


def _broken_by(
    book: DealBook, house: str, now: int, kind: str, owners: Mapping[str, str | None]
) -> dict[str, list[str]]:
    """{area: ids of ``house``'s deals of round ``now`` that an act of ``kind`` on ``area``
    (whose house is ``owners[area]``) would break}."""
    terms = [(d.id, term) for d in book.deals_of(house) for term in d.terms if term.round == now]
    out: dict[str, list[str]] = {}
    if not terms:
        return out
    for area, owner in owners.items():
        act = Act(kind, house, now, area, owner)
        broken = [deal_id for deal_id, term in terms if breaks(term, act)]
        if broken:
            out[area] = sorted(set(broken))
    return out
