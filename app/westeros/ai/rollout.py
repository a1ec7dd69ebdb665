"""Fast play inside a search (DESIGN §2): a model policy (``MODELS``: the baseline AI's or the
Standard AI's) applied directly to a determinized ``State`` (``determinize``), without building
a ``player_view`` for every step.

A simulated state is the searching seat's own sample, never a true game state, so the policy may
read it whole. Each simulated house decides from the state as that house would see it: secret
commitments stay inside the engine's decision steps, exactly as in a real game."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.errors import IllegalAction
from ..engine.flow import Prompt, apply, pending, random_action
from ..engine.state import State
from ..engine.view import player_view
from . import legal
from .analysis import Situation
from .baseline import BASELINE, HANDLERS, BaselineBot, Personality
from .standard import StandardBot
from .standard.combat import Outcomes
from .standard.policy import HANDLERS as STANDARD_HANDLERS

ModelBot = BaselineBot | StandardBot
Handler = Callable[[Any, Situation, Mapping[str, Any]], Action]
MODELS: dict[str, tuple[type[ModelBot], Mapping[str, Handler]]] = {
    "baseline": (BaselineBot, HANDLERS),
    "standard": (StandardBot, STANDARD_HANDLERS),
}
"""The policies a search can plan, predict and simulate with (``Difficulty.model``): the bot
class and its prompt handlers."""


def model_bot(
    model: str, seed: int, style: Personality = BASELINE, outcomes: Outcomes | None = None
) -> ModelBot:
    """A bot of the ``model`` policy (``MODELS``) playing in ``style``; a Standard AI keeps
    its house cards' outcomes in ``outcomes`` if given, else in a table of its own."""
    bot = MODELS[model][0](seed, style)
    if outcomes is not None and isinstance(bot, StandardBot):
        bot.outcomes = outcomes
    return bot


DEFAULT_STEPS = 400


def situation(state: State, house: str, prompt: Prompt | None = None) -> Situation:
    """The model policy's picture of ``state`` for ``house`` (asked ``prompt``), built from the
    simulated state itself instead of a view."""
    sit = Situation.__new__(Situation)
    sit.view = {"house": house, "prompt": prompt_json(prompt)}
    sit.rules = state.rules
    sit.me = house
    sit.state = state
    return sit


def prompt_json(prompt: Prompt | None) -> dict[str, Any] | None:
    """A prompt as ``player_view`` shows it."""
    if prompt is None:
        return None
    return {"kind": prompt.kind, "actions": list(prompt.actions), "data": prompt.data}


class RolloutPolicy:
    """The ``model`` policy's decisions for every house of a simulated game (a house named in
    ``models`` plays that model instead), each house with its own personality (default: the
    baseline's). Deterministic for a given ``seed``. Its bots share one table of house-card
    outcomes (``standard.combat.Outcomes``): ``outcomes`` if given (the searching seat's, for
    all its simulations), else the policy's own."""

    def __init__(
        self,
        seed: int = 0,
        personalities: Mapping[str, Personality] | None = None,
        model: str = "baseline",
        models: Mapping[str, str] | None = None,
        outcomes: Outcomes | None = None,
    ) -> None:
        self.rnd = random.Random(seed)
        self.bots: dict[str, ModelBot] = {}
        self.personalities = dict(personalities or {})
        self.model = model
        self.models = dict(models or {})
        self.outcomes = outcomes if outcomes is not None else Outcomes()

    def model_of(self, house: str) -> str:
        """The model policy ``house`` plays in simulations."""
        return self.models.get(house, self.model)

    def bot(self, house: str) -> ModelBot:
        """The model's bot playing ``house`` in simulations."""
        bot = self.bots.get(house)
        if bot is None:
            style = self.personalities.get(house, BASELINE)
            seed = self.rnd.getrandbits(32)
            bot = model_bot(self.model_of(house), seed, style, self.outcomes)
            self.bots[house] = bot
        return bot

    def decide(self, state: State, house: str, prompt: Prompt) -> Action:
        """The model's answer to ``prompt`` in ``state``."""
        sit = situation(state, house, prompt)
        handlers = MODELS[self.model_of(house)][1]
        plugin = legal.plugin_answer(state.rules, sit.view["prompt"], handlers)
        if plugin is not None:  # its contract is the seat's full view (register_ai_answers)
            view = {**player_view(state, house), "prompt": sit.view["prompt"]}
            return plugin.answer(view, state.rules, self.rnd)
        handler = handlers.get(prompt.kind)
        if handler is None:
            return legal.fallback_action(sit.view, state.rules)
        return handler(self.bot(house), sit, prompt.data)


def play(
    state: State,
    policy: RolloutPolicy,
    steps: int = DEFAULT_STEPS,
) -> tuple[State, int]:
    """Play ``state`` on with ``policy`` until nothing is pending (the end of the stack or of
    the game) or ``steps`` decisions were made; returns the state reached and the number of
    decisions made. A policy answer the engine refuses is replaced by a random legal one."""
    made = 0
    while made < steps:
        waiting = pending(state)
        if not waiting:
            break
        house = min(waiting)
        prompt = waiting[house]
        try:
            action = policy.decide(state, house, prompt)
            state, _ = apply(state, house, action)
        except IllegalAction:
            state, _ = apply(state, house, random_action(state, house, policy.rnd))
        made += 1
    return state, made
