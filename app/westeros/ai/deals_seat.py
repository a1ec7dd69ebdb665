"""An AI seat of a local game that talks and keeps its word (issue 15 point 4).

``DealSeat`` wraps the seat's own AI (the baseline or the strong AI at its level): it answers
and makes proposals with its ``DealMind`` (by its personality's ``diplomacy``), and binds the
seat's decisions by the deals it accepted. The baseline AI is replaced by ``DealBot`` (the
baseline bound by its deals, from the Planning phase on); the strong AI's search is not bound,
but any decision of it that breaks a deal of this round — a march into or a raid on an area the
deal forbids, a bid over the agreed cap, support for the other side — is replaced by
``DealBot``'s decision for that prompt, so an honourable personality keeps every promise and a
schemer breaks one only as ``DealBot`` would.

The seat sees only its own side of the deal book (``follow``: the table shows it
``DealBook.seen_by`` of its house)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..deals.book import DealBook, Proposal, Reply
from ..deals.terms import Term
from ..engine.actions import Action, Bid, Choose
from ..engine.content import Ruleset
from ..engine.march import ResolveMarch
from ..engine.raid import ResolveRaid

from .analysis import Situation
from .deals import ATTACKER, DEFENDER, Bounds, DealBot
from .personality import BALANCED, AIPersonality
from .protocol import Player

View = Mapping[str, Any]


def breaks(action: Action, bounds: Bounds, data: View) -> bool:
    """Does ``action`` (for the prompt with ``data``) break what ``bounds`` forbid or ask?"""
    if isinstance(action, ResolveMarch):
        return any(dst in bounds.no_march for dst, _ in action.moves)
    if isinstance(action, ResolveRaid):
        return action.target is not None and action.target in bounds.no_raid
    if isinstance(action, Bid):
        cap = bounds.bids.get(data.get("track", ""))
        return cap is not None and action.amount > cap
    if isinstance(action, Choose) and data.get("area") in bounds.support:
        owed = bounds.support[data["area"]]
        sides = [s for s in (ATTACKER, DEFENDER) if data.get(s) == owed]
        return bool(sides) and action.option not in sides
    return False


class DealSeat:
    """An AI seat that negotiates and keeps its deals (see module docstring). ``inner`` is
    the seat's own AI, None for the baseline AI (then ``DealBot`` plays every decision)."""

    talks = True
    """Negotiating seats place their orders after the people's (``GameSession.ai_pending``),
    so that a person can talk to them first."""

    def __init__(
        self, inner: Player | None, seed: int = 0, personality: AIPersonality = BALANCED
    ) -> None:
        self.inner = inner
        self.bot = DealBot(seed, personality)
        self.character = personality
        self.name = inner.name if inner is not None else self.bot.name
        self.personality: Any = getattr(inner, "personality", personality)
        self._book: Callable[[], DealBook] = DealBook

    def follow(self, book: Callable[[], DealBook]) -> None:
        """Read my side of the game's deal book from ``book`` before each decision."""
        self._book = book

    def _see(self) -> None:
        self.bot.see(self._book())

    def answer(self, proposal: Proposal, view: View, rules: Ruleset) -> Reply:
        """My reply to ``proposal`` (``DealMind.answer``)."""
        self._see()
        return self.bot.answer(proposal, view, rules)

    def proposals(self, view: View, rules: Ruleset) -> list[tuple[str, Term]]:
        """What I offer this round (``DealMind.proposals``)."""
        self._see()
        return self.bot.proposals(view, rules)

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        """My decision, within my deals (see module docstring)."""
        self._see()
        if self.inner is None:
            return self.bot.decide(view, rules, budget)
        action = self.inner.decide(view, rules, budget)
        prompt = view.get("prompt") or {}
        if prompt.get("kind") not in ("march", "raid", "bid", "declare_support"):
            return action
        mind = self.bot.mind_of(view["house"])
        bounds = mind.bounds(self.bot.book, Situation(view, rules))
        if breaks(action, bounds, prompt.get("data") or {}):
            return self.bot.decide(view, rules, budget)
        return action
