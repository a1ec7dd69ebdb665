"""Illegal actions (issue 2, acceptance 5; DESIGN §2): any action a client can send either is
legal or raises a specific IllegalAction naming a RULES.md section, and a refused action leaves
the state hash unchanged. Fuzzed with random actions of every registered kind at every decision
point of random games."""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from typing import Any

import pytest

from westeros.engine.actions import Action, Bid, action_kinds
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalAction, NotPending, WrongActionKind
from westeros.engine.flow import Simultaneous, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State


def vocabulary(state: State) -> list[str]:
    r = state.rules
    return [
        *r.areas,
        *r.order_tokens,
        *r.house_cards,
        *r.unit_types,
        *state.houses,
        "attacker",
        "defender",
        "none",
        "yes",
        "no",
        "",
    ]


def random_value(hint: Any, words: list[str], rnd: random.Random) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return random_value(rnd.choice(typing.get_args(hint)), words, rnd)
    if hint is type(None):
        return None
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(random_value(args[0], words, rnd) for _ in range(rnd.randint(0, 3)))
        return tuple(random_value(a, words, rnd) for a in args)
    if hint is bool:
        return rnd.random() < 0.5
    if hint is int:
        return rnd.randint(-2, 25)
    return rnd.choice(words)


def random_junk(kind: type[Action], words: list[str], rnd: random.Random) -> Action:
    hints = typing.get_type_hints(kind)
    values = {f.name: random_value(hints[f.name], words, rnd) for f in dataclasses.fields(kind)}
    return kind(**values)


@pytest.mark.parametrize("seed", range(12))
def test_fuzzed_actions_are_legal_or_refused_with_state_unchanged(
    rules: Ruleset, seed: int
) -> None:
    rnd = random.Random(seed)
    state = new_game(rules, 3 + seed % 4, seed)
    kinds = list(action_kinds().values())
    refused = 0
    while pending(state):
        waiting = pending(state)
        house = rnd.choice(sorted(waiting))
        words = vocabulary(state)
        before = state.hash()
        for kind in [k for k in kinds if k.kind in waiting[house].actions]:
            for _ in range(3):
                junk = random_junk(kind, words, rnd)
                try:
                    apply(state, house, junk)
                except IllegalAction as error:
                    refused += 1
                    assert error.rule, f"{type(error).__name__} names no rule"
                assert state.hash() == before
        state, _ = apply(state, house, random_action(state, house, rnd))
    assert refused > 0


def test_a_house_that_is_not_asked_is_refused(rules: Ruleset) -> None:
    state = new_game(rules, 6, 3)
    asked = set(pending(state))
    idle = [h for h in state.houses if h not in asked]
    while isinstance(state.stack[-1], Simultaneous):
        # Everyone places orders at once in round 1 (and may change them until the reveal):
        # answer for every house; then those the Messenger Raven does not ask are idle.
        house = sorted(pending(state))[0]
        state, _ = apply(state, house, random_action(state, house, random.Random(0)))
        idle = [h for h in state.houses if h not in pending(state)]
    before = state.hash()
    with pytest.raises(NotPending):
        apply(state, idle[0], Bid(0))
    assert state.hash() == before


def test_an_answer_of_the_wrong_kind_is_refused(rules: Ruleset) -> None:
    state = new_game(rules, 6, 3)
    house = sorted(pending(state))[0]
    before = state.hash()
    with pytest.raises(WrongActionKind):
        apply(state, house, Bid(0))
    assert state.hash() == before
