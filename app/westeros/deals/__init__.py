"""Deals at the table (issue 15 point 4): a small, structured protocol of promises between
houses, for people and AIs alike, never enforced by the engine. ``terms`` are the promises,
``book`` the proposals, replies, accepted deals and the public record that tells whether a deal
was kept; ``record`` reads that record off the engine's events; ``table`` keeps the book of a
local game beside its session (a person's offers, the AIs' answers, saved with the game)."""

from .book import (
    ACCEPT,
    BROKEN,
    COUNTER,
    DECLINE,
    KEPT,
    PENDING,
    Act,
    Deal,
    DealBook,
    Proposal,
    Reply,
    Verdict,
    check_kept,
    party_verdicts,
)
from .terms import NonAggression, SplitBids, StayOut, SupportPromise, Term, binds

__all__ = [
    "ACCEPT",
    "BROKEN",
    "COUNTER",
    "DECLINE",
    "KEPT",
    "PENDING",
    "Act",
    "Deal",
    "DealBook",
    "NonAggression",
    "Proposal",
    "Reply",
    "SplitBids",
    "StayOut",
    "SupportPromise",
    "Term",
    "Verdict",
    "binds",
    "check_kept",
    "party_verdicts",
]
