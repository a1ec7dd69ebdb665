"""Issue 38 point 3 (hooks the trial reached for): an AI personality may bring its own decision
code for the decisions it cares about, not only weights. The seat's AI (``seat_ai``, as the
local core and the online server make it) asks the personality's code first, by prompt kind or
by the prompt's reason, and decides itself whatever the code leaves (None)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from westeros.ai.personality import BALANCED, AIPersonality, OwnDecision
from westeros.ai.protocol import ask
from westeros.ai.seats import seat_ai
from westeros.engine import apply
from westeros.engine.actions import Action, Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.setup import new_game
from westeros.engine.state import Event, State
from westeros.plugins import build_ruleset

LOOK = "look_at_wildling_card"
NOTHING = "nothing"


def never_look(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The Raven-keeper's own decision: never use the Messenger Raven (4.4)."""
    assert NOTHING in view["prompt"]["data"]["options"]
    return Choose(NOTHING)


def leave_it(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action | None:
    return None


def keeper(decisions: Mapping[str, OwnDecision]) -> AIPersonality:
    return AIPersonality("raven-keeper", "The Raven-keeper", decisions=decisions)


def until_raven(personality: AIPersonality, level: str) -> tuple[State, str, Action, list[Event]]:
    """Round 1 of a 3-player game with ``personality`` on every AI seat, up to the Messenger
    Raven (4.4): the state before it, its holder, what the holder's seat decided, the events."""
    state = new_game(build_ruleset(autoload=False), 3, seed=4)
    seats = {h: seat_ai(level, personality, seed=7) for h in state.houses}
    while True:
        waiting = pending(state)
        house = min(waiting)
        action, _ = ask(seats[house], state, house, budget=0.5)
        before = state
        state, events = apply(state, house, action)
        if waiting[house].kind == "messenger_raven":
            return before, house, action, list(events)


def test_hook_register_ai_personalities_own_decision_answers_its_prompt_kind() -> None:
    """Issue 38 point 3: the seat plays the personality's code for ``messenger_raven`` and the
    game takes it: the Raven's holder neither looks at the wildling card nor replaces an
    order, at every AI level."""
    for level in ("baseline", "standard", "easy"):
        _, house, action, events = until_raven(keeper({"messenger_raven": never_look}), level)
        print(level, "raven holder:", house, "decided:", action)
        assert action == Choose(NOTHING)
        assert not [e for e in events if e.kind in ("raven_looked", "raven_replaced")]


def test_an_own_decision_by_reason_and_the_rest_left_to_the_ai() -> None:
    """Issue 38 point 3: code keyed by a prompt's ``reason`` answers it; code that returns None
    leaves the decision to the seat's AI, which then decides exactly as without it."""
    by_reason = keeper({"4.4 Messenger Raven": lambda view, rules, rnd: Choose("move_to_bottom")})
    own = by_reason.own_decision
    assert own({"kind": "choose_option", "data": {"reason": "4.4 Messenger Raven"}}) is not None
    assert own({"kind": "choose_option", "data": {"reason": "7.2.1"}}) is None

    before, house, action, _ = until_raven(keeper({"messenger_raven": leave_it}), "baseline")
    plain = seat_ai("baseline", BALANCED, seed=7)
    assert ask(plain, before, house, budget=0.5)[0] == action


def test_a_personality_without_own_decisions_plays_the_plain_ai() -> None:
    """Issue 38 point 3: weights only (every bundled personality) change nothing in how the
    seat's AI is made."""
    for level in ("baseline", "standard", "easy"):
        plain = seat_ai(level, BALANCED, seed=3)
        assert type(plain) is type(seat_ai(level, AIPersonality("calm", "Calm"), seed=3))
