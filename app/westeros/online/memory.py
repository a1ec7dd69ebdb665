"""The garbage collector of a ``westeros server`` worker (docs/online.md, "Capacity").

What a worker has loaded when it starts (code, rules, templates) lives as long as it does, so
it is frozen out of the collector's sight (``gc.freeze``). A game's states and views are freed
by reference counting as soon as the next action replaces them, so CPython's automatic full
collections found next to nothing, yet each one walked every live game while holding every
thread of the worker: with 100 games loaded they came every few seconds and took 0.1 to 0.3 s,
the largest part of the action→broadcast p99. Here the young generations are collected as
usual (they catch the short-lived cycles: exceptions, finished tasks) and the full collection
runs on a clock instead, every ``interval`` seconds, on a thread of its own."""

from __future__ import annotations

import gc
import threading

FULL_EVERY = 300.0
"""Seconds between two full collections of a worker."""
NEVER = 1_000_000
"""The third ``gc`` threshold that keeps CPython from starting full collections itself."""


class Collector:
    """The tuning above, for as long as it is started; ``close`` puts the collector back as
    it was (and lets it see the frozen objects again)."""

    def __init__(self, interval: float = FULL_EVERY) -> None:
        self.interval = interval
        self.full_collections = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Freeze what is loaded, stop automatic full collections, start the clock."""
        self._thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, NEVER)
        self._thread = threading.Thread(target=self._run, name="westeros-gc", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            gc.collect()
            self.full_collections += 1

    def close(self) -> None:
        """Stop the clock; the thresholds as they were, nothing frozen any more."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
