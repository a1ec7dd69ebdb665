"""The nine wildling cards (RULES.md 7.3)."""

from ..engine.content import WildlingCard


def wildling_cards() -> list[WildlingCard]:
    """Every wildling card with its three outcomes."""
    return []
