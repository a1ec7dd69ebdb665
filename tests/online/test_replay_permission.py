"""Who may replay an online game is decided before the game is re-run, and replay work is
bounded per asker (issue 35 finding 16; docs/online.md "Replays and files", "Limits")."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from .helpers import start_game


def _rename(app: Any, table: str, to: str) -> None:
    with app.state.online.store.engine.begin() as db:
        db.execute(sa.text(f"ALTER TABLE {table} RENAME TO {to}"))


def test_a_refused_replay_is_refused_without_rerunning_the_game(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 16 (M8): replays re-ran the whole game before checking permission —
    now a spectator's full replay and another seat's replay of a running game are refused
    (403) from the game's record alone: with the action log unreadable (fault injected) the
    refusals are the same, while the player's own seat, which is re-run, is answered 503
    until the log is back."""
    alice = player("Alice")
    game_id = start_game(alice, [])["game_id"]
    stranger = TestClient(online_app)
    paths = [
        (stranger, f"/games/{game_id}/replay/step/0"),
        (stranger, f"/games/{game_id}/replay"),
        (stranger, f"/games/{game_id}/replay/step/0?house=stark"),
        (alice.client, f"/games/{game_id}/replay/step/0?house=lannister"),
        (alice.client, f"/games/{game_id}/replay/lannister"),
    ]
    before = [client.get(path).status_code for client, path in paths]
    _rename(online_app, "actions", "actions_away")
    print("injected: table actions renamed away while the replays are asked for")
    try:
        refused = [client.get(path).status_code for client, path in paths]
        own = alice.client.get(f"/games/{game_id}/replay/step/0?house=stark").status_code
    finally:
        _rename(online_app, "actions_away", "actions")
    assert before == refused == [403] * len(paths)
    assert own == 503
    assert alice.client.get(f"/games/{game_id}/replay/step/0?house=stark").status_code == 200


def test_an_asker_runs_at_most_its_share_of_replays_at_once() -> None:
    """Issue 35 finding 16 (M8): nothing bounded the replay work one asker caused — now each
    key or address has ``replays_per_asker`` replays worked out at once; one more is refused
    ``online/replay-busy`` (429) while another asker is served, and once one ends it may
    ask again."""
    from westeros.online.limits import Gate, ReplayBusy

    gate = Gate(2)
    started, release = threading.Barrier(3), threading.Event()

    def replay() -> None:
        with gate.enter("key-a"):
            started.wait()
            release.wait()

    running = [threading.Thread(target=replay) for _ in range(2)]
    for thread in running:
        thread.start()
    started.wait()
    with pytest.raises(ReplayBusy) as busy, gate.enter("key-a"):
        pass
    with gate.enter("key-b"):
        pass
    release.set()
    for thread in running:
        thread.join()
    with gate.enter("key-a"):
        pass
    assert (busy.value.code, busy.value.status) == ("online/replay-busy", 429)
