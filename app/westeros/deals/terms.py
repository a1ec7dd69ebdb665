"""Deal terms (issue 15 point 4, "Deals at the table"): what houses may promise each other.

Terms are plain frozen data with no reference to the engine: they name houses, areas, tracks
and the game round (2.2) they hold for, and round-trip through JSON (``to_json``/``from_json``).
Nothing enforces them; ``deals.book.check_kept`` tells from the public record whether they were
kept."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar


@dataclasses.dataclass(frozen=True, slots=True)
class NonAggression:
    """*No attacks between us this round*: none of ``houses`` marches units into (5.3) or
    raids an order in (5.2) an area another of them controls (1.3) during ``round``."""

    kind: ClassVar[str] = "non_aggression"
    houses: tuple[str, ...]
    round: int

    def parties(self) -> frozenset[str]:
        """The houses bound by this term."""
        return frozenset(self.houses)

    def bound(self) -> frozenset[str]:
        """The houses this term restricts or obliges: each of ``houses``."""
        return frozenset(self.houses)


@dataclasses.dataclass(frozen=True, slots=True)
class SupportPromise:
    """``giver`` supports ``receiver`` (5.4.1) in a combat in ``area`` during ``round``."""

    kind: ClassVar[str] = "support_promise"
    giver: str
    receiver: str
    area: str
    round: int

    def parties(self) -> frozenset[str]:
        """The houses bound by this term (only the giver promises anything)."""
        return frozenset({self.giver, self.receiver})

    def bound(self) -> frozenset[str]:
        """The houses this term restricts or obliges: the giver alone."""
        return frozenset({self.giver})


@dataclasses.dataclass(frozen=True, slots=True)
class StayOut:
    """``house`` marches no units into ``area`` (5.3) during ``round``."""

    kind: ClassVar[str] = "stay_out"
    house: str
    area: str
    round: int

    def parties(self) -> frozenset[str]:
        """The houses bound by this term."""
        return frozenset({self.house})

    def bound(self) -> frozenset[str]:
        """The houses this term restricts or obliges: ``house``."""
        return frozenset({self.house})


@dataclasses.dataclass(frozen=True, slots=True)
class SplitBids:
    """None of ``houses`` bids more than ``most`` power on ``track`` in the Clash of Kings
    (3.6) of ``round``."""

    kind: ClassVar[str] = "split_bids"
    houses: tuple[str, ...]
    track: str
    round: int
    most: int = 0

    def parties(self) -> frozenset[str]:
        """The houses bound by this term."""
        return frozenset(self.houses)

    def bound(self) -> frozenset[str]:
        """The houses this term restricts or obliges: each of ``houses``."""
        return frozenset(self.houses)


Term = NonAggression | SupportPromise | StayOut | SplitBids
TERMS: dict[str, type[Term]] = {
    t.kind: t for t in (NonAggression, SupportPromise, StayOut, SplitBids)
}
_TUPLES = frozenset({"houses"})


def binds(terms: Iterable[Term], house: str) -> bool:
    """Does one of ``terms`` restrict or oblige ``house`` (it gives something)?"""
    return any(house in term.bound() for term in terms)


def to_json(term: Term) -> dict[str, Any]:
    """``term`` as a JSON object: its fields plus ``kind``."""
    out: dict[str, Any] = {"kind": term.kind}
    for field in dataclasses.fields(term):
        value = getattr(term, field.name)
        out[field.name] = list(value) if isinstance(value, tuple) else value
    return out


def from_json(data: Mapping[str, Any]) -> Term:
    """The term ``to_json`` wrote; ValueError for an unknown kind."""
    cls = TERMS.get(data.get("kind", ""))
    if cls is None:
        raise ValueError(f"unknown deal term {data.get('kind')!r}")
    values: dict[str, Any] = {
        f.name: tuple(data[f.name]) if f.name in _TUPLES else data[f.name]
        for f in dataclasses.fields(cls)
        if f.name in data
    }
    return cls(**values)
