"""Runs a game's AI seats in a background thread, so the event loop stays responsive.

The runner wakes after every accepted action (and when started), lets each pending AI house
decide on its own view through ``GameSession.play_ai`` — the same checks as a client's
message — and sleeps ``delay`` seconds before each decision so that a person can follow."""

from __future__ import annotations

import logging
import threading

from ..session import Accepted, GameSession

log = logging.getLogger("westeros.server.ai")


class AiRunner:
    """The AI seats of one session. ``start`` once; ``stop`` ends the thread."""

    def __init__(self, session: GameSession, delay: float = 0.0) -> None:
        self.session = session
        self.delay = max(0.0, delay)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        session.observe(self._accepted)

    @property
    def running(self) -> bool:
        """True while the thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the thread (no-op if it already runs or the game is over)."""
        if self.running or self.session.over:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"westeros-ai-{self.session.game_id[:8]}", daemon=True
        )
        self._thread.start()
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _accepted(self, _: Accepted) -> None:
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            while not self._stop.is_set() and not self.session.over:
                houses = self.session.ai_pending()
                if not houses:
                    break
                for house in houses:
                    if self.delay and self._stop.wait(self.delay):
                        return
                    try:
                        self.session.play_ai(house)
                    except Exception:
                        log.exception("AI seat %s of game %s failed", house, self.session.game_id)
                        self._stop.wait(1.0)
            if self.session.over:
                return
