"""Who may open a seat (RULES.md 0.4.4; app.py's docstring): a seat's view holds its prompt and
what that house alone has seen, so while a game runs the board page and the seat socket open
only a house played by a person — the same rule as a seat's replay (replays.py). Once the game
is over, every seat opens."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import nothing_pending, receive, seat_url
from westeros.engine.flow import random_action
from westeros.server.games import Games
from westeros.session import GameSession

GAME_TIMEOUT_S = 300
REFUSAL = (
    "Lannister is played by the computer: while the game runs, only a house played by a person "
    "can be opened."
)


@pytest.fixture
def game(games: Games) -> GameSession:
    """A 3-player game (2.1: Baratheon, Lannister, Stark): Stark is a person, the two AIs
    have not started, so nothing moves."""
    return games.create(players=3, human="stark", seed=7, start_ai=False)


def finished_game(games: Games) -> GameSession:
    """A 3-player game of random AIs played to its end (9.1, 9.2)."""
    session = games.create(players=3, human=None, seed=5)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not session.over:
        assert time.monotonic() < deadline, "the AI game did not finish"
        time.sleep(0.05)
    return session


def test_0_4_4_board_of_a_computer_seat_is_refused_while_the_game_runs(
    client: TestClient, game: GameSession
) -> None:
    response = client.get(f"/games/{game.game_id}/play/lannister")
    assert response.status_code == 403
    assert response.headers["content-type"].startswith("text/plain")
    assert response.text == REFUSAL
    # The same game's own seat opens, and a computer seat's replay is refused alike.
    assert client.get(f"/games/{game.game_id}/play/stark").status_code == 200
    assert client.get(f"/games/{game.game_id}/replay/lannister").status_code == 403


def test_0_4_4_socket_of_a_computer_seat_is_refused_while_the_game_runs(
    client: TestClient, game: GameSession
) -> None:
    with client.websocket_connect(seat_url(game.game_id, "stark")) as stark:
        first = receive(stark)
        assert (first["type"], first["house"], first["state_id"]) == ("view", "stark", 0)
        with client.websocket_connect(seat_url(game.game_id, "lannister")) as lannister:
            assert receive(lannister) == {
                "type": "error",
                "message": REFUSAL,
                "code": "seat/computer",
                "rule": "",
                "in_reply_to": None,
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                lannister.receive_json()
            assert closed.value.code == 4403
        nothing_pending(stark)  # the refused connection changed nothing for the person
        orders = random_action(game.state, "stark", random.Random(0))  # 4.1-4.3
        stark.send_json({"type": "action", "action": orders.to_json(), "state_id": 0})
        update = receive(stark)
        assert (update["type"], update["state_id"]) == ("view", 1)  # the person's seat plays
        assert update["view"]["waiting_for"] == ["baratheon", "lannister"]


def test_0_4_4_every_seat_opens_once_the_game_is_over(client: TestClient, games: Games) -> None:
    session = finished_game(games)
    for house in session.state.houses:
        assert session.is_ai(house)
        assert client.get(f"/games/{session.game_id}/play/{house}").status_code == 200
        assert client.get(f"/games/{session.game_id}/replay/{house}").status_code == 200
        with client.websocket_connect(seat_url(session.game_id, house)) as ws:
            view = receive(ws)
            assert (view["type"], view["house"], view["history"]) == ("view", house, True)
            assert view["state_id"] == session.serial
            assert receive(ws) == session.game_over_message()


def test_0_4_4_a_running_game_without_people_offers_no_board_or_replay_link(
    games: Games,
) -> None:
    from westeros.server.pages import game_entry

    session = games.create(players=3, human=None, seed=5, start_ai=False)
    entry = game_entry(games.store.game(session.game_id))
    assert entry["url"] is None and entry["replay_url"] is None
    assert entry["export_url"] is None  # its file holds every secret until it is over
