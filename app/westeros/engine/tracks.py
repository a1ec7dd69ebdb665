"""Influence tracks and dominance tokens (1.6)."""

from __future__ import annotations

from .flow import left_out
from .state import State

IRON_THRONE = "iron_throne"
FIEFDOMS = "fiefdoms"
KINGS_COURT = "kings_court"


def holder(state: State, track: str) -> str:
    """The house in the first position of ``track`` (holds its dominance token, 1.6.2), or the
    highest house a plugin does not leave out of dominance (``rule_left_out``, 11.10.1)."""
    order = state.tracks[track]
    if not state.rules.hooks.left_out:
        return order[0]
    return next((h for h in order if not left_out(state, h, "dominance")), order[0])


def turn_order(state: State) -> tuple[str, ...]:
    """Houses in Iron Throne order (0.3)."""
    return state.tracks[IRON_THRONE]


def position(state: State, track: str, house: str) -> int:
    """0-based position of ``house`` on ``track``."""
    return state.tracks[track].index(house)


def star_limit(state: State, house: str) -> int:
    """Starred orders ``house`` may place, by King's Court position (1.6.3)."""
    limits = state.setup.star_limits
    pos = position(state, KINGS_COURT, house)
    return limits[pos] if pos < len(limits) else 0


def set_order(state: State, track: str, order: tuple[str, ...]) -> None:
    """Rebuild ``track`` in ``order`` as the plugins' ``track_order`` hooks adjust it;
    dominance follows at once (1.6.4)."""
    for hook in state.rules.hooks.track_order:
        order = tuple(hook(state, track, tuple(order)))
    if sorted(order) != sorted(state.tracks[track]):
        raise AssertionError("a track must hold exactly the houses in play")
    state.tracks[track] = tuple(order)
    state.emit("track", track=track, order=list(order))


def move_to_bottom(state: State, track: str, house: str) -> None:
    """Move ``house`` to the last position of ``track`` (Doran Martell, wildling cards)."""
    order = (*tuple(h for h in state.tracks[track] if h != house), house)
    set_order(state, track, order)


def move_to_top(state: State, track: str, house: str) -> None:
    """Move ``house`` to the first position of ``track`` (A King Beyond the Wall)."""
    order = (house, *tuple(h for h in state.tracks[track] if h != house))
    set_order(state, track, order)


def drop(state: State, track: str, house: str, places: int) -> None:
    """Move ``house`` down ``places`` positions, stopping at the last (Preemptive Raid)."""
    order = [h for h in state.tracks[track] if h != house]
    pos = min(len(order), state.tracks[track].index(house) + places)
    order.insert(pos, house)
    set_order(state, track, tuple(order))
