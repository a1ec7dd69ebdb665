"""The Westeros cards of decks I-III (RULES.md 3.4)."""

from ..engine.content import WesterosCard


def westeros_cards() -> list[WesterosCard]:
    """Every Westeros card with its effect."""
    return []
