"""AI seats of online games decide in a process pool, never on a worker's event loop or in
its interpreter (one slow AI never delays another game's broadcast).

``PooledAi`` is the session's AI player (``westeros.session.AiPlayer``): its ``decide`` sends
the seat's own ``player_view`` (DESIGN §2: never the true state), the game's plugins and
options, the AI level and personality to a pool process, which builds the Ruleset once per
game setup and runs the seat's AI there (``ai.seats.seat_ai``, as the local core does); the
thread that asked (the seat runner's) waits for the answer. What the AI learns over the game,
Hard's reading of the other houses (``ai.opponents``), goes to the pool with each decision
and comes back with the answer, so a pooled Hard plays as a local one.

The pool's processes end with their worker: each watches its parent and exits once it is
gone (a worker killed with SIGKILL cannot stop them itself; issue 35, finding 17). A pool
one of whose processes died refuses every later decision, so ``AiPool`` starts a new one;
a decision that the death (or the server's shutdown) cut off raises ``AiUnavailable``, and
the seat is asked again, never answered with a random move."""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

from westeros.ai.difficulty import LEVELS
from westeros.ai.opponents import OpponentModels
from westeros.ai.personality import AIPersonality
from westeros.ai.strong import StrongBot
from westeros.engine import Action, Ruleset
from westeros.session import AiPlayer, AiUnavailable

RECALL_TIMEOUT = 30.0
"""Seconds a seat's reading of the earlier rounds may take in the pool, plus one a round."""
PARENT_POLL = 0.5
"""Seconds between two looks of a pool process at whether its worker still runs."""


@functools.lru_cache(maxsize=32)
def _ruleset(plugins_json: str, options_json: str) -> Ruleset:
    from westeros.saves import ruleset_for

    plugins = [tuple(p) for p in json.loads(plugins_json)]
    return ruleset_for(plugins, json.loads(options_json))


Reading = dict[str, Any] | None
"""A seat's reading of the other houses (``ai.opponents.OpponentModels.to_json``), None for a
level that does not read them."""


def _seat(level: str, personality: AIPersonality, seed: int, reading: Reading) -> AiPlayer:
    """The seat's AI (``ai.seats.seat_ai``, as the local core makes it), with ``reading``."""
    from westeros.ai.seats import seat_ai

    ai = seat_ai(level, personality, seed)
    if reading is not None and isinstance(ai, StrongBot) and ai.opponents is not None:
        ai.opponents = OpponentModels.from_json(ai.level.model, reading)
    return ai


def _reading(ai: AiPlayer) -> Reading:
    if isinstance(ai, StrongBot) and ai.opponents is not None:
        return ai.opponents.to_json()
    return None


def decide_in_pool(
    level: str,
    personality: AIPersonality,
    seed: int,
    plugins_json: str,
    options_json: str,
    view: dict[str, Any],
    budget: float,
    reading: Reading = None,
) -> tuple[dict[str, Any], Reading]:
    """Run in a pool process: the decision of the seat's AI (``level``, ``personality``,
    ``reading``) for the prompt in ``view``, as JSON, and its reading after it."""
    rules = _ruleset(plugins_json, options_json)
    ai = _seat(level, personality, seed, reading)
    action = ai.decide(view, rules, budget)
    return action.to_json(), _reading(ai)


def recall_in_pool(
    level: str,
    personality: AIPersonality,
    seed: int,
    plugins_json: str,
    options_json: str,
    past: list[tuple[dict[str, Any], dict[str, Any]]],
) -> Reading:
    """Run in a pool process: the seat's reading of the earlier rounds ``past`` (its Planning
    and reveal views, ``session.memory``)."""
    rules = _ruleset(plugins_json, options_json)
    ai = _seat(level, personality, seed, None)
    if isinstance(ai, StrongBot):
        ai.recall(past, rules)
    return _reading(ai)


def end_with_parent(parent: int) -> None:
    """Pool initializer: end this process as soon as ``parent`` (the worker that started it)
    has ended, whatever ended it. A thread polls the parent's pid: ``PR_SET_PDEATHSIG``
    would fire when the worker's *thread* that happened to start the process ends, not the
    worker."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(0)

    threading.Thread(target=watch, name="westeros-parent-watch", daemon=True).start()


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` AI processes (spawned: no copy of the server's threads),
    each ending with this process."""
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=end_with_parent,
        initargs=(os.getpid(),),
    )


P = ParamSpec("P")
T = TypeVar("T")


class AiPool(Executor):
    """A worker's AI processes (``process_pool``), started anew when one of them died: a
    process pool with a dead process is broken and refuses everything given to it after."""

    def __init__(self, processes: int) -> None:
        self._processes = processes
        self._lock = threading.Lock()
        self._pool = process_pool(processes)
        self._closed = False

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """``fn(*args, **kwargs)`` in a process of the pool; a broken pool is replaced once
        first. RuntimeError once shut down."""
        with self._lock:
            pool = self._pool
        try:
            return pool.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            return self._renewed(pool).submit(fn, *args, **kwargs)

    def _renewed(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is broken and not self._closed:
                self._pool = process_pool(self._processes)
            pool = self._pool
        broken.shutdown(wait=False, cancel_futures=True)
        return pool

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            pool = self._pool
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def submitted(pool: Executor, fn: Callable[..., T], *args: Any) -> Future[T]:
    """``pool.submit(fn, *args)``; AiUnavailable when the pool is shut down (the server is
    stopping) or broken beyond renewal."""
    try:
        return pool.submit(fn, *args)
    except RuntimeError as exc:  # BrokenExecutor is one too
        raise AiUnavailable(f"the AI processes cannot take a decision: {exc}") from exc


def answer(future: Future[T], timeout: float) -> T:
    """The result of ``future``; AiUnavailable when its process died (the pool is renewed
    at the next decision) or the pool was shut down before it ran."""
    try:
        return future.result(timeout=timeout)
    except (BrokenExecutor, CancelledError) as exc:
        raise AiUnavailable(f"the AI process ended before it decided: {exc!r}") from exc


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
        self.reading: Reading = None

    @property
    def remembers(self) -> bool:
        """Does this seat's level read the other houses over the game
        (``session.seats.Recalling``)?"""
        difficulty = LEVELS.get(self.level)
        return difficulty is not None and difficulty.read_opponents

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The pool's decision for ``view`` (``rules`` is rebuilt there from the setup); the
        seat's reading of the other houses goes with it and comes back updated.
        AiUnavailable when the pool could not give one (``answer``)."""
        future = submitted(
            self.pool,
            decide_in_pool,
            self.level,
            self.personality,
            secrets.randbelow(2**31),
            self._plugins,
            self._options,
            dict(view),
            budget,
            self.reading,
        )
        action, self.reading = answer(future, max(30.0, budget * 10))
        return Action.from_json(action, rules.action_kinds)

    def recall(
        self, past: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], rules: Ruleset
    ) -> None:
        """Read the earlier rounds in the pool (``session.seats.Recalling``)."""
        future = submitted(
            self.pool,
            recall_in_pool,
            self.level,
            self.personality,
            secrets.randbelow(2**31),
            self._plugins,
            self._options,
            [(dict(planning), dict(revealed)) for planning, revealed in past],
        )
        self.reading = answer(future, RECALL_TIMEOUT + len(past))
