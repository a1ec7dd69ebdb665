"""Power tokens (1.5): gains are capped at 20 per house including tokens on the board."""

from __future__ import annotations

from .errors import IllegalChoice, NotEnoughPower
from .flow import left_out
from .state import State

MAX_POWER = 20


def on_board(state: State, house: str) -> int:
    """Power tokens ``house`` has on the board."""
    return sum(1 for h in state.power_tokens.values() if h == house)


def gain(state: State, house: str, amount: int) -> int:
    """Give ``house`` up to ``amount`` tokens from the pool (1.5.2); returns the number gained
    (none for a house a plugin leaves out of gaining power, ``rule_left_out``)."""
    if left_out(state, house, "power"):
        return 0
    room = MAX_POWER - state.power[house] - on_board(state, house)
    got = max(0, min(amount, room))
    state.power[house] += got
    return got


def lose(state: State, house: str, amount: int) -> int:
    """Discard up to ``amount`` available tokens to the pool (1.5.3); returns the number lost."""
    lost = max(0, min(amount, state.power[house]))
    state.power[house] -= lost
    return lost


def check_bid(state: State, house: str, amount: int, rule: str) -> None:
    """A secret bid is 0 up to the house's available tokens (3.6.2, 7.2.1); raise otherwise."""
    if amount < 0:
        raise IllegalChoice(f"a bid cannot be negative ({amount})", rule=rule)
    if amount > state.power[house]:
        raise NotEnoughPower(
            f"{house} bids {amount} but has {state.power[house]} available PT", rule=rule
        )
