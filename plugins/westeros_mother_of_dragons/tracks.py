"""House Targaryen on the influence tracks (RULES.md 11.2.3): always last on all three, so it
never holds a dominance token; whatever rebuilds a track or moves houses on it, Targaryen is
put back at the bottom and the other houses keep the order the effect gave them."""

from __future__ import annotations

from westeros.engine.state import State

from .essos import TARGARYEN


def targaryen_last(state: State, track: str, order: tuple[str, ...]) -> tuple[str, ...]:
    """``order`` with Targaryen, if in the game, moved to the last position (11.2.3)."""
    if TARGARYEN not in order or order[-1] == TARGARYEN:
        return order
    return (*tuple(h for h in order if h != TARGARYEN), TARGARYEN)
