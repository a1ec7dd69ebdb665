"""Profiles, the leaderboard and the minimum reliability over HTTP (issue 40,
docs/online-ratings.md): a player's page and JSON show their rating, reliability and games,
in English and in Chinese; the leaderboard lists the rated players best first; a lobby's
``ranked`` and ``min_reliability`` settings are checked, and a seat of a table that asks for a
reliability is refused ``online/below-reliability`` to who falls short, given to who meets it.
The games are started through the server's hub and recorded with the standings the engine
would give (the seats' people stay at the table, so nothing moves meanwhile)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from westeros.online import ratings
from westeros.online.records import PlayerInfo

from .helpers import Player
from .ratings_helpers import houses, table

BARATHEON, LANNISTER, STARK = houses(3)


def _info(person: Player) -> PlayerInfo:
    return PlayerInfo(person.id, person.name)


def _text(page: str) -> str:
    """The page's text without its tags, its spaces squeezed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _season(online_app: Any, player: Callable[[str], Player]) -> dict[str, Player]:
    """Ana wins a ranked game against Ben and Cai and plays an unranked one; Ben is kicked
    from a running game; Dee misses a deadline."""
    folk = {name: player(name) for name in ("Ana", "Ben", "Cai", "Dee")}
    hub = online_app.state.online.hub
    ana, ben, cai, dee = (_info(p) for p in folk.values())
    won = table(hub, [ana, ben, cai])
    ratings.record_game(hub.online, won.id, won.game_id or "", [BARATHEON, STARK, LANNISTER])
    friendly = table(hub, [ana, cai, ben], ranked=False)
    ratings.record_game(hub.online, friendly.id, friendly.game_id or "", [STARK, BARATHEON])
    sent_away = table(hub, [cai, ben, dee])
    hub.kick(sent_away.id, cai, LANNISTER)
    ratings.record_missed_deadline(hub.online, sent_away.id, dee.id)
    return folk


def test_a_profile_shows_rating_reliability_and_games_in_english_and_chinese(
    online_app: Any, player: Callable[[str], Player]
) -> None:
    folk = _season(online_app, player)
    ana, ben = folk["Ana"], folk["Ben"]
    visitor = TestClient(online_app)  # profiles are public
    data = visitor.get(f"/api/players/{ana.id}/profile").json()
    stored = ratings.profile(online_app.state.online.online, ana.id).rating
    assert stored is not None
    assert data["player"] == {"id": ana.id, "name": "Ana"}
    assert data["rating"] == dict(mu=stored.mu, sigma=stored.sigma, ordinal=stored.ordinal, games=1)
    assert data["reliability"] == {"finished": 2, "left": 0, "missed_deadlines": 0, "percent": 100}
    assert [(g["ranked"], g["reason"], g["place"]) for g in data["history"]] == [
        (False, "unranked", 2),
        (True, "", 1),
    ]
    page = visitor.get(f"/players/{ana.id}?lang=en")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = _text(page.text)
    print(text[:600])
    for shown in (
        "Rating",
        f"Rating {stored.ordinal:.1f}",
        "Reliability 100 %",
        "Games finished 2",
        "Games left 0",
        "1 of 3",
        "Unranked",
        "Ana's table",
        "Baratheon",
    ):
        assert shown in text, shown
    assert f'href="/games/{data["history"][1]["game_id"]}/replay"' in page.text
    chinese = _text(visitor.get(f"/players/{ana.id}?lang=zh_CN").text)
    print(chinese[:400])
    for shown in (
        "等级分",
        "可靠度 100 %",
        "完成的对局 2",
        "第 1 名（共 3 人）",
        "不计排位",
        "拜拉席恩",
    ):
        assert shown in chinese, shown
    shaky = _text(visitor.get(f"/players/{ben.id}").text)
    assert "Reliability 66 %" in shaky and "Games left 1" in shaky
    missed = visitor.get(f"/api/players/{folk['Dee'].id}/profile").json()["reliability"]
    assert missed == {"finished": 0, "left": 0, "missed_deadlines": 1, "percent": None}
    for path in ("/players/nobody", "/api/players/nobody/profile"):
        unknown = visitor.get(path)
        assert (unknown.status_code, unknown.json()["code"]) == (404, "online/not-found")


def test_the_leaderboard_lists_rated_players_best_first(
    online_app: Any, player: Callable[[str], Player]
) -> None:
    folk = _season(online_app, player)
    visitor = TestClient(online_app)
    board = visitor.get("/api/leaderboard").json()["players"]
    assert [(p["place"], p["name"]) for p in board] == [(1, "Ana"), (2, "Cai"), (3, "Ben")]
    assert [p["rating"]["ordinal"] for p in board] == sorted(
        (p["rating"]["ordinal"] for p in board), reverse=True
    )
    assert board[2]["reliability"]["percent"] == 66 and "Dee" not in {p["name"] for p in board}
    page = visitor.get("/leaderboard")
    text = _text(page.text)
    print(text[:500])
    assert page.status_code == 200 and f'href="/players/{folk["Ana"].id}"' in page.text
    assert f"1 Ana {board[0]['rating']['ordinal']:.1f} 1 100 %" in text
    chinese = _text(visitor.get("/leaderboard?lang=zh_CN").text)
    assert "排行榜" in chinese and "可靠度" in chinese and "玩家" in chinese


def test_lobby_settings_ranked_and_min_reliability_are_checked(
    player: Callable[[str], Player],
) -> None:
    host = player("Host")
    for wrong in ({"ranked": "yes"}, {"min_reliability": 101}, {"min_reliability": -1}):
        refused = host.post("/api/lobbies", {"players": 3, **wrong})
        print(refused.json()["message"])
        assert (refused.status_code, refused.json()["code"]) == (422, "online/bad-setting")
    made = host.post("/api/lobbies", {"players": 3, "ranked": True, "min_reliability": 60})
    assert made.status_code == 200, made.text
    settings = made.json()["lobby"]["settings"]
    assert (settings["ranked"], settings["min_reliability"]) == (True, 60)
    plain = host.post("/api/lobbies", {"players": 3}).json()["lobby"]["settings"]
    assert (plain["ranked"], plain["min_reliability"]) == (False, 0)


def test_a_table_s_minimum_reliability_refuses_a_seat_over_http_and_gives_it_to_who_meets_it(
    online_app: Any, player: Callable[[str], Player]
) -> None:
    folk = _season(online_app, player)  # Ana 100 %, Ben 66 %, Eve: no game yet
    eve = player("Eve")
    made = folk["Dee"].post(
        "/api/lobbies", {"players": 3, "house": BARATHEON, "min_reliability": 70}
    )
    lobby_id, invites = made.json()["lobby"]["id"], made.json()["invites"]
    for person in (folk["Ben"], eve):
        took = person.post(f"/api/lobbies/{lobby_id}/take", {"house": LANNISTER})
        joined = person.post("/api/join", {"invite": invites[STARK].split("#invite=", 1)[1]})
        for refused in (took, joined):
            print(person.name, refused.status_code, refused.json())
            assert (refused.status_code, refused.json()["code"]) == (
                403,
                "online/below-reliability",
            )
    took = folk["Ana"].post(f"/api/lobbies/{lobby_id}/take", {"house": LANNISTER})
    assert took.status_code == 200 and took.json()["you"]["house"] == LANNISTER
