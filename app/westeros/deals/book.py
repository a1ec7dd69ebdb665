"""Proposals, replies and the deal book of one game (issue 15 point 4), with no engine rules.

A house *proposes* terms (``terms``) to one other house; the recipient *accepts*, *declines*
or *counters* with terms of its own (a new proposal the other way) before the proposal's
``expires`` round ends. An accepted proposal becomes a ``Deal``. The book also holds the public
record (``Act``: marches, raids, support declarations and bids, 3.6, 5.2-5.4, as every player saw
them) and tells from it whether each deal was kept (``check_kept``) and whether each of its
houses kept its own side (``party_verdicts``). Nothing here is enforced:
a house may break its word; the record shows it.

Privacy: a proposal, its reply and the deal are known to their two houses only (``seen_by``);
the acts are public."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import terms as t
from .terms import Term

ACCEPT = "accept"
DECLINE = "decline"
COUNTER = "counter"
REPLIES = (ACCEPT, DECLINE, COUNTER)

KEPT = "kept"
BROKEN = "broken"
PENDING = "pending"

MARCH = "march"
RAID = "raid"
SUPPORT = "support"
BID = "bid"


@dataclasses.dataclass(frozen=True, slots=True)
class Reply:
    """The recipient's answer: ``accept``, ``decline`` or ``counter`` with ``terms``."""

    answer: str
    terms: tuple[Term, ...] = ()

    def __post_init__(self) -> None:
        if self.answer not in REPLIES:
            raise ValueError(f"a reply is {', '.join(REPLIES)}, not {self.answer!r}")
        if (self.answer == COUNTER) != bool(self.terms):
            raise ValueError("a counter carries terms; accept and decline carry none")

    def to_json(self) -> dict[str, Any]:
        """This reply as a JSON object."""
        return {"answer": self.answer, "terms": [t.to_json(x) for x in self.terms]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reply:
        """The reply ``to_json`` wrote."""
        return cls(data["answer"], tuple(t.from_json(x) for x in data.get("terms", ())))


@dataclasses.dataclass(frozen=True, slots=True)
class Proposal:
    """``proposer`` offers ``terms`` to ``recipient`` in round ``round``; the offer lapses
    after round ``expires``. ``counters`` names the proposal this one answers."""

    id: str
    proposer: str
    recipient: str
    terms: tuple[Term, ...]
    round: int
    expires: int
    counters: str | None = None

    def parties(self) -> frozenset[str]:
        """The two houses of this proposal."""
        return frozenset({self.proposer, self.recipient})

    def to_json(self) -> dict[str, Any]:
        """This proposal as a JSON object."""
        return {
            "id": self.id,
            "proposer": self.proposer,
            "recipient": self.recipient,
            "terms": [t.to_json(x) for x in self.terms],
            "round": self.round,
            "expires": self.expires,
            "counters": self.counters,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Proposal:
        """The proposal ``to_json`` wrote."""
        return cls(
            data["id"],
            data["proposer"],
            data["recipient"],
            tuple(t.from_json(x) for x in data["terms"]),
            data["round"],
            data["expires"],
            data.get("counters"),
        )


@dataclasses.dataclass(frozen=True, slots=True)
class Act:
    """One public deed of round ``round``, as the engine reported it: ``house`` marched into
    ``target`` (``other``: the house that controlled it, 1.3), raided the order in ``target``
    (``other``: that order's house), declared support in the combat in ``target`` (``other``:
    the house it supported, None for nobody; ``fighting``: the two combatants) or bid
    ``amount`` on ``track``."""

    kind: str
    house: str
    round: int
    target: str = ""
    other: str | None = None
    track: str = ""
    amount: int = 0
    fighting: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """This act as a JSON object."""
        return {**dataclasses.asdict(self), "fighting": list(self.fighting)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Act:
        """The act ``to_json`` wrote."""
        return cls(**{**data, "fighting": tuple(data.get("fighting", ()))})


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a deal was ``kept``, ``broken`` (by ``breaker``, through ``act``) or is still
    ``pending`` (its round is not over)."""

    status: str
    breaker: str | None = None
    act: Act | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    """An accepted proposal: ``terms`` bind ``houses`` from round ``round``; ``proposal`` is
    the id of the proposal whose acceptance made it (None in books saved before it was kept)."""

    id: str
    houses: frozenset[str]
    terms: tuple[Term, ...]
    round: int
    proposal: str | None = None

    def to_json(self) -> dict[str, Any]:
        """This deal as a JSON object."""
        return {
            "id": self.id,
            "houses": sorted(self.houses),
            "terms": [t.to_json(x) for x in self.terms],
            "round": self.round,
            "proposal": self.proposal,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        """The deal ``to_json`` wrote."""
        return cls(
            data["id"],
            frozenset(data["houses"]),
            tuple(t.from_json(x) for x in data["terms"]),
            data["round"],
            data.get("proposal"),
        )


def breaks(term: Term, act: Act) -> bool:
    """Does ``act`` break ``term``?"""
    if act.round != term.round:
        return False
    if isinstance(term, t.NonAggression):
        bound = set(term.houses)
        return (
            act.kind in (MARCH, RAID)
            and act.house in bound
            and act.other in bound
            and act.other != act.house
        )
    if isinstance(term, t.StayOut):
        return act.kind == MARCH and act.house == term.house and act.target == term.area
    if isinstance(term, t.SupportPromise):
        return (
            act.kind == SUPPORT
            and act.house == term.giver
            and act.target == term.area
            and term.receiver in act.fighting
            and act.other != term.receiver
        )
    return (
        act.kind == BID
        and act.house in term.houses
        and act.track == term.track
        and act.amount > term.most
    )


def check_term(term: Term, acts: Iterable[Act], now: int) -> Verdict:
    """Was ``term`` kept, by the public ``acts``, at round ``now``? Broken by its first breach
    (a promised support is broken only in a combat the receiver fights); kept once its round is
    over (a promised support kept as soon as it is declared)."""
    for act in acts:
        if breaks(term, act):
            return Verdict(BROKEN, act.house, act)
        if (
            isinstance(term, t.SupportPromise)
            and act.kind == SUPPORT
            and act.round == term.round
            and (act.house, act.target, act.other) == (term.giver, term.area, term.receiver)
        ):
            return Verdict(KEPT)
    return Verdict(KEPT if now > term.round else PENDING)


def check_kept(deal: Deal, acts: Sequence[Act], now: int) -> Verdict:
    """Was ``deal`` kept, by the public ``acts``, at round ``now`` (see ``check_term``)?
    Broken if any term is broken, kept once every term is kept."""
    verdicts = [check_term(term, acts, now) for term in deal.terms]
    for verdict in verdicts:
        if verdict.status == BROKEN:
            return verdict
    if all(v.status == KEPT for v in verdicts):
        return Verdict(KEPT)
    return Verdict(PENDING)


def party_verdicts(deal: Deal, acts: Sequence[Act], now: int) -> dict[str, Verdict]:
    """Did each house of ``deal`` keep its side, by the public ``acts``, at round ``now``? A
    house breaks it by its own first breach of a term that binds it (``Term.bound``) and keeps
    it once every such term is kept; a house the terms bind to nothing keeps it once their
    rounds are over."""
    over = now > max(term.round for term in deal.terms)
    out: dict[str, Verdict] = {}
    for house in sorted(deal.houses):
        own = [a for a in acts if a.house == house]
        verdicts = [check_term(term, own, now) for term in deal.terms if house in term.bound()]
        broken = next((v for v in verdicts if v.status == BROKEN), None)
        if broken is not None:
            out[house] = broken
        elif all(v.status == KEPT for v in verdicts) and (verdicts or over):
            out[house] = Verdict(KEPT)
        else:
            out[house] = Verdict(PENDING)
    return out


class DealBook:
    """The proposals, replies, deals and public acts of one game (see module docstring)."""

    def __init__(self) -> None:
        self.proposals: dict[str, Proposal] = {}
        self.replies: dict[str, Reply] = {}
        self.deals: dict[str, Deal] = {}
        self.acts: list[Act] = []

    def propose(
        self,
        proposer: str,
        recipient: str,
        terms: Sequence[Term],
        round: int,
        expires: int | None = None,
        counters: str | None = None,
    ) -> Proposal:
        """Record a new proposal; its terms may bind only its two houses."""
        if proposer == recipient:
            raise ValueError("a house makes deals with another house")
        if not terms:
            raise ValueError("a proposal needs terms")
        for term in terms:
            if not term.parties() <= {proposer, recipient}:
                raise ValueError(f"{term} binds a house outside this proposal")
        proposal = Proposal(
            f"p{len(self.proposals) + 1}",
            proposer,
            recipient,
            tuple(terms),
            round,
            round if expires is None else expires,
            counters,
        )
        self.proposals[proposal.id] = proposal
        return proposal

    def offers_by(self, house: str, round: int) -> int:
        """How many proposals ``house`` made in ``round`` (counters included)."""
        return sum(1 for p in self.proposals.values() if p.proposer == house and p.round == round)

    def open_for(self, house: str, round: int) -> list[Proposal]:
        """Proposals to ``house`` still waiting for its reply in ``round``."""
        return [
            p
            for p in self.proposals.values()
            if p.recipient == house and p.id not in self.replies and p.round <= round <= p.expires
        ]

    def reply(
        self, proposal_id: str, house: str, reply: Reply, round: int
    ) -> Proposal | Deal | None:
        """``house`` answers a proposal made to it: the deal an acceptance makes, the new
        proposal a counter makes, None for a refusal."""
        proposal = self.proposals[proposal_id]
        if house != proposal.recipient:
            raise ValueError(f"{house} was not offered {proposal_id}")
        if proposal_id in self.replies:
            raise ValueError(f"{proposal_id} was already answered")
        if not proposal.round <= round <= proposal.expires:
            raise ValueError(f"{proposal_id} has lapsed")
        self.replies[proposal_id] = reply
        if reply.answer == ACCEPT:
            deal = Deal(
                f"d{len(self.deals) + 1}", proposal.parties(), proposal.terms, round, proposal_id
            )
            self.deals[deal.id] = deal
            return deal
        if reply.answer == COUNTER:
            return self.propose(
                house, proposal.proposer, reply.terms, round, proposal.expires, proposal_id
            )
        return None

    def record(self, acts: Iterable[Act]) -> None:
        """Add public acts to the record."""
        self.acts.extend(acts)

    def verdicts(self, now: int) -> dict[str, Verdict]:
        """Every deal's verdict at round ``now``."""
        return {d.id: check_kept(d, self.acts, now) for d in self.deals.values()}

    def deals_of(self, house: str) -> list[Deal]:
        """The deals ``house`` is a party to."""
        return [d for d in self.deals.values() if house in d.houses]

    def seen_by(self, house: str) -> DealBook:
        """What ``house`` may know of this book: its own proposals, replies and deals, and
        every public act."""
        out = DealBook()
        out.proposals = {k: p for k, p in self.proposals.items() if house in p.parties()}
        out.replies = {k: r for k, r in self.replies.items() if k in out.proposals}
        out.deals = {k: d for k, d in self.deals.items() if house in d.houses}
        out.acts = list(self.acts)
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole book as a JSON object."""
        return {
            "proposals": [p.to_json() for p in self.proposals.values()],
            "replies": {k: r.to_json() for k, r in self.replies.items()},
            "deals": [d.to_json() for d in self.deals.values()],
            "acts": [a.to_json() for a in self.acts],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealBook:
        """The book ``to_json`` wrote."""
        out = cls()
        for p in data["proposals"]:
            proposal = Proposal.from_json(p)
            out.proposals[proposal.id] = proposal
        out.replies = {k: Reply.from_json(r) for k, r in data["replies"].items()}
        for d in data["deals"]:
            deal = Deal.from_json(d)
            out.deals[deal.id] = deal
        out.acts = [Act.from_json(a) for a in data["acts"]]
        return out
