"""What a worker does between actions (docs/online.md, "Capacity"): its scan reads the lobbies
it needs together, takes or renews every game's AI/clock lease in one call, and its garbage
collector runs full collections on a clock instead of in the middle of a broadcast."""

from __future__ import annotations

import gc
import time
import uuid
import weakref
from typing import Any

from .helpers import start_game
from .live import shared_services


def test_lobbies_read_together_have_each_their_own_seats_and_names(
    online_app: Any, player: Any
) -> None:
    alys, bran, cat = player("Alys"), player("Bran"), player("Cat")
    first = start_game(alys, [(bran, "lannister")], players=3)
    second = start_game(cat, [], players=4, host_house="greyjoy")
    hub = online_app.state.online.hub

    found = hub.lobbies([first["id"], "no-such-lobby", second["id"]])

    assert set(found) == {first["id"], second["id"]}
    one, two = found[first["id"]], found[second["id"]]
    assert sorted(s.house for s in one.seats) == ["baratheon", "lannister", "stark"]
    assert {s.house: s.player_name for s in one.seats if s.player_name} == {
        "stark": "Alys",
        "lannister": "Bran",
    }
    assert sorted(s.house for s in two.seats) == ["baratheon", "greyjoy", "lannister", "stark"]
    assert {s.house: s.player_name for s in two.seats if s.player_name} == {"greyjoy": "Cat"}


def test_a_lobby_changed_behind_a_workers_back_is_read_again_by_its_scan_not_on_the_way(
    online_app: Any, player: Any, monkeypatch: Any
) -> None:
    """A change whose bus message this worker missed (written straight to the store here):
    the worker serves the lobby it has until the lobby's time is up (no read on the way of
    an action), then its seat thread's scan reads it again."""
    from westeros.online import hub as hub_module

    monkeypatch.setattr(hub_module, "LOBBY_TTL", 4.0)
    alys, bran = player("Alys"), player("Bran")
    lobby_id = start_game(alys, [(bran, "lannister")], players=3)["id"]
    hub = online_app.state.online.hub
    hub._forget(lobby_id)
    assert hub.lobby(lobby_id).seat("lannister").clock_left == 0.0

    online_app.state.online.online.set_clock(lobby_id, "lannister", 42.0)

    assert hub.lobby(lobby_id).seat("lannister").clock_left == 0.0
    deadline = time.monotonic() + 10
    while hub.lobby(lobby_id).seat("lannister").clock_left != 42.0:
        assert time.monotonic() < deadline, "the scan never read the lobby again"
        time.sleep(0.1)


def test_a_game_whose_worker_stops_renewing_its_lease_passes_to_another() -> None:
    from westeros.online.bus import RedisBus

    _, redis_url = shared_services()
    prefix = f"upkeep-{uuid.uuid4().hex[:8]}"
    first, second = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
    try:
        games = ["g1", "g2", "g3"]
        assert first.leases(games, 0.5) == set(games)
        assert first.leases(games, 0.5) == set(games)  # renewed by the holder
        assert second.leases([*games, "g4"], 0.5) == {"g4"}  # held elsewhere: only the new one
        assert first.leases([], 0.5) == set()
        time.sleep(0.8)  # the first worker stopped renewing
        assert second.leases(games, 0.5) == set(games)
        assert first.leases(games, 0.5) == set()
    finally:
        first.close()
        second.close()


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_the_worker_collector_frees_old_cycles_on_its_clock_and_is_put_back() -> None:
    from westeros.online.memory import Collector

    before = gc.get_threshold()
    collector = Collector(interval=0.1)
    collector.start()
    try:
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect(1)  # the pair survives the young collections: it is an old object now
        del a, b  # garbage only a full collection finds
        deadline = time.monotonic() + 5
        while gone() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gone() is None, "the clocked full collection never freed the cycle"
        assert collector.full_collections >= 1
    finally:
        collector.close()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
