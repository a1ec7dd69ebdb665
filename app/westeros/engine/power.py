"""Power tokens (1.5): gains are capped at 20 per house including tokens on the board."""

from __future__ import annotations

from .state import State

MAX_POWER = 20


def on_board(state: State, house: str) -> int:
    """Power tokens ``house`` has on the board."""
    return sum(1 for h in state.power_tokens.values() if h == house)


def gain(state: State, house: str, amount: int) -> int:
    """Give ``house`` up to ``amount`` tokens from the pool (1.5.2); returns the number gained."""
    room = MAX_POWER - state.power[house] - on_board(state, house)
    got = max(0, min(amount, room))
    state.power[house] += got
    return got


def lose(state: State, house: str, amount: int) -> int:
    """Discard up to ``amount`` available tokens to the pool (1.5.3); returns the number lost."""
    lost = max(0, min(amount, state.power[house]))
    state.power[house] -= lost
    return lost
