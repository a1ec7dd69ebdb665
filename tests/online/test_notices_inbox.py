"""The turn-notice inbox the desktop app polls (issue 40; docs/online.md "The desktop app",
docs/protocol.md "Turn-notice inbox"): each decision announced to a person not at their board is
one item of their inbox, read with their key, rendered in the language asked for, with an
absolute play link; of workers and rescans seeing one decision, one writes it; each player keeps
their newest 100 items of the last 14 days."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col

from westeros.online.app import KEY_HEADER
from westeros.online.notices import TurnNotices
from westeros.online.notices.records import INBOX_KEPT, Inboxed, NoticeStore
from westeros.store.models import utcnow
from westeros.store.notices import InboxItem

from .helpers import Player, start_game
from .notices_helpers import announced, next_announced, notice_server, people, take_turn
from .ratings_helpers import houses

BARATHEON, LANNISTER, STARK = houses(3)
ZH_TURN = "轮到你了：“Test table”"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    with notice_server(tmp_path, monkeypatch, {}) as found:
        yield found


@pytest.fixture
def any_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str) -> Iterator[Any]:
    """The server on SQLite, then on PostgreSQL."""
    with notice_server(tmp_path, monkeypatch, {}, database) as found:
        yield found


def inbox(app: Any, person: Player | None, query: str = "") -> Any:
    """``GET /api/notices/inbox`` as the desktop app asks it: the person's key in the header
    (no cookie), the answer's JSON checked to be 200."""
    headers = {KEY_HEADER: person.key} if person is not None else {}
    reply = TestClient(app).get(f"/api/notices/inbox{query}", headers=headers)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_one_item_per_new_decision_with_its_game_house_phase_round_and_play_link(
    app: Any,
) -> None:
    alice = people(app)("Alice")
    lobby = start_game(alice, [], grace_seconds=3600)
    game_id = lobby["game_id"]
    first = next_announced(app, game_id, STARK, None)

    found = inbox(app, alice)
    print("first contact:", found)
    [item] = found["items"]
    assert found["last"] == item["id"] > 0
    assert item == {
        "id": item["id"],
        "game": game_id,
        "lobby": lobby["id"],
        "lobby_name": "Test table",
        "house": STARK,
        "house_name": "Stark",
        "phase": "place_orders",
        "round": 1,
        "title": "Your turn in “Test table”",
        "body": "Stark is asked to decide in “Test table” (round 1): Place your orders.",
        "url": f"http://testserver/games/{game_id}/play/{STARK}",
    }
    assert inbox(app, alice, f"?after={found['last']}") == {"last": found["last"], "items": []}
    assert app.state.notices.wait_idle(30)  # drives go on: the same decision, no new item
    assert inbox(app, alice, f"?after={found['last']}")["items"] == []

    kind = take_turn(alice, game_id, STARK)  # at her board: then the next decision, once
    assert kind == "place_orders"
    next_announced(app, game_id, STARK, first)
    later = inbox(app, alice, f"?after={found['last']}")
    print("after her orders:", later)
    [new] = later["items"]
    assert later["last"] == new["id"] > item["id"]
    assert new["game"] == game_id and new["house"] == STARK and new["phase"] != "place_orders"
    assert new["url"] == item["url"]
    assert [i["id"] for i in inbox(app, alice, "?after=0")["items"]] == [item["id"], new["id"]]
    assert inbox(app, alice, f"?after={later['last']}")["items"] == []


def test_the_items_speak_the_language_asked_for_else_the_player_s(app: Any) -> None:
    make = people(app)
    bo, alice = make("Bo"), make("Alice")
    assert bo.post("/api/notices", {"language": "zh_CN"}).status_code == 200
    game_bo = start_game(bo, [], grace_seconds=3600)["game_id"]
    game_alice = start_game(alice, [], grace_seconds=3600)["game_id"]
    next_announced(app, game_bo, STARK, None)
    next_announced(app, game_alice, STARK, None)

    [chinese] = inbox(app, bo)["items"]  # his notices' language
    print("Bo's item:", chinese)
    assert chinese["title"] == ZH_TURN
    assert chinese["house_name"] == "史塔克"
    assert chinese["body"] == "“Test table”（第 1 回合）等待史塔克做出决定：下达命令。"
    assert inbox(app, bo, "?lang=en")["items"][0]["title"] == "Your turn in “Test table”"
    assert inbox(app, bo, "?lang=xx")["items"][0]["title"] == "Your turn in “Test table”"

    assert inbox(app, alice)["items"][0]["title"] == "Your turn in “Test table”"
    asked = inbox(app, alice, "?lang=zh_CN&after=0")["items"][0]  # the app's language
    assert asked["title"] == ZH_TURN and asked["house_name"] == "史塔克"
    assert asked["phase"] == "place_orders"  # the fields themselves are not translated
    assert inbox(app, alice, "?lang=zh-cn")["items"][0]["title"] == ZH_TURN


def test_a_player_sees_only_their_own_items(app: Any) -> None:
    make = people(app)
    alice, bob, carol = make("Alice"), make("Bob"), make("Carol")
    lobby = start_game(alice, [(bob, LANNISTER)], grace_seconds=3600)
    game_id = lobby["game_id"]
    next_announced(app, game_id, STARK, None)
    next_announced(app, game_id, LANNISTER, None)

    mine, bobs = inbox(app, alice)["items"], inbox(app, bob)["items"]
    assert [(i["game"], i["house"]) for i in mine] == [(game_id, STARK)]
    assert [(i["game"], i["house"]) for i in bobs] == [(game_id, LANNISTER)]
    assert bobs[0]["url"].endswith(f"/games/{game_id}/play/{LANNISTER}")
    assert inbox(app, carol) == {"last": 0, "items": []}  # no seat in the game
    assert inbox(app, carol, "?after=0") == {"last": 0, "items": []}


def test_an_anonymous_table_s_items_name_nobody(app: Any) -> None:
    make = people(app)
    alicent, bronn = make("Alicent Hightower"), make("Bronn Blackwater")
    created = alicent.post(
        "/api/lobbies",
        {
            "players": 3,
            "house": STARK,
            "open_houses": [STARK, LANNISTER],
            "anonymous": True,
            "grace_seconds": 3600,
        },
    ).json()
    lobby_id = created["lobby"]["id"]
    token = created["invites"][LANNISTER].split("#invite=", 1)[1]
    assert bronn.post("/api/join", {"invite": token}).status_code == 200
    assert bronn.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True}).status_code == 200
    game_id = alicent.post(f"/api/lobbies/{lobby_id}/start").json()["lobby"]["game_id"]
    next_announced(app, game_id, STARK, None)
    next_announced(app, game_id, LANNISTER, None)

    told = [inbox(app, alicent), inbox(app, bronn)]
    print("anonymous items:", told)
    assert [len(t["items"]) for t in told] == [1, 1]
    for name in ("Alicent", "Hightower", "Bronn", "Blackwater", "Player of House"):
        assert name not in str(told)


def test_no_key_or_an_unknown_key_is_refused_and_a_bad_after_is_400(app: Any) -> None:
    alice = people(app)("Alice")
    client = TestClient(app)
    for headers in ({}, {KEY_HEADER: "not-a-key-of-this-server"}):
        reply = client.get("/api/notices/inbox", headers=headers)
        assert reply.status_code == 401
        assert reply.json()["code"] == "online/unknown-player"
    assert alice.client.get("/api/notices/inbox").status_code == 200  # the cookie does too
    for bad in ("-1", "x", "1.5", "", " 1", "+1", "1e3", "9" * 40):
        reply = client.get(
            "/api/notices/inbox", params={"after": bad}, headers={KEY_HEADER: alice.key}
        )
        assert reply.status_code == 400, bad
        assert reply.json()["code"] == "online/bad-after", bad


def _worker(app: Any) -> TurnNotices:
    """Another worker's turn notices on the same database (started: its own sender)."""
    mine = app.state.notices
    other = TurnNotices(NoticeStore(mine.store.engine), mine.config, mine.catalogs, {})
    other.start()
    return other


def test_two_workers_and_a_rescan_write_one_item(any_app: Any) -> None:
    app = any_app
    alice = people(app)("Alice")
    game_id = start_game(alice, [], grace_seconds=3600)["game_id"]
    digest = next_announced(app, game_id, STARK, None)
    session, found = app.state.online.hub.session(game_id)
    workers = [_worker(app), _worker(app)]
    try:
        for worker in workers:  # another worker, then one that forgot (a rescan)
            worker.decisions(session, found, set())
            worker.decisions(session, found, set())
        for worker in workers:
            assert worker.wait_idle(30)
    finally:
        for worker in workers:
            worker.close()
    assert app.state.notices.wait_idle(30)
    assert announced(app, game_id, STARK) == digest
    items = inbox(app, alice, "?after=0")["items"]
    print("items after two workers and a rescan:", [(i["id"], i["phase"]) for i in items])
    assert len(items) == 1


def test_a_player_keeps_their_newest_items_of_the_last_two_weeks(any_app: Any) -> None:
    app = any_app
    make = people(app)
    alice, bob = make("Alice"), make("Bob")
    lobby = start_game(alice, [(bob, LANNISTER)], grace_seconds=3600)
    next_announced(app, lobby["game_id"], STARK, None)
    next_announced(app, lobby["game_id"], LANNISTER, None)
    store: NoticeStore = app.state.notices.store

    def entry(player: Player, house: str, round_number: int) -> Inboxed:
        return Inboxed(
            player.id, lobby["game_id"], lobby["id"], "Test table", house, "raid", round_number
        )

    store.add_inbox(entry(alice, STARK, n) for n in range(60))
    store.add_inbox(entry(alice, STARK, n) for n in range(60, 110))
    last, kept = store.inbox(alice.id, 0, limit=1000)
    assert len(kept) == INBOX_KEPT
    assert [k.round for k in kept] == list(range(10, 110))  # the newest, oldest first
    assert last == kept[-1].id
    assert len(store.inbox(bob.id, 0, limit=1000)[1]) == 1  # Bob's own are not touched

    page = inbox(app, alice, f"?after={kept[0].id - 1}")
    assert page["last"] == last
    assert [i["round"] for i in page["items"]] == list(range(10, 60))  # at most 50 a time
    first_contact = inbox(app, alice)["items"]
    assert [i["round"] for i in first_contact] == list(range(100, 110))  # the newest 10

    with Session(store.engine) as session:  # all but the newest five are a day or more old
        old = [k.id for k in kept[:-5]]
        session.exec(
            update(InboxItem)
            .where(col(InboxItem.id).in_(old[:50]))
            .values(created_at=utcnow() - timedelta(days=15))
        )
        session.exec(
            update(InboxItem)
            .where(col(InboxItem.id).in_(old[50:]))
            .values(created_at=utcnow() - timedelta(days=2))
        )
        session.commit()
    assert [i["round"] for i in inbox(app, alice)["items"]] == list(range(105, 110))
    store.add_inbox([entry(alice, STARK, 110)])  # writing drops those of over two weeks
    _, kept = store.inbox(alice.id, 0, limit=1000)
    assert [k.round for k in kept] == list(range(60, 111))
