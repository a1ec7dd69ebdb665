"""Table voice across two workers (issue 39 acceptance 3; docs/online.md "Table voice"): two
hubs share one SQLite file and one Redis database, as two ``westeros server`` workers would.
The room is one record in Redis, so both workers' sockets see the same members; a signal for a
member whose socket the other worker holds goes over the bus; a seat changed through one
worker closes the voice of the socket the other worker holds, and from that moment no signal
from that socket, nor to its old peer, is relayed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from westeros.online.errors import NotYourSeat
from westeros.online.hub import Conn, OnlineHub
from westeros.online.voice import UnknownPeer
from westeros.saves import open_store

from .helpers import wait_for
from .seat_helpers import redis_or_skip, two_hubs

OFFER = {"sdp": {"type": "offer", "sdp": "v=0"}}


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    url = redis_or_skip()
    store = open_store(f"sqlite:///{tmp_path / 'voice.db'}")
    with two_hubs(store, url, "voice") as hubs:
        yield hubs
    store.close()


def _voice(got: list[dict[str, Any]], op: str) -> list[dict[str, Any]]:
    return [m for m in got if m.get("type") == "voice" and m.get("op") == op]


def test_voice_spans_two_workers_and_a_seat_change_on_one_closes_it_on_the_other(
    two_workers: tuple[OnlineHub, OnlineHub],
) -> None:
    """Hal (Stark) and Cat (Baratheon) have their board sockets on worker A, Bob (Lannister)
    on worker B. All three join; Hal's offer to Bob crosses to B and Bob's answer back to A.
    The host kicks Bob through A: at once B's check of the stored seats refuses Bob's next
    signal (online/not-your-seat), Bob's socket is told closed/kicked, A's sockets get a state
    without his peer, and an offer to his old peer is refused voice/unknown-peer."""
    a, b = two_workers
    host, bob, cat = (a.online.register(name)[0] for name in ("Hal", "Bob", "Cat"))
    lobby, _ = a.create_lobby(host, name="Voice", players=3, host_house="stark")
    a.take(lobby.id, bob, "lannister")
    a.take(lobby.id, cat, "baratheon")
    for person in (bob, cat):
        a.ready(lobby.id, person, True)
    lobby = a.start_game(lobby.id, host)
    got: dict[str, list[dict[str, Any]]] = {"stark": [], "lannister": [], "baratheon": []}
    hal_c = Conn(lobby.id, "stark", got["stark"].append, host, board=True)
    bob_c = Conn(lobby.id, "lannister", got["lannister"].append, bob, board=True)
    cat_c = Conn(lobby.id, "baratheon", got["baratheon"].append, cat, board=True)
    a.connect(hal_c), b.connect(bob_c), a.connect(cat_c)
    a.voice.handle(hal_c, {"op": "join"})
    b.voice.handle(bob_c, {"op": "join"})
    a.voice.handle(cat_c, {"op": "join"})
    assert hal_c.voice and bob_c.voice and cat_c.voice
    wait_for(lambda: any(len(s["members"]) == 3 for s in _voice(got["lannister"], "state")), 10)
    wait_for(lambda: any(len(s["members"]) == 3 for s in _voice(got["stark"], "state")), 10)

    a.voice.handle(hal_c, {"op": "signal", "to": bob_c.voice, "data": OFFER})
    crossed = wait_for(lambda: _voice(got["lannister"], "signal"), 10)
    assert crossed[0]["from"] == hal_c.voice
    b.voice.handle(bob_c, {"op": "signal", "to": hal_c.voice, "data": OFFER})
    assert wait_for(lambda: _voice(got["stark"], "signal"), 10)[0]["from"] == bob_c.voice

    bob_peer = bob_c.voice
    a.kick(lobby.id, host, "lannister")
    with pytest.raises(NotYourSeat):
        b.voice.handle(bob_c, {"op": "signal", "to": hal_c.voice, "data": OFFER})
    told = wait_for(lambda: _voice(got["lannister"], "closed"), 10)
    assert told == [{"type": "voice", "op": "closed", "reason": "kicked"}]
    assert bob_c.voice is None
    last = _voice(got["stark"], "state")[-1]
    assert bob_peer not in last["members"] and len(last["members"]) == 2
    with pytest.raises(UnknownPeer):
        a.voice.handle(cat_c, {"op": "signal", "to": bob_peer, "data": OFFER})
    signals_to_bob = len(_voice(got["lannister"], "signal"))
    assert signals_to_bob == 1
