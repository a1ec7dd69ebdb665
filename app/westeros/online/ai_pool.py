"""AI seats of online games decide in a process pool, never on a worker's event loop or in
its interpreter (one slow AI never delays another game's broadcast).

``PooledAi`` is the session's AI player (``westeros.session.AiPlayer``): its ``decide`` sends
the seat's own ``player_view`` (DESIGN §2: never the true state), the game's plugins and
options, the AI level and personality to a pool process, which builds the Ruleset once per
game setup and runs the seat's AI there (``ai.seats.seat_ai``, as the local core does); the
thread that asked (the seat runner's) waits for the answer."""

from __future__ import annotations

import functools
import json
import multiprocessing
import secrets
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from westeros.ai.personality import AIPersonality
from westeros.engine import Action, Ruleset

DEFAULT_LEVEL = "normal"


@functools.lru_cache(maxsize=32)
def _ruleset(plugins_json: str, options_json: str) -> Ruleset:
    from westeros.saves import ruleset_for

    plugins = [tuple(p) for p in json.loads(plugins_json)]
    return ruleset_for(plugins, json.loads(options_json))


def decide_in_pool(
    level: str,
    personality: AIPersonality,
    seed: int,
    plugins_json: str,
    options_json: str,
    view: dict[str, Any],
    budget: float,
) -> dict[str, Any]:
    """Run in a pool process: the decision of the seat's AI (``level``, ``personality``) for
    the prompt in ``view``, as JSON."""
    from westeros.ai.seats import seat_ai

    rules = _ruleset(plugins_json, options_json)
    return seat_ai(level, personality, seed).decide(view, rules, budget).to_json()


def make_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` AI processes (spawned: no copy of the server's threads)."""
    return ProcessPoolExecutor(
        max_workers=processes, mp_context=multiprocessing.get_context("spawn")
    )


class PooledAi:
    """An AI seat whose decisions are computed in ``pool``."""

    def __init__(
        self,
        pool: Executor,
        level: str,
        personality: AIPersonality,
        plugins: Sequence[tuple[str, str]],
        options: Mapping[str, Any],
    ) -> None:
        self.pool = pool
        self.level = level
        self.name = level
        self.personality = personality
        self._plugins = json.dumps([list(p) for p in plugins])
        self._options = json.dumps(dict(options), sort_keys=True)

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The pool's decision for ``view`` (``rules`` is rebuilt there from the setup)."""
        seed = secrets.randbelow(2**31)
        future = self.pool.submit(
            decide_in_pool,
            self.level,
            self.personality,
            seed,
            self._plugins,
            self._options,
            dict(view),
            budget,
        )
        return Action.from_json(future.result(timeout=max(30.0, budget * 10)), rules.action_kinds)
