"""One game's slow work never delays another game's socket (issue 14, Why 3): each game's
socket work runs on its own serial worker, not on a small pool shared by every game. The
slow work here is a hint hook that blocks until the test lets it go; the order of replies
shows the other game was answered meanwhile (no clock involved)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import (
    RECEIVE_TIMEOUT_S,
    nothing_pending,
    orders_for,
    receive,
    seat_url,
)
from westeros.engine import Action, State
from westeros.server.games import Games

SLOW_SOCKETS = 8  # more than the default thread pool of a 2-core machine (6)


def test_a_blocked_hook_in_one_game_does_not_delay_another_games_socket(
    client: TestClient, games: Games
) -> None:
    slow = games.create(players=3, human="stark", seed=1, start_ai=False)
    other = games.create(players=3, human="stark", seed=2, start_ai=False)
    release, started = threading.Event(), threading.Event()
    entered: list[str] = []

    def blocking_hint(state: State, house: str, action: Action) -> dict[str, Any]:
        entered.append(house)
        started.set()
        release.wait(60)
        return {"slow": True}

    slow.hint_maker = blocking_hint
    hint = {"type": "hint", "action": orders_for(slow, "stark")}
    with contextlib.ExitStack() as stack:
        fast = stack.enter_context(client.websocket_connect(seat_url(other.game_id, "stark")))
        assert receive(fast)["type"] == "view"
        url = seat_url(slow.game_id, "stark")
        sockets = [stack.enter_context(client.websocket_connect(url)) for _ in range(SLOW_SOCKETS)]
        assert {receive(ws)["type"] for ws in sockets} == {"view"}
        try:
            for ws in sockets:
                ws.send_json(hint)
            assert started.wait(RECEIVE_TIMEOUT_S)
            nothing_pending(fast)  # answered while every slow hint is still blocked
            fast.send_json({"type": "action", "action": orders_for(other, "stark"), "state_id": 0})
            assert receive(fast)["state_id"] == 1
            assert other.serial == 1
            assert not release.is_set() and len(entered) == 1  # the slow game works in order
        finally:
            release.set()
        replies = [receive(ws) for ws in sockets]
    assert [r["type"] for r in replies] == ["hint"] * SLOW_SOCKETS
    assert len(entered) == SLOW_SOCKETS
