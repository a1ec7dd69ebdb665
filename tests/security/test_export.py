"""``GET /games/{id}/export`` (issue 14, Why 3): a game file holds every house's unrevealed
orders and the seed, so the next Westeros and wildling cards (RULES.md 0.4.4: hidden
information). While the game runs it is refused, and no page links to it; once the game is
over it is exported whole."""

from __future__ import annotations

import json
import random

from fastapi.testclient import TestClient

from tests.server.test_saves import finished_game
from westeros.engine import pending, random_action
from westeros.server.games import Games


def test_0_4_4_a_running_game_is_not_exported_and_no_page_links_to_it(
    client: TestClient, games: Games
) -> None:
    session = games.create(players=3, human="stark", seed=21, start_ai=False)
    rnd = random.Random(21)
    for house in sorted(pending(session.state)):  # Lannister and Stark have placed orders
        if house != "baratheon":
            session.submit(house, random_action(session.state, house, rnd), session.serial)
    url = f"/games/{session.game_id}/export"
    response = client.get(url)
    assert response.status_code == 403
    assert "once it is over" in response.text
    assert session.state.seed is not None and str(session.state.seed) not in response.text
    for page in ("/", f"/games/{session.game_id}/play/stark", f"/games/{session.game_id}/delete"):
        html = client.get(page)
        assert html.status_code == 200
        assert url not in html.text, page


def test_a_finished_game_is_exported_whole(client: TestClient, games: Games) -> None:
    session = finished_game(games, seed=23)
    response = client.get(f"/games/{session.game_id}/export")
    assert response.status_code == 200
    document = json.loads(response.text)
    assert document["final_hash"] == session.state.hash()
    assert len(document["actions"]) == session.serial
    assert f"/games/{session.game_id}/export" in client.get("/").text
