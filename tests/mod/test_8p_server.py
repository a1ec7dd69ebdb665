"""An 8-player Mother of Dragons game through the local core (RULES.md 11.2.2): the new-game
form with the option creates it for House Targaryen, the board page and its content load with
Essos, and the stored game reloads with Targaryen, the dragons and Essos in play."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import app, client, make_app, store_url  # noqa: F401 (fixtures)
from westeros.saves import open_store


def test_11_2_2_new_8_player_game_starts_on_the_board(client: TestClient, store_url: str) -> None:  # noqa: F811
    form = {
        "players": "8",
        "house": "targaryen",
        "seed": "8",
        "mother_of_dragons": "on",
        "plugin": "westeros_ports",
    }
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.text
    _, _, game_id, play, house = response.headers["location"].split("/")
    assert (play, house) == ("play", "targaryen")
    info = open_store(store_url).game(game_id)
    assert info.setup.players == 8

    assert client.get(response.headers["location"]).status_code == 200
    content = client.get(f"/games/{game_id}/content.json").json()
    assert content["areas"]["pentos"]["home_of"] == "targaryen"
    assert content["houses"]["targaryen"]["home"] == "pentos"

    reloaded = open_store(store_url).load_game(game_id).state
    assert "targaryen" in reloaded.houses
    assert reloaded.blocked == frozenset()
    assert sum(u.type == "dragon" for us in reloaded.units.values() for u in us) == 3
