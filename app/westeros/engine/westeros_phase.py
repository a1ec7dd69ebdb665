"""The Westeros phase (3.2): reveal one card per deck, raise the wildling threat, resolve the
cards in deck order, then run the consequence checks."""

from __future__ import annotations

import dataclasses

from . import rng, victory
from .flow import Step
from .state import State

MAX_THREAT = 12
THREAT_PER_ICON = 2


def reveal(state: State, index: int) -> str:
    """Reveal the top card of deck ``index`` (3.2.2) and return its id. Winter is Coming
    shuffles the whole deck, itself included, and a new card is revealed, repeatedly (3.2.3).

    The revealed card is moved to the bottom of its deck at once: nothing reads a deck's order
    while its card resolves, so this equals putting it there after resolution."""
    cards = state.rules.westeros_cards
    deck = state.westeros_decks[index]
    if not all(cards[c].reshuffle for c in deck):
        while cards[deck[0]].reshuffle:
            state.emit("winter_is_coming", deck=index + 1, card=deck[0])
            deck, state.seed = rng.shuffled(state.seed, deck)
    top = deck[0]
    decks = list(state.westeros_decks)
    decks[index] = (*deck[1:], top)
    state.westeros_decks = tuple(decks)
    return top


@dataclasses.dataclass(frozen=True, slots=True)
class WesterosPhase(Step):
    """Reveal the cards (3.2.2-3.2.3), raise the threat (3.2.4), attack at 12 before any card
    resolves (3.2.5), resolve the cards I → II → III (3.2.6), then check victory (3.2.7)."""

    def run(self, state: State) -> None:
        indices = [i for i, deck in enumerate(state.westeros_decks) if deck]
        state.revealed = tuple(reveal(state, i) for i in indices)
        state.emit("westeros_revealed", round=state.round, cards=list(state.revealed))
        cards = state.rules.westeros_cards
        icons = sum(1 for c in state.revealed if cards[c].wildling_icon)
        if icons:
            state.threat = min(MAX_THREAT, state.threat + THREAT_PER_ICON * icons)
            state.emit("threat", threat=state.threat, icons=icons)
        steps: list[Step] = [ResolveWesterosCard(i) for i in range(len(state.revealed))]
        steps.append(WesterosEnd())
        if state.threat >= MAX_THREAT:
            from .wildlings import WildlingAttack

            steps.insert(0, WildlingAttack())
        state.push(*steps)


@dataclasses.dataclass(frozen=True, slots=True)
class ResolveWesterosCard(Step):
    """Resolve the ``index``-th revealed card (3.2.6). Each card has its own step, so the next
    card starts only after every decision of this one is done."""

    index: int

    def run(self, state: State) -> None:
        card = state.rules.westeros_cards[state.revealed[self.index]]
        state.emit("westeros_card", card=card.id, name=card.name, deck=card.deck)
        if card.effect is not None:
            card.effect(state)


@dataclasses.dataclass(frozen=True, slots=True)
class WesterosEnd(Step):
    """After all cards: the consequence checks and the victory check (3.2.7, Appendix A.3)."""

    def run(self, state: State) -> None:
        victory.consequences(state)
