"""The guided first game's prepared board (issue 37 point 1): the 3-player base game with a few
units moved so that round 1 holds a march into a combat with support, a raid and a
consolidation, and the decks stacked so that round 2's Westeros phase brings Mustering, a Clash
of Kings and a wildling attack (RULES.md 2, 3.2). The game is marked by the ``GUIDE`` option;
the server's guide (``westeros.server.guide``) explains it step by step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import board
from ..engine.content import StateHook
from ..engine.state import State

GUIDE = "guided_first_game"
"""The game option (not shown on the new-game screen) that marks the guided first game."""
PLAYERS = 3
HOUSE = "lannister"
"""The house the person plays in the guided game."""

EXTRA_UNITS = (
    ("harrenhal", HOUSE, "footman"),
    ("riverrun", "stark", "footman"),
    ("searoad-marches", "baratheon", "footman"),
)
"""Units added to the 3-player start: something to consolidate in, to attack and to raid."""
KINGS_COURT = ("stark", HOUSE, "baratheon")
"""Stark holds the Messenger Raven, so the person's first Planning has no raven step."""
WESTEROS_TOPS = ("mustering", "clash-of-kings", "wildlings-attack")
"""The cards round 2 reveals from decks I, II and III (3.2.2)."""
WILDLING_TOP = "skinchanger-scout"
"""The wildling card the attack of round 2 reveals (7.3.9)."""


def _on_top(deck: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``deck`` with one copy of ``card`` moved to its top."""
    rest = list(deck)
    rest.remove(card)
    return (card, *rest)


def prepare(state: State) -> None:
    """Turn a new 3-player base game into the guided game's board."""
    for area, house, unit in EXTRA_UNITS:
        board.add_units(state, area, house, [unit])
    state.tracks = {**state.tracks, "kings_court": KINGS_COURT}
    state.westeros_decks = tuple(
        _on_top(deck, top) for deck, top in zip(state.westeros_decks, WESTEROS_TOPS, strict=True)
    )
    state.wildling_deck = _on_top(state.wildling_deck, WILDLING_TOP)
    state.supply = {h: board.barrels(state, h) for h in state.houses}
    state.cache = None


def guide_setup(options: Mapping[str, Any]) -> StateHook | None:
    """``prepare`` for the guided game, nothing for any other game."""
    return prepare if options.get(GUIDE) else None
