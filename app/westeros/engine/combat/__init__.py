"""Combat between two houses (RULES.md 5.4)."""

from .context import ATTACKER, DEFENDER, Combat, Side

__all__ = ["ATTACKER", "DEFENDER", "Combat", "Side"]
