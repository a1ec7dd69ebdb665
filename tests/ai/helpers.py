"""Helpers for AI tests: ask a bot through the protocol, small combats set up by hand."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.builders import act, blank, order, prompt, put, run
from westeros.ai import ask
from westeros.ai.protocol import Player
from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.planning import PlaceOrders, PlanningPhase
from westeros.engine.state import State


def decision(player: Player, state: State, house: str) -> Action:
    """What ``player`` answers as ``house`` now (it sees only its own view)."""
    action, _ = ask(player, state, house)
    return action


def stark_attacks_white_harbor(
    rules: Ruleset,
    attackers: tuple[str, ...],
    defenders: tuple[str, ...],
    defense: str | None = None,
    greyjoy_hand: tuple[str, ...] | None = None,
) -> State:
    """A 6-player board where Stark marches ``attackers`` from Winterfell (March +0) into White
    Harbor held by Greyjoy ``defenders`` (with a ``defense`` order and only ``greyjoy_hand`` in
    hand, if given); returns the state at Stark's house-card choice (5.4.3)."""
    s = blank(rules)
    if greyjoy_hand is not None:
        s.hands["greyjoy"] = greyjoy_hand
    s.supply["greyjoy"] = s.supply["stark"] = 6
    put(s, "winterfell", "stark", *attackers)
    put(s, "white-harbor", "greyjoy", *defenders)
    order(s, "winterfell", "march+0")
    if defense is not None:
        order(s, "white-harbor", defense)
    run(s, MarchTurn("stark"))
    s = act(s, "stark", ResolveMarch("winterfell", (("white-harbor", attackers),)))
    assert prompt(s, "stark").kind == "choose_house_card"
    return s


def close_fight(rules: Ruleset) -> State:
    """Stark's knight and footman (3 with March +0) against two Greyjoy footmen holding only
    Asha (1) in White Harbor, the Blade used up (5.4.6): a 0 card ties and Greyjoy, higher on
    Fiefdoms, wins (5.4.8), so Stark needs a card of 1 or more; at Stark's house-card choice."""
    s = stark_attacks_white_harbor(
        rules, ("footman", "knight"), ("footman", "footman"), greyjoy_hand=("asha-greyjoy",)
    )
    s.blade_used = True
    return s


def orders_of(rules: Ruleset, action: object) -> dict[str, str]:
    """Area → order type of a placement."""
    assert isinstance(action, PlaceOrders)
    return {area: rules.order_tokens[token].type for area, token in action.orders}


def planning(s: State) -> State:
    """``s`` at the start of the Planning phase, Stark asked for its orders (4.1)."""
    run(s, PlanningPhase())
    assert prompt(s, "stark").kind == "place_orders"
    return s


def outputs_by_hash_seed(code: str, seeds: tuple[str, ...] = ("1", "2")) -> set[str]:
    """What the Python ``code`` prints when run under each of ``seeds`` as Python's string
    hash seed: a single output means no set order decided anything it prints."""
    outputs = set()
    for hash_seed in seeds:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    return outputs
