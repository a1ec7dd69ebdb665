"""Helpers for rule tests: a small board set up by hand (DESIGN §6)."""

from __future__ import annotations

import random
from typing import Any

from westeros.engine import board
from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.flow import Step, advance, apply, pending
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State


def blank(rules: Ruleset, players: int = 6, seed: int = 1, *, keep_units: bool = False) -> State:
    """A set-up game with no step queued; with ``keep_units`` False the board is emptied
    (no units, orders or power tokens; garrisons and neutral forces stay)."""
    s = new_game(rules, players, seed, start=False)
    if not keep_units:
        s.units.clear()
        s.orders.clear()
        s.power_tokens.clear()
    return s


def put(state: State, area: str, house: str, *types: str, routed: bool = False) -> None:
    """Place units of ``house`` in ``area``."""
    board.add_units(state, area, house, types, routed=routed)
    state.cache = None


def order(state: State, area: str, token: str) -> None:
    """Put a revealed order ``token`` in ``area`` for the house whose units stand there."""
    house = board.occupant(state, area)
    assert house is not None, f"no units in {area}"
    state.orders[area] = Order(house, token)
    state.cache = None


def run(state: State, *steps: Step) -> State:
    """Queue ``steps`` and run until a decision is needed; returns the same state."""
    state.push(*steps)
    advance(state)
    return state


def act(state: State, house: str, action: Action) -> State:
    """Apply one decision through the public engine API."""
    new, _ = apply(state, house, action)
    return new


def prompt(state: State, house: str) -> Any:
    """The prompt ``house`` is given now (None if it is not asked)."""
    return pending(state).get(house)


def play_randomly(state: State, rnd: random.Random, max_steps: int = 100_000) -> State:
    """Answer every prompt with random legal actions until nothing is pending."""
    from westeros.engine.flow import random_action

    for _ in range(max_steps):
        waiting = pending(state)
        if not waiting:
            return state
        house = sorted(waiting)[0]
        state, _ = apply(state, house, random_action(state, house, rnd))
    raise AssertionError("game did not finish")
