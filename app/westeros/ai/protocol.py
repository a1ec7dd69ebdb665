"""The AI player protocol (DESIGN §2): a player sees only its own ``player_view`` — which holds
its current prompt under ``view["prompt"]`` — and the public ``Ruleset`` (map, adjacency, cards,
unit types), and answers with one ``Action`` within a time budget. It never reads hidden state
(RULES.md 0.4.4): ``ask`` is the one place where a game state is turned into what a player gets.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.content import Ruleset
from ..engine.state import State
from ..engine.view import player_view

DEFAULT_BUDGET = 1.0


@runtime_checkable
class Player(Protocol):
    """An AI seat. ``name`` labels it in tournaments; ``decide`` answers the prompt of ``view``
    (never None when called) using only ``view`` and the public ``rules``, within ``budget``
    seconds."""

    name: str

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The action answering ``view["prompt"]``."""
        ...


def ask(
    player: Player, state: State, house: str, budget: float = DEFAULT_BUDGET
) -> tuple[Action, float]:
    """Ask ``player`` (seated as ``house``, which must be pending) for its decision, giving it
    only ``player_view(state, house)`` and the public Ruleset; returns (action, seconds taken)."""
    view = player_view(state, house)
    started = time.perf_counter()
    action = player.decide(view, state.rules, budget)
    return action, time.perf_counter() - started
