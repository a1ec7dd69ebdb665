"""The Mother of Dragons plugin's log texts (RULES.md 11): gettext literals of this plugin,
translated by its own catalog (``locale/``, registered through ``register_translations``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros.engine.content import N_, EventText, Words

from .arryn_cards import DISCARD, TAKE_BACK


def card_taken_back(w: Words, e: Mapping[str, Any]) -> str:
    """Lysa Arryn goes back into her owner's hand (11.7.1)."""
    return w._("{house} takes {card} back into its hand.").format(
        house=w.house(e["house"]), card=w.card(e["card"])
    )


def cards_removed_from_game(w: Words, e: Mapping[str, Any]) -> str:
    """Robert Arryn and an opponent's card leave the game for good (11.7.1, 11.7.5)."""
    cards = ", ".join(
        w._("{card} ({house})").format(card=w.card(c), house=w.house(h)) for h, c in e["cards"]
    )
    return w._("Removed from the game: {cards}.").format(cards=cards)


def vassals_claimed(w: Words, e: Mapping[str, Any]) -> str:
    """A player claims vassals for the round, or the last player takes the rest (11.10.3)."""
    if not e["vassals"]:
        return w._("{house} claims no vassal this round.").format(house=w.house(e["house"]))
    vassals = ", ".join(w.house(h) for h in e["vassals"])
    return w._("{house} commands {vassals} this round.").format(
        house=w.house(e["house"]), vassals=vassals
    )


def vassal_won(w: Words, e: Mapping[str, Any]) -> str:
    """A commander's reward for its vassal's victory (11.10.7)."""
    return w._("{vassal} won the combat: its commander {house} gains 1 power token.").format(
        vassal=w.house(e["vassal"]), house=w.house(e["house"])
    )


def vassal_power_token(w: Words, e: Mapping[str, Any]) -> str:
    """A vassal marched out of a land area and holds it with a free power token (11.10.7)."""
    return w._("{house} holds {area} with a free power token.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


OPTIONS = {TAKE_BACK: N_("Take the card back"), DISCARD: N_("Leave it discarded")}
"""Labels of the options this plugin's decisions offer (Lysa Arryn)."""


def event_texts() -> list[EventText]:
    """The Mother of Dragons events."""
    return [
        EventText("card_taken_back", card_taken_back, OPTIONS),
        EventText("cards_removed_from_game", cards_removed_from_game),
        EventText("vassals_claimed", vassals_claimed),
        EventText("vassal_won", vassal_won),
        EventText("vassal_power_token", vassal_power_token),
    ]
