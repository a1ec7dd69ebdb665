"""The two reference players of the tournament: ``RandomBot`` (uniformly random legal choices
built from the prompt data) and ``PassiveBot`` (the least active legal answer to everything)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.content import Ruleset
from . import legal


class RandomBot:
    """Answers every prompt with a uniformly random legal choice (legal.random_action)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rnd = random.Random(seed)

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """A random legal answer to ``view["prompt"]`` (protocol.Player)."""
        return legal.random_action(view, rules, self.rnd)


class PassiveBot:
    """Answers every prompt with the least active legal choice (legal.minimal_action)."""

    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The minimal legal answer to ``view["prompt"]`` (protocol.Player)."""
        return legal.minimal_action(view, rules)
