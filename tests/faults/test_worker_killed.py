"""A worker of a real ``westeros server --workers 2`` killed with SIGKILL mid-game (issue 35,
finding 17 and acceptance 3): its players reconnect to any worker and go on, nothing is lost,
its AI-pool processes end with it, and the death is logged with the signal."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from .live import (
    FaultServer,
    check_nothing_lost,
    check_views,
    running,
    seat_table,
    socket_worker,
    spawned,
)

POOL_END_S = 15.0


def test_a_worker_killed_mid_game_loses_nothing_and_its_ai_processes_end_with_it(
    database: tuple[str, str], services: tuple[str, str], fault_server: Any
) -> None:
    """Issue 35 finding 17 (a killed worker left its AI-pool processes behind and was
    respawned silently) and acceptance 3: SIGKILL to the worker that runs the AI's pool
    process, mid-game. Its AI-pool processes end; the supervisor logs the death with the
    signal and starts another worker; the sockets it held open again elsewhere; every
    accepted action and acknowledged chat line is stored; the game goes on; every socket
    shows its seat's view of the stored game."""
    server_url, reader = database
    server: FaultServer = fault_server(server_url, services[1], workers=2, supervised=True)
    table = seat_table(server, reader)
    try:
        table.play(actions=6)
        stark, lannister = table.answering
        stark.say()
        lannister.say(to="stark")
        table.pump(1.0)
        pools = {w: spawned(w) for w in server.workers()}
        victim = next((w for w, pool in pools.items() if pool), None)
        assert victim is not None, f"no worker has started an AI-pool process: {pools}"
        held = [c.path for c in table.clients if socket_worker(server, c.ws) == victim]
        print(f"workers and their AI-pool processes: {pools}; sockets on {victim}: {held}")

        os.kill(victim, signal.SIGKILL)
        print(f"injected: SIGKILL to worker {victim} (AI pool {pools[victim]}) mid-game")
        deadline = time.monotonic() + POOL_END_S
        while any(running(p) for p in pools[victim]) and time.monotonic() < deadline:
            table.pump(0.5)
        left = [p for p in pools[victim] if running(p)]
        assert not left, f"AI-pool processes of the killed worker still run: {left}"

        reached = table.play(actions=8)
        print(f"the game went on to action {reached}")
        stark.say()
        state = table.settle()
        check_nothing_lost(table)
        check_views(table, state)
        assert stark.acknowledged() and lannister.acknowledged()
        assert victim not in server.workers() and len(server.workers()) == 2
        assert f"worker process {victim} ended (killed by SIGKILL)" in server.log()
        print(f"dropped sockets opened again: {[(c.path, c.drops) for c in table.clients]}")
    finally:
        table.close()
