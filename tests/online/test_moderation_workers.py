"""Moderation across workers (issue 40; docs/online-moderation.md): blocks, mutes and bans
are read from the store where they count, never from a worker's cache, so a block made
through one worker filters what another worker delivers, and a ban or mute set in the
database (as the operator's command does) refuses the next chat and action that worker B
takes from a player whose sockets it held before. Two hubs share one database (SQLite and
PostgreSQL) and one Redis database, as two ``westeros server`` workers would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from westeros.engine import player_view
from westeros.online.errors import ChatBanned, Muted
from westeros.online.hub import Conn, OnlineHub
from westeros.online.moderation import Moderation

from .helpers import decide, wait_for
from .seat_helpers import race_store, redis_or_skip, two_hubs


@pytest.fixture(params=["sqlite", "postgresql"])
def two_workers(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    url = redis_or_skip()
    with race_store(request.param, tmp_path) as store, two_hubs(store, url, "moderation") as hubs:
        yield hubs


def _texts(got: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in got if m["type"] == "chat"]


def test_a_block_and_a_ban_made_through_one_worker_count_on_the_other(
    two_workers: tuple[OnlineHub, OnlineHub],
) -> None:
    """Cara's socket is on worker B, Bob's on worker A. Cara blocks Bob (through A): what
    Bob then writes on A, B delivers to Alice's socket but not to Cara's. The operator then
    bans Bob in the store: worker B refuses his next chat (``chat/banned``) and his next
    action on its replica (``online/banned``) on sockets it opened before; a mute likewise
    refuses his chat only."""
    a, b = two_workers
    alice, bob, cara = (a.online.register(name)[0] for name in ("Alice", "Bob", "Cara"))
    lobby, _ = a.create_lobby(
        alice, name="Two workers", players=3, host_house="stark", ai_level="baseline"
    )
    a.take(lobby.id, bob, "lannister")
    a.take(lobby.id, cara, "baratheon")
    on_b: dict[str, list[dict[str, Any]]] = {"alice": [], "cara": []}
    b.connect(Conn(lobby.id, "stark", on_b["alice"].append, alice, board=False))
    b.connect(Conn(lobby.id, "baratheon", on_b["cara"].append, cara, board=False))
    bob_on_a = Conn(lobby.id, "lannister", lambda _: None, bob, board=False)
    a.connect(bob_on_a)
    first = a.chat(bob_on_a, {"text": "first"})
    wait_for(lambda: "first" in _texts(on_b["cara"]), timeout=10)

    a.moderation.block(a.online, cara, lobby.id, first.id)
    a.chat(bob_on_a, {"text": "public"})
    a.chat(bob_on_a, {"text": "raven", "to": "baratheon"})
    a.chat(Conn(lobby.id, "stark", lambda _: None, alice, board=False), {"text": "end"})
    wait_for(lambda: "end" in _texts(on_b["cara"]), timeout=10)
    wait_for(lambda: "end" in _texts(on_b["alice"]), timeout=10)
    print("worker B delivered to Cara:", _texts(on_b["cara"]))
    assert _texts(on_b["cara"]) == ["first", "end"]
    assert _texts(on_b["alice"]) == ["first", "public", "end"]

    a.ready(lobby.id, bob, True)
    a.ready(lobby.id, cara, True)
    lobby = a.start_game(lobby.id, alice)
    assert lobby.game_id is not None
    session, _ = b.session(lobby.game_id)
    bob_on_b = Conn(lobby.id, "lannister", lambda _: None, bob, board=True)
    b.connect(bob_on_b)
    operator = Moderation(a.online.engine)  # the command's own connection to the database
    operator.set_sanction(bob, muted=True)
    with pytest.raises(Muted):
        b.chat(bob_on_b, {"text": "muted"})
    operator.set_sanction(bob, banned=True)
    with pytest.raises(ChatBanned):
        b.chat(bob_on_b, {"text": "banned"})
    view = player_view(session.state, "lannister")
    action = {"type": "action", "id": "x", "action": decide(view), "state_id": session.serial}
    serial = session.serial
    reply = session.handle("lannister", json.dumps(action), bob.id)
    assert (reply["type"], reply["code"]) == ("error", "online/banned")
    assert session.serial == serial
    operator.set_sanction(bob, banned=False, muted=False)
    assert session.handle("lannister", json.dumps(action), bob.id)["type"] == "accepted"
