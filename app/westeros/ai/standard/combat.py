"""The Standard AI's house cards (RULES.md 5.4.3): every card in hand is tried against every
card the opponent may play with the engine's own combat preview (``preview.card_preview``:
final strengths, victor, losses), and the choice follows the margin — the weakest card that
still wins as often as the best one does, or the weakest card of all when the combat is lost
whatever I play, to save the strong ones for later."""

from __future__ import annotations

from ...engine import preview
from ...engine.actions import Action, Choose
from ..analysis import Situation
from ..baseline.choices import ChoicePolicy
from ..baseline.policy import Data

LOST = 0.2
"""Below this chance to win with the best card, the fight counts as lost anyway."""
CLOSE = 0.1
"""Cards within this chance of the best one count as winning as often."""


class StandardCombat(ChoicePolicy):
    """House cards by margin; the other combat choices as the baseline AI makes them."""

    def card_chances(self, sit: Situation, cards: list[str]) -> dict[str, tuple[float, int]]:
        """For each of my ``cards``: (chance to win against the opponent's possible cards,
        casualties I inflict when winning) by the engine's preview; the opponent's stronger
        cards weigh a little more (a defender rarely holds back)."""
        defs = sit.rules.house_cards
        out: dict[str, tuple[float, int]] = {}
        for card in cards:
            rows = preview.card_preview(sit.state, sit.me, card)["against"]
            total = won = 0.0
            hurt = 0
            for row in rows:
                theirs = row["opponent_card"]
                weight = 1.0 + 0.3 * (defs[theirs].strength if theirs in defs else 0)
                total += weight
                if row["wins"]:
                    won += weight
                    hurt += row["casualties"]
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
