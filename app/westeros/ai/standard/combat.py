"""The Standard AI's house cards (RULES.md 5.4.3): every card in hand is tried against every
card the opponent may play with the engine's own combat preview (``preview.card_preview``:
final strengths, victor, losses), and the choice follows the margin — the weakest card that
still wins as often as the best one does, or the weakest card of all when the combat is lost
whatever I play, to save the strong ones for later.

Both combatants ask about the same pairs of cards: a pair's outcome is kept for the combat it
was worked out in (``Outcomes``), so the second side to choose reads it instead of replaying it.
That happens inside a search's simulations, where both sides are played on one state; a seat
in a real game builds its own state from its view and shares nothing."""

from __future__ import annotations

from ...engine import preview
from ...engine.actions import Action, Choose
from ...engine.combat.context import ATTACKER, Combat
from ...engine.state import State
from ..analysis import Situation
from ..baseline.choices import ChoicePolicy
from ..baseline.policy import Data

LOST = 0.2
"""Below this chance to win with the best card, the fight counts as lost anyway."""
CLOSE = 0.1
"""Cards within this chance of the best one count as winning as often."""
Pair = tuple[str | None, str | None]
"""(attacker's card, defender's card)."""


class Outcomes:
    """The outcome of each pair of cards (winning side, the loser's casualties) in the last
    ``KEPT`` combats asked about. A combat is recognised by identity: a ``Combat`` is frozen
    and every step that changes the fight makes a new one, so while the same object is in
    ``state.combat`` the cards are all that can differ (hands, orders and tracks stay put while
    both sides choose, 5.4.3); the object is kept alive with its entry, so its id is not reused."""

    KEPT = 4

    def __init__(self) -> None:
        self.entries: list[tuple[Combat, dict[Pair, tuple[bool, int]]]] = []

    def table(self, combat: Combat) -> dict[Pair, tuple[bool, int]]:
        """Pair → (did the attacker win, the loser's casualties), as far as known for
        ``combat`` (``rows`` fills it in)."""
        for known, table in self.entries:
            if known is combat:
                return table
        self.entries = [*self.entries[-(self.KEPT - 1) :], (combat, {})]
        return self.entries[-1][1]

    def rows(self, state: State, house: str, card: str) -> list[tuple[str | None, bool, int]]:
        """(opponent's card, do I win, the loser's casualties) for ``house`` playing ``card``
        against each card the opponent may play: from the table, else by the preview."""
        combat: Combat = state.combat
        which = combat.side_of(house)
        assert which is not None, f"{house} does not fight in this combat"
        attacking = which == ATTACKER
        table = self.table(combat)
        pairs = {
            c: (card, c) if attacking else (c, card) for c in preview.opponent_cards(state, house)
        }
        if any(p not in table for p in pairs.values()):
            for row in preview.card_preview(state, house, card)["against"]:
                attacker_won = row["wins"] == attacking
                table[pairs[row["opponent_card"]]] = (attacker_won, row["casualties"])
        return [(c, table[p][0] == attacking, table[p][1]) for c, p in pairs.items()]


OUTCOMES = Outcomes()


class StandardCombat(ChoicePolicy):
    """House cards by margin; the other combat choices as the baseline AI makes them."""

    def card_chances(self, sit: Situation, cards: list[str]) -> dict[str, tuple[float, int]]:
        """For each of my ``cards``: (chance to win against the opponent's possible cards,
        casualties I inflict when winning) by the engine's preview; the opponent's stronger
        cards weigh a little more (a defender rarely holds back)."""
        defs = sit.rules.house_cards
        out: dict[str, tuple[float, int]] = {}
        for card in cards:
            total = won = 0.0
            hurt = 0
            for theirs, wins, casualties in OUTCOMES.rows(sit.state, sit.me, card):
                weight = 1.0 + 0.3 * (defs[theirs].strength if theirs in defs else 0)
                total += weight
                if wins:
                    won += weight
                    hurt += casualties
            out[card] = (won / total if total else 0.0, hurt)
        return out

    def choose_house_card(self, sit: Situation, data: Data) -> Action:
        """House card (5.4.3) by margin (see module docstring); a forced replacement
        (``reason`` given, 5.4.4) is chosen as the baseline AI does."""
        if sit.state.combat is None or "reason" in data:
            return super().choose_house_card(sit, data)
        defs = sit.rules.house_cards
        cards = list(data["cards"])
        chances = self.card_chances(sit, cards)
        best = max(p for p, _ in chances.values())

        def worth(card: str) -> tuple[int, int, str]:
            c = defs[card]
            return (c.strength, c.swords + c.fortifications, card)

        if best < LOST:
            return Choose(min(cards, key=worth))
        winners = [c for c in cards if chances[c][0] >= best - CLOSE]
        return Choose(min(winners, key=lambda c: (worth(c)[0], -chances[c][1], c)))
