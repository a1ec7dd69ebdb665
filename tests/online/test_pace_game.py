"""A game played by turns on the online server (issue 40 acceptance 1, docs/online-pace.md):
four people on real sockets, a deadline of 2 s per decision (time is configuration). Three of
them answer every decision on their own view; Dan never opens his board. Each time one of
Dan's deadlines passes the AI decides that decision for Greyjoy and the seat stays Dan's;
after three missed deadlines in a row the seat is offered: it shows as open, with its
invite, to a fifth person (Eve) reading the lobby, who takes it through that invite and plays
on; the game finishes."""

from __future__ import annotations

import functools
import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, func, select
from websockets.exceptions import ConnectionClosed

from westeros.store.models import ActionRecord

from .helpers import decide, wait_for
from .seat_helpers import Person, live_online, receive, receive_until, register

DEADLINE_S = 2
MAX_MISSED = 3
HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
ABSENT = "greyjoy"
GAME_S = 900.0
"""How long the whole game may take (the people answer at once; Dan's deadlines add
seconds)."""


class Answering(threading.Thread):
    """A person at their board: answers each decision their seat is asked, on their own view
    (``helpers.decide``), until the game is over or the test ends."""

    def __init__(self, person: Person, game_id: str, house: str) -> None:
        super().__init__(name=f"person-{house}", daemon=True)
        self.person, self.house = person, house
        self.path = f"/ws/games/{game_id}/seats/{house}"
        self.stop = threading.Event()
        self.answered = 0
        self.over = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.person.socket(self.path) as ws:
                self._play(ws)
        except BaseException as exc:  # the test reads it
            self.failure = exc

    def _play(self, ws: Any) -> None:
        acted_on = -1
        while not self.stop.is_set():
            try:
                message = receive(ws, 0.5)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            if message["type"] == "game_over":
                self.over.set()
                return
            if message["type"] != "view" or not message["view"].get("prompt"):
                continue
            if message["state_id"] <= acted_on:
                continue
            acted_on = message["state_id"]
            action = decide(message["view"], seed=message["state_id"])
            ws.send(json.dumps({"type": "action", "action": action, "state_id": acted_on}))
            self.answered += 1


def _actions_by(app: Any, game_id: str, house: str) -> int:
    with Session(app.state.online.store.engine) as db:
        query = (
            select(func.count())
            .select_from(ActionRecord)
            .where(col(ActionRecord.game_id) == game_id, col(ActionRecord.house) == house)
        )
        return int(db.exec(query).one())


def _decided_at_least(app: Any, game_id: str, count: int) -> bool:
    """Has Greyjoy (Dan's seat) decided ``count`` times (the AI, since Dan never plays)?"""
    return _actions_by(app, game_id, ABSENT) >= count


def _seat(roster: dict[str, Any], house: str) -> dict[str, Any]:
    return next(s for s in roster["seats"] if s["house"] == house)


@pytest.fixture
def people(tmp_path: Path) -> Iterator[tuple[Any, dict[str, Person]]]:
    with live_online(tmp_path) as server:
        named = zip(HOUSES, ("Alice", "Bob", "Cara", "Dan"), strict=True)
        yield server, {house: register(server, name) for house, name in named}


def test_a_game_by_turns_goes_on_without_a_person_who_never_plays(
    people: tuple[Any, dict[str, Person]],
) -> None:
    server, seated = people
    host = seated["stark"]
    created = host.post(
        "/api/lobbies",
        {
            "players": 4,
            "name": "By turns",
            "house": "stark",
            "ai_level": "baseline",
            "pace": "by_turns",
            "deadline_seconds": DEADLINE_S,
            "max_missed": MAX_MISSED,
            "after_missed": "offer",
        },
    )
    lobby_id = created["lobby"]["id"]
    assert created["lobby"]["settings"]["pace"]["mode"] == "by_turns"
    for house in HOUSES[1:]:
        token = created["invites"][house].split("#invite=", 1)[1]
        seated[house].post("/api/join", {"invite": token})
        seated[house].post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]

    eve = register(server, "Eve")
    boards = [Answering(seated[h], game_id, h) for h in HOUSES if h != ABSENT]
    for board in boards:
        board.start()
    try:
        with eve.socket(f"/ws/lobbies/{lobby_id}") as table:
            # Each missed deadline: the AI decides for Greyjoy, which stays Dan's.
            for count in range(1, MAX_MISSED):

                def missed(message: dict[str, Any], count: int = count) -> bool:
                    return message["type"] == "roster" and _seat(message, ABSENT)["missed"] >= count

                roster, _ = receive_until(table, missed, timeout=60)
                seat = _seat(roster, ABSENT)
                assert (seat["player"], seat["missed"], seat["offer"]) == ("Dan", count, None)
                wait_for(functools.partial(_decided_at_least, server.app, game_id, count))
                assert server.hub.online.lobby(lobby_id).seat(ABSENT).player_id == seated[ABSENT].id
                print(f"missed deadline {count}: the AI decided, the seat is still Dan's")

            # The last miss in a row offers the seat: open, with an invite anyone may follow.
            roster, _ = receive_until(
                table,
                lambda m: m["type"] == "roster" and bool(_seat(m, ABSENT)["offer"]),
                timeout=60,
            )
            seat = _seat(roster, ABSENT)
            assert seat["player"] is None and seat["ai"] is True
        with urllib.request.urlopen(f"{server.url}/api/lobbies", timeout=10) as reply:
            listed = json.load(reply)["lobbies"]
        shown = next(g for g in listed if g["id"] == lobby_id)
        offered = next(s for s in shown["seats"] if s["house"] == ABSENT)
        assert (offered["open"], offered["player"]) == (True, None)
        # Meanwhile the AI plays the offered seat: beyond the three decisions Dan missed.
        wait_for(functools.partial(_decided_at_least, server.app, game_id, MAX_MISSED + 1))
        before = _actions_by(server.app, game_id, ABSENT)

        token = seat["offer"].split("#invite=", 1)[1]
        joined = eve.post("/api/join", {"invite": token})
        assert joined["house"] == ABSENT
        assert server.hub.online.lobby(lobby_id).seat(ABSENT).player_id == eve.id
        takes_over = Answering(eve, game_id, ABSENT)
        takes_over.start()
        boards.append(takes_over)
        wait_for(lambda: takes_over.answered > 0, timeout=60)
        print(f"Eve took Greyjoy through its invite after {before} decisions of the seat")

        store = server.app.state.online.store
        wait_for(lambda: store.game(game_id).winner is not None, timeout=GAME_S, step=1.0)
        # The lobby is marked finished just after the game's last action is stored (the
        # hub's observer of that action): a moment later, not in the same transaction.
        wait_for(lambda: server.hub.online.lobby(lobby_id).status == "finished", timeout=30)
        print(
            f"the game finished: {store.game(game_id).action_count} actions, "
            f"answered by the people: {[b.answered for b in boards]}"
        )
    finally:
        for board in boards:
            board.stop.set()
        for board in boards:
            board.join(10)
    assert all(b.failure is None for b in boards), [b.failure for b in boards]
