"""Redis restarted mid-game under a real ``westeros server`` with two workers (issue 35,
finding 8 and acceptance 3). The server's Redis is a redis-server of the test's own, so
``shutdown nosave`` and a new start (every key, lock, lease and presence entry lost; every
connection dropped) hurt no other test."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .live import (
    FaultServer,
    PrivateRedis,
    check_chat_reached,
    check_nothing_lost,
    check_views,
    rss_mb,
    seat_table,
    socket_worker,
)

DOWN_S = 4.0


@pytest.mark.slow
def test_a_two_worker_server_goes_on_after_redis_restarts_mid_game(
    database: tuple[str, str], fault_server: Any, private_redis: PrivateRedis
) -> None:
    """Issue 35 finding 8 (H2) and acceptance 3: Redis shut down for 4 s mid-game while
    people chat and act, then started again empty. Every accepted action and acknowledged
    chat line is stored; both workers go on with the same game (more actions accepted
    after); every seat socket, on either worker, received every chat line it may read and
    shows its seat's view of the stored game, the spectators the public one; each worker
    logged the outage once (not a flood); its memory stayed bounded."""
    server_url, reader = database
    server: FaultServer = fault_server(server_url, private_redis.url, workers=2)
    table = seat_table(server, reader)
    try:
        workers = {socket_worker(server, c.ws) for c in table.seats}
        print(f"seat sockets on workers {sorted(w or 0 for w in workers)}")
        table.play(actions=4)
        stark, lannister = table.answering
        stark.say()
        lannister.say(to="stark")
        table.pump(1.0)
        before = {w: rss_mb(w) for w in server.workers()}

        private_redis.stop()
        print(f"injected: redis-server shut down (nosave) for {DOWN_S:.0f} s mid-game")
        deadline = time.monotonic() + DOWN_S
        while time.monotonic() < deadline:  # people keep chatting and acting meanwhile
            stark.say(to="lannister")
            lannister.say()
            table.pump(1.0)
        private_redis.start()
        print("injected: redis-server started again, empty")
        stark.say()

        reached = table.play(actions=8)
        print(f"the game went on to action {reached} after the restart")
        lannister.say(to="stark")
        state = table.settle()
        table.pump(2.0)  # the last chat lines' way to every socket
        check_nothing_lost(table)
        check_views(table, state)
        check_chat_reached(table)
        assert len(stark.acknowledged()) >= 6 and len(lannister.acknowledged()) >= 6

        log = server.log()
        lost = log.count("is unreachable")
        back = log.count("is back after")
        print(f"server log: {lost} outage line(s), {back} recovery line(s)")
        assert 1 <= lost <= len(before) and 1 <= back <= len(before)
        for worker, rss in before.items():
            print(f"worker {worker}: {rss:.0f} MB before, {rss_mb(worker):.0f} MB after")
            assert rss_mb(worker) < rss + 150
    finally:
        table.close()
