"""Profiles and the leaderboard never link a player to a running anonymous table (issue 40;
docs/online-ui-followups.md): over HTTP, a person kicked from an anonymous table whose game
runs shows no game left (neither listed nor counted) and no history of it on their public
profile, while their own seat checks still count the leave; once the game is over the
profile lists the game left and the finished game with its table's name."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from westeros.online import ratings

from .helpers import Player
from .ratings_helpers import houses

BARATHEON, LANNISTER, STARK = houses(3)
TABLE = "Masked ball"


def _text(page: str) -> str:
    """The page's text without its tags, its spaces squeezed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _anonymous_table(host: Player, guests: list[tuple[Player, str]]) -> dict[str, Any]:
    """A ranked anonymous table of three people started over HTTP, ``host`` in Stark."""
    reply = host.post(
        "/api/lobbies",
        {
            "players": 3,
            "name": TABLE,
            "house": STARK,
            "open_houses": [BARATHEON, LANNISTER, STARK],
            "anonymous": True,
            "ranked": True,
            "grace_seconds": 3600,
        },
    )
    assert reply.status_code == 200, reply.text
    lobby_id = reply.json()["lobby"]["id"]
    for person, house in guests:
        token = reply.json()["invites"][house].split("#invite=", 1)[1]
        assert person.post("/api/join", {"invite": token}).status_code == 200
        assert person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True}).status_code == 200
    started = host.post(f"/api/lobbies/{lobby_id}/start")
    assert started.status_code == 200, started.text
    lobby: dict[str, Any] = started.json()["lobby"]
    return lobby


def test_a_running_anonymous_game_is_on_no_profile_until_it_is_over(
    online_app: Any, player: Callable[[str], Player]
) -> None:
    ana, ben, cai, dee = (player(n) for n in ("Anatole Vance", "Benedict Rowe", "Cassia", "Dee"))
    lobby = _anonymous_table(ana, [(ben, BARATHEON), (cai, LANNISTER)])
    lobby_id, game_id = lobby["id"], lobby["game_id"]
    kicked = ana.post(f"/api/lobbies/{lobby_id}/kick", {"house": BARATHEON})
    assert kicked.status_code == 200, kicked.text

    visitor = TestClient(online_app)  # profiles are public: anyone may read them
    shown = visitor.get(f"/api/players/{ben.id}/profile").json()
    assert shown["left"] == [] and shown["history"] == []
    assert shown["reliability"] == {
        "finished": 0,
        "left": 0,
        "missed_deadlines": 0,
        "percent": None,
    }
    page = visitor.get(f"/players/{ben.id}").text
    assert "Games left 0" in _text(page)
    board = visitor.get("/leaderboard").text + visitor.get("/api/leaderboard").text
    for text in (str(shown), page, board):
        assert TABLE not in text and lobby_id not in text and game_id not in text

    # the leave still counts where only Ben reads it: a table asking for a reliability
    asks = dee.post("/api/lobbies", {"players": 3, "min_reliability": 50}).json()["lobby"]
    refused = ben.post(f"/api/lobbies/{asks['id']}/take", {"house": asks["seats"][1]["house"]})
    assert refused.status_code == 403
    assert refused.json()["code"] == "online/below-reliability"
    assert "yours is 0 %" in refused.json()["message"]

    # the game ends: the hub marks the lobby finished, then records the result (a game
    # recorded while its lobby still reads running stays off the history meanwhile)
    hub = online_app.state.online.hub
    ratings.record_game(hub.online, lobby_id, game_id, [STARK, LANNISTER, BARATHEON])
    assert visitor.get(f"/api/players/{ana.id}/profile").json()["history"] == []
    hub.online.mark_finished(lobby_id)

    after = visitor.get(f"/api/players/{ben.id}/profile").json()
    assert [(g["lobby_id"], g["name"], g["house"]) for g in after["left"]] == [
        (lobby_id, TABLE, BARATHEON)
    ]
    assert after["reliability"]["left"] == 1 and after["reliability"]["percent"] == 0
    assert TABLE in _text(visitor.get(f"/players/{ben.id}").text)
    history = visitor.get(f"/api/players/{ana.id}/profile").json()["history"]
    assert [(g["game_id"], g["name"], g["place"], g["reason"]) for g in history] == [
        (game_id, TABLE, 1, ratings.EMPTY_SEAT)  # Ben's seat was the AI's at the end
    ]


def test_a_deadline_missed_at_a_running_anonymous_table_shows_once_it_is_over(
    online_app: Any, player: Callable[[str], Player]
) -> None:
    """The table's roster shows a seat's misses: the profile counts them only once the names
    show, or the two could be matched."""
    ana, ben, cai = (player(n) for n in ("Anatole Vance", "Benedict Rowe", "Cassia"))
    lobby = _anonymous_table(ana, [(ben, BARATHEON), (cai, LANNISTER)])
    hub = online_app.state.online.hub
    ratings.record_missed_deadline(hub.online, lobby["id"], cai.id)
    visitor = TestClient(online_app)
    shown = visitor.get(f"/api/players/{cai.id}/profile").json()["reliability"]
    assert shown["missed_deadlines"] == 0
    hub.online.mark_finished(lobby["id"])
    after = visitor.get(f"/api/players/{cai.id}/profile").json()["reliability"]
    assert after["missed_deadlines"] == 1
