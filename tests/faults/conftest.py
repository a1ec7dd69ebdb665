"""Fixtures of the fault suite (issue 35, acceptance 3; pieces in ``tests/faults/live.py``).

- ``services``: (PostgreSQL URL, Redis URL) from ``WESTEROS_TEST_POSTGRES_URL`` and
  ``WESTEROS_TEST_REDIS_URL``; the test is skipped, with the reason, when either is unset or
  does not answer.
- ``database``: a fresh PostgreSQL schema for one test, dropped afterwards: (the URL to give
  the server, whose connections carry an ``application_name`` of their own so that a test
  can kill exactly them; the URL the test reads the store with).
- ``private_redis``: a ``redis-server`` of the test's own on a free port (common.md's flags,
  no persistence), running at the start and stopped at the end; ``stop()`` and ``start()``
  restart it for real without touching the Redis other tests share.
- ``fault_server``: ``fault_server(database, redis_url, workers=2, supervised=False)`` starts
  a real ``westeros server --workers N`` on a free port of 127.0.0.1 (its output in a file,
  ``FaultServer.log()``; ``supervised``: its workers watched by
  ``westeros.online.supervisor``), waits until every worker runs, and stops it at the end.
- Players and checks (``live.py``): ``seat_table`` (a started 3-player game, two people with
  two seat sockets each spread over the workers, the baseline AI, two spectators; sockets
  open again when dropped, as the board's do), ``Table.play``/``settle``,
  ``check_nothing_lost``, ``check_views``, ``check_chat_reached``, ``socket_worker`` (which
  worker holds a socket), ``spawned``/``running``/``rss_mb`` (processes from /proc).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .live import FaultServer, PrivateRedis, fresh_database, launch, postgres_and_redis


@pytest.fixture
def services() -> tuple[str, str]:
    """(PostgreSQL URL, Redis URL), or skip."""
    return postgres_and_redis()


@pytest.fixture
def database(services: tuple[str, str]) -> Iterator[tuple[str, str]]:
    """(the server's URL, the test's URL) of a fresh schema."""
    with fresh_database(services[0]) as urls:
        yield urls


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A running redis-server of this test's own, stopped at the end."""
    folder = tmp_path / "redis"
    folder.mkdir()
    redis = PrivateRedis(folder)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def fault_server(tmp_path: Path) -> Iterator[Callable[..., FaultServer]]:
    """``fault_server(database, redis_url, workers=2)``: a running server, stopped at the end."""
    started: list[FaultServer] = []

    def start(
        database: str, redis_url: str, workers: int = 2, *, supervised: bool = False
    ) -> FaultServer:
        server = launch(database, redis_url, tmp_path, workers, supervised=supervised)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
