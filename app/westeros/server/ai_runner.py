"""Runs a game's AI seats in a background thread, so the event loop stays responsive.

The runner wakes after every accepted action (and when started), lets each pending AI house
decide on its own view through ``GameSession.play_ai`` — the same checks as a client's
message — and first waits the pause ``pause()`` gives (the player's AI pace, issue 13.7), asked
again before every decision so that a new pace applies at once, so that a person can follow."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..session import Accepted, GameSession

log = logging.getLogger("westeros.server.ai")


class AiRunner:
    """The AI seats of one session. ``start`` once; ``stop`` ends the thread."""

    def __init__(self, session: GameSession, pause: Callable[[], float] = lambda: 0.0) -> None:
        self.session = session
        self.pause = pause
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        session.observe(self._accepted)

    @property
    def running(self) -> bool:
        """True while the thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the thread (no-op if it already runs, the game is over or paused)."""
        if self.running or self.session.over or self.session.paused is not None:
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

    def _paused(self, house: str) -> bool:
        """Wait the pause before ``house`` decides; True if the runner was stopped meanwhile."""
        delay = max(0.0, self.pause())
        if not delay:
            return False
        log.debug("AI %s of game %s waits %.2f s", house, self.session.game_id, delay)
        return self._stop.wait(delay)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            while not self._stop.is_set() and not self.session.over:
                houses = self.session.ai_pending()
                if not houses:
                    break
                for house in houses:
                    if self._paused(house):
                        return
                    try:
                        self.session.play_ai(house)
                    except Exception:
                        log.exception("AI seat %s of game %s failed", house, self.session.game_id)
                        self._stop.wait(1.0)
            if self.session.over or self.session.paused is not None:
                return  # a paused game (a plugin's rule failed) is never retried
