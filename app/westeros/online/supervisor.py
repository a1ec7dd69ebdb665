"""The parent process of a ``westeros server`` with several workers: uvicorn's supervisor,
plus one log line for every worker that died, with its exit code or the signal that ended
it, before its replacement starts (uvicorn itself says only "died", at INFO level, which
``westeros server`` does not show; issue 35, finding 17)."""

from __future__ import annotations

import logging
import signal
from typing import Any

import uvicorn
from uvicorn.main import run as run_uvicorn
from uvicorn.supervisors.multiprocess import Multiprocess, Process

log = logging.getLogger("westeros.online.supervisor")


def ending(exitcode: int | None) -> str:
    """How a process ended, in words: its exit code, or the signal that killed it."""
    if exitcode is None:
        return "no exit code (still running or never started)"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed by {name}"
    return f"exit code {exitcode}"


class Supervisor(Multiprocess):
    """uvicorn's ``Multiprocess`` that logs each worker it replaces."""

    def keep_subprocess_alive(self) -> None:
        """Replace dead or hung workers (uvicorn), logging each one replaced."""
        before: list[Process] = list(self.processes)
        super().keep_subprocess_alive()
        for old, new in zip(before, self.processes, strict=False):
            if new is not old:
                log.error(
                    "westeros server: worker process %s ended (%s); started worker %s in "
                    "its place (its players reconnect to any worker)",
                    old.pid,
                    ending(old.exitcode),
                    new.pid,
                )


def run(app: str, **settings: Any) -> None:
    """``uvicorn.run(app, **settings)``, with ``Supervisor`` watching several workers (called
    as ``uvicorn.main.run``, so that it works where ``uvicorn.run`` is this function)."""
    config = uvicorn.Config(app, **settings)
    if config.workers <= 1:
        run_uvicorn(app, **settings)
        return
    Supervisor(config, sockets=[config.bind_socket()]).run()
