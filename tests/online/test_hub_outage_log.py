"""The seat thread's log during a database outage (issue 35 findings 8 and 9, docs/online.md
"Faults the server survives"): the first failure of an outage is logged with its traceback,
its end in one line saying how long it lasted and how many scans failed, nothing in between
(a 12-second outage used to log ten tracebacks). The store's ``running_games``, which every
scan reads, is made to fail a set number of times (printed)."""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from westeros.online import hub as hub_module
from westeros.online.bus import LocalBus
from westeros.online.hub import OnlineHub
from westeros.online.store import OnlineStore
from westeros.saves import open_store

from .helpers import wait_for

FAILURES = (7, 3)
"""Scans made to fail in a row, per injected outage."""


class FailingScans(OnlineStore):
    """An online store whose ``running_games`` fails ``fail_next`` more times."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.fail_next = 0
        self.failed = 0
        self.scans = threading.Semaphore(0)
        self.guard = threading.Lock()

    def fail(self, scans: int) -> None:
        """Make the next ``scans`` scans fail."""
        with self.guard:
            self.fail_next = scans

    def running_games(self, limit: int = 1000) -> list[str]:
        with self.guard:
            failing = self.fail_next > 0
            if failing:
                self.fail_next -= 1
                self.failed += 1
        self.scans.release()
        if failing:
            raise OperationalError("SELECT online_lobbies", {}, Exception("server closed"))
        return super().running_games(limit)


@pytest.fixture
def worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[OnlineHub, FailingScans]]:
    monkeypatch.setattr(hub_module, "RETRY_AFTER", 0.02, raising=False)
    store = open_store(f"sqlite:///{tmp_path / 'outage.db'}")
    pool = ThreadPoolExecutor(1)
    online = FailingScans(store.engine)
    hub = OnlineHub(store, online, LocalBus(), pool, tick=0.01, scan=0.02)
    yield hub, online
    hub.close()
    pool.shutdown()
    store.close()


def _seat_thread_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "westeros.online"]


def _logged(caplog: pytest.LogCaptureFixture, lines: int) -> bool:
    return len(_seat_thread_lines(caplog)) >= lines


def test_a_database_outage_is_logged_once_with_its_traceback_and_once_when_it_ends(
    worker: tuple[OnlineHub, FailingScans], caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 35 findings 8 and 9: two outages of the store (7, then 3 failed scans) give
    four lines from the seat thread: each outage's first failure with the database's error
    in its traceback, and its end with the number of scans that failed."""
    hub, online = worker
    caplog.set_level(logging.INFO, logger="westeros.online")
    hub.start()
    for outages, failures in enumerate(FAILURES, start=1):
        assert online.scans.acquire(timeout=10)  # a scan that went through before it
        online.fail(failures)
        print(f"injected: the next {failures} scans' database reads fail (OperationalError)")
        wait_for(lambda: online.fail_next == 0, timeout=20, step=0.01)
        wait_for(functools.partial(_logged, caplog, 2 * outages), timeout=10, step=0.01)
    lines = _seat_thread_lines(caplog)
    print("the seat thread logged:", [(r.levelname, r.getMessage()) for r in lines])
    assert len(lines) == 2 * len(FAILURES)
    for (first, back), failures in zip(
        (lines[i : i + 2] for i in range(0, len(lines), 2)), FAILURES, strict=True
    ):
        assert first.levelno == logging.ERROR and first.exc_info is not None
        assert isinstance(first.exc_info[1], OperationalError)
        assert back.levelno == logging.WARNING and back.exc_info is None
        assert f"{failures} scan(s) failed" in back.getMessage()
    assert online.failed == sum(FAILURES)
