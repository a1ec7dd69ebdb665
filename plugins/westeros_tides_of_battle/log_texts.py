"""The Tides of Battle plugin's log texts (RULES.md 10): gettext literals of this plugin,
translated by its own catalog (``locale/``, registered through ``register_translations``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros.engine.content import N_, EventText, Words

CARD_NAMES: dict[str, str] = {
    "zero": N_("a 0"),
    "sword": N_("a 1 with a sword"),
    "fortification": N_("a 1 with a fortification"),
    "two": N_("a 2"),
    "three": N_("a 3"),
    "skull": N_("a skull"),
}
"""Each Tides of Battle card (data/tides.json) in words (10.1)."""


def card_name(w: Words, card: Any) -> str:
    """A Tides of Battle card in words (the id only for a card this plugin does not know)."""
    return w._(CARD_NAMES[card]) if card in CARD_NAMES else str(card)


def tides_drawn(w: Words, e: Mapping[str, Any]) -> str:
    """Seen only by the house that drew (10.2)."""
    return w._("You draw the Tides of Battle card {card}.").format(card=card_name(w, e["card"]))


def tides_revealed(w: Words, e: Mapping[str, Any]) -> str:
    """Both cards revealed (10.4)."""
    cards = w.join_clauses(
        w._("{house} draws {card}").format(house=w.house(h), card=card_name(w, c))
        for h, c in e["cards"].items()
    )
    return w._("Tides of Battle cards: {cards}.").format(cards=cards)


def event_texts() -> list[EventText]:
    """The Tides of Battle events."""
    return [EventText("tides_drawn", tides_drawn), EventText("tides_revealed", tides_revealed)]
