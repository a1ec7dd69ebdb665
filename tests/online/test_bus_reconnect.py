"""The Redis bus across a real Redis restart (issue 35, finding 8: a restart used to kill the
listener thread for good, so one worker never heard of the other's actions again). Each test
runs a redis-server of its own (tests/faults/live.py ``PrivateRedis``), stops it with
``shutdown nosave`` (every key and connection lost) and starts it again."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.live import PrivateRedis
from westeros.online.bus import BusError, RedisBus

WAIT_S = 20.0


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Heard:
    """What one worker's bus delivered, in order."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.reconnects = 0
        self._changed = threading.Condition()

    def __call__(self, game: str, message: dict[str, Any]) -> None:
        with self._changed:
            self.messages.append({"game": game, **message})
            self._changed.notify_all()

    def reconnected(self) -> None:
        self.reconnects += 1

    def wait_for(self, count: int) -> list[dict[str, Any]]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.messages) >= count, timeout=WAIT_S)
            return list(self.messages)


def test_a_listener_survives_a_redis_restart_and_hears_everything_published_around_it(
    redis_server: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 35 finding 8 (H2): after ``shutdown nosave`` and a new start, the other worker
    still hears every message: the one before, the one published while Redis was down
    (kept, sent later) and the one published right after the restart (read back from the
    stream if it came before this worker subscribed again); once, in order."""
    prefix = f"bus-{uuid.uuid4().hex[:8]}"
    sender, receiver = RedisBus(redis_server.url, prefix), RedisBus(redis_server.url, prefix)
    heard = Heard()
    receiver.listen(heard)
    sender.listen(Heard())  # a worker always listens; its bus thread sends what it kept
    caplog.set_level(logging.WARNING, logger="westeros.online.bus")
    try:
        sender.publish("g1", {"kind": "chat", "n": 1})
        assert [m["n"] for m in heard.wait_for(1)] == [1]

        redis_server.stop()
        print("injected: redis-server shut down (nosave)")
        sender.publish("g1", {"kind": "chat", "n": 2})  # Redis is down: kept, no exception
        time.sleep(1.0)
        redis_server.start()
        print("injected: redis-server started again, every key lost")
        sender.publish("g2", {"kind": "chat", "n": 3})

        got = heard.wait_for(3)
        assert [(m["game"], m["n"]) for m in got] == [("g1", 1), ("g1", 2), ("g2", 3)]
        sender.publish("g1", {"kind": "chat", "n": 4})
        assert [m["n"] for m in heard.wait_for(4)] == [1, 2, 3, 4]
    finally:
        sender.close()
        receiver.close()
    lost = [r.getMessage() for r in caplog.records if "is unreachable" in r.getMessage()]
    back = [r.getMessage() for r in caplog.records if "is back after" in r.getMessage()]
    assert 1 <= len(lost) <= 2 and 1 <= len(back) <= 2  # one pair per bus for the outage
    assert all(redis_server.url in line for line in lost + back)


def test_a_worker_whose_bus_came_back_is_told_once_so_its_games_catch_up(
    redis_server: PrivateRedis,
) -> None:
    """Issue 35 finding 8 (H2): after the outage the bus calls its reconnect hooks once
    (each game's replica then reads from the database what it missed: ``OnlineSession``
    registers ``reconnected``)."""
    bus = RedisBus(redis_server.url, f"bus-{uuid.uuid4().hex[:8]}")
    heard = Heard()
    bus.on_reconnect(heard.reconnected)
    bus.listen(Heard())
    try:
        redis_server.stop()
        print("injected: redis-server shut down (nosave)")
        deadline = time.monotonic() + WAIT_S
        while not bus.down and time.monotonic() < deadline:
            time.sleep(0.05)
        redis_server.start()
        print("injected: redis-server started again")
        while (bus.down or heard.reconnects < 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        assert heard.reconnects == 1
    finally:
        bus.close()


def test_while_redis_is_down_the_lock_refuses_at_once_and_shared_reads_are_empty(
    redis_server: PrivateRedis,
) -> None:
    """Issue 35 finding 8 (H2): with Redis down a worker neither hangs nor crashes: the
    writer lock refuses with BusError (the action is not taken), presence, leases and
    serials read as empty (nobody runs a game's AI or clock meanwhile); once Redis is back
    the lease and presence are taken again."""
    prefix = f"bus-{uuid.uuid4().hex[:8]}"
    bus = RedisBus(redis_server.url, prefix)
    bus.listen(Heard())
    try:
        assert bus.leases(["g1"], 5.0) == {"g1"}
        bus.set_present({"c1": "lobby:stark"}, 5.0)
        assert bus.present(["lobby:stark"]) == {"lobby:stark"}

        redis_server.stop()
        print("injected: redis-server shut down (nosave)")
        started = time.monotonic()
        with pytest.raises(BusError, match="does not answer"), bus.lock("g1"):
            pass
        assert time.monotonic() - started < 5.0
        assert bus.leases(["g1"], 5.0) == set()
        assert bus.present(["lobby:stark"]) == set()
        assert bus.seqs(["g1"]) == {}
        bus.set_present({"c1": "lobby:stark"}, 5.0)
        bus.set_absent("lobby:stark", "c2")
        bus.note_seq("g1", 3)

        redis_server.start()
        print("injected: redis-server started again, every key lost")
        deadline = time.monotonic() + WAIT_S
        while bus.down and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not bus.down
        assert bus.leases(["g1"], 5.0) == {"g1"}
        bus.set_present({"c1": "lobby:stark"}, 5.0)  # the hub renews its sockets every 5 s
        assert bus.present(["lobby:stark"]) == {"lobby:stark"}
        with bus.lock("g1") as writing:
            assert writing.seq is None  # the serial was lost with Redis: replicas ask the store
    finally:
        bus.close()


def test_what_a_worker_keeps_while_redis_is_down_is_bounded(
    redis_server: PrivateRedis, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 35 finding 8 (H2), memory: a worker keeps at most OUTBOX messages while Redis
    is down (the oldest go first, and the log says how many; the replicas read the actions
    from the database anyway); the rest reach the other worker, in order, once it is back."""
    from westeros.online import bus as bus_module

    monkeypatch.setattr(bus_module, "OUTBOX", 50)
    prefix = f"bus-{uuid.uuid4().hex[:8]}"
    sender, receiver = RedisBus(redis_server.url, prefix), RedisBus(redis_server.url, prefix)
    heard = Heard()
    receiver.listen(heard)
    sender.listen(Heard())
    caplog.set_level(logging.WARNING, logger="westeros.online.bus")
    try:
        redis_server.stop()
        for n in range(80):
            sender.publish("g1", {"kind": "chat", "n": n})
        print("injected: redis-server down while 80 messages were published")
        redis_server.start()
        assert [m["n"] for m in heard.wait_for(50)] == list(range(30, 80))
        time.sleep(0.5)
        assert len(heard.messages) == 50
    finally:
        sender.close()
        receiver.close()
    assert any("30 dropped" in r.getMessage() for r in caplog.records)
