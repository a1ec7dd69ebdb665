"""A 7-player Mother of Dragons game through the local core (RULES.md 11.2.1): the new-game
form with the option creates it, the board page and its content load with the 7-player board,
and a game of fewer players with the option is refused with the reason."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import app, client, make_app, store_url  # noqa: F401 (fixtures)
from westeros.saves import open_store


def test_11_2_1_new_7_player_game_starts_on_the_board(client: TestClient, store_url: str) -> None:  # noqa: F811
    form = {
        "players": "7",
        "house": "arryn",
        "seed": "5",
        "mother_of_dragons": "on",
        "plugin": "westeros_ports",  # the 7-player board has a port (11.1)
    }
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.text
    _, _, game_id, play, house = response.headers["location"].split("/")
    assert (play, house) == ("play", "arryn")
    info = open_store(store_url).game(game_id)
    assert info.setup.players == 7
    assert info.setup.options["mother_of_dragons"] is True
    assert "westeros_mother_of_dragons" in [name for name, _ in info.setup.plugins]

    assert client.get(response.headers["location"]).status_code == 200
    content = client.get(f"/games/{game_id}/content.json").json()
    assert content["areas"]["the-bite"]["name"] == "The Bite"
    assert content["areas"]["the-eyrie"]["home_of"] == "arryn"
    assert content["houses"]["arryn"]["home"] == "the-eyrie"

    reloaded = open_store(store_url).load_game(game_id).state  # rebuilt from the stored log
    assert reloaded.houses == tuple(info.setup.seats[i].house for i in range(7))
    assert reloaded.rules.areas["the-eyrie"].home_of == "arryn"
    assert "the-bite" in reloaded.rules.adjacency["white-harbor"]


def test_11_2_5_mother_of_dragons_with_4_players_is_refused(client: TestClient) -> None:  # noqa: F811
    form = {"players": "4", "mother_of_dragons": "on", "plugin": "westeros_ports"}
    response = client.post("/games", data=form)
    assert response.status_code == 400
    assert "vassals" in response.text
