"""An AI seat of a local game that talks and keeps its word (issue 15 point 4).

The seat's own AI learns to talk: ``TalkingBot`` is the baseline AI bound by its deals
(``DealBot``); ``TalkingStrongBot`` (the strong AI at its level) decides unbound, but any
decision of its that breaks a deal of this round — a march into or a raid on an area the deal
forbids, a bid over the agreed cap, support for the other side — is replaced by ``DealBot``'s
decision for that prompt, so an honourable personality keeps every promise and
a schemer breaks one only as ``DealBot`` would.
All answer and make proposals with a ``DealMind`` (by the personality's ``diplomacy``).

A seat sees only its own side of the deal book (``follow``: the table shows it
``DealBook.seen_by`` of its house) and ``talks`` (``GameSession.ai_pending``: it places its
orders after the people's, so that a person can talk to it first)."""

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
from .difficulty import NORMAL, Difficulty
from .personality import BALANCED, AIPersonality
from .strong import StrongBot

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


class TalkingBot(DealBot):
    """The baseline AI of a local game, bound by its deals (see module docstring)."""

    talks = True

    def __init__(self, seed: int = 0, personality: AIPersonality = BALANCED) -> None:
        super().__init__(seed, personality)
        self._book: Callable[[], DealBook] = DealBook

    def follow(self, book: Callable[[], DealBook]) -> None:
        """Read my side of the game's deal book from ``book`` before each decision."""
        self._book = book

    def refresh(self) -> DealBook:
        """My side of the deal book as it is now (``follow``), seen and returned."""
        self.see(self._book())
        return self.book

    def answer(self, proposal: Proposal, view: View, rules: Ruleset) -> Reply:
        """My reply to ``proposal`` (``DealMind.answer``)."""
        self.refresh()
        return super().answer(proposal, view, rules)

    def proposals(self, view: View, rules: Ruleset) -> list[tuple[str, tuple[Term, ...]]]:
        """What I offer this round (``DealMind.proposals``)."""
        self.refresh()
        return super().proposals(view, rules)

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        """My decision, within my deals (``DealBot.decide``)."""
        self.refresh()
        return super().decide(view, rules, budget)


class TalkingStrongBot(StrongBot):
    """The strong AI of a local game, kept to its deals (see module docstring): it answers and
    offers through ``deals``, a ``TalkingBot`` of its personality, and a decision of its that
    breaks a deal of this round is replaced by that bot's."""

    talks = True

    def __init__(
        self,
        seed: int = 0,
        level: Difficulty = NORMAL,
        personality: AIPersonality = BALANCED,
    ) -> None:
        super().__init__(seed, level, personality)
        self.deals = TalkingBot(seed, personality)

    def follow(self, book: Callable[[], DealBook]) -> None:
        """Read my side of the game's deal book from ``book`` before each decision."""
        self.deals.follow(book)

    def answer(self, proposal: Proposal, view: View, rules: Ruleset) -> Reply:
        """My reply to ``proposal`` (``DealMind.answer``)."""
        return self.deals.answer(proposal, view, rules)

    def proposals(self, view: View, rules: Ruleset) -> list[tuple[str, tuple[Term, ...]]]:
        """What I offer this round (``DealMind.proposals``)."""
        return self.deals.proposals(view, rules)

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        """The strong AI's decision, unless it breaks a deal: then ``DealBot``'s."""
        action = super().decide(view, rules, budget)
        prompt = view.get("prompt") or {}
        if prompt.get("kind") not in ("march", "raid", "bid", "declare_support"):
            return action
        deals = self.deals
        book = deals.refresh()
        if not book.deals_of(view["house"]):
            return action
        bounds = deals.mind_of(view["house"]).bounds(book, Situation(view, rules))
        if breaks(action, bounds, prompt.get("data") or {}):
            return deals.decide(view, rules, budget)
        return action
