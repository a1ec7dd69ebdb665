"""The player's board preferences (issue 13.7): volume, mute, desktop notifications and the AI's
pace, kept by the local core across restarts, checked field by field (a bad change is refused
with the reason and changes nothing), and the AI seats pausing as the chosen pace says."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from westeros.engine.flow import pending
from westeros.server.games import Games

from .conftest import BASE, COOKIE, TOKEN

DEFAULTS = {"volume": 70, "muted": False, "notifications": True, "ai_pace": None}
SETTLE_TIMEOUT_S = 60.0


def opened(app: FastAPI) -> TestClient:
    """A client of ``app`` holding the launch token cookie (use it in a ``with``)."""
    client = TestClient(app, base_url=BASE, follow_redirects=False)
    client.cookies.set(COOKIE, TOKEN)
    return client


def test_preferences_start_at_their_defaults(client: TestClient) -> None:
    response = client.get("/settings.json")
    assert response.status_code == 200
    assert response.json() == DEFAULTS


def test_a_change_is_kept_and_only_touches_the_fields_sent(client: TestClient) -> None:
    response = client.put("/settings.json", json={"volume": 35, "muted": True})
    assert response.status_code == 200
    assert response.json() == {**DEFAULTS, "volume": 35, "muted": True}
    client.put("/settings.json", json={"ai_pace": "slow", "notifications": False})
    assert client.get("/settings.json").json() == {
        "volume": 35,
        "muted": True,
        "notifications": False,
        "ai_pace": "slow",
    }


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"volume": 101}, "volume must be a whole number from 0 to 100"),
        ({"volume": -1}, "volume must be a whole number from 0 to 100"),
        ({"volume": 50.5}, "volume must be a whole number from 0 to 100"),
        ({"volume": "50"}, "volume must be a whole number from 0 to 100"),
        ({"volume": True}, "volume must be a whole number from 0 to 100"),
        ({"muted": "yes"}, "muted must be true or false"),
        ({"notifications": 1}, "notifications must be true or false"),
        ({"ai_pace": "fast"}, "ai_pace must be one of instant, normal, slow"),
        ({"ai_pace": None}, "ai_pace must be one of instant, normal, slow"),
        ({"theme": "dark"}, "unknown setting 'theme'"),
        ({"volume": 10, "ai_pace": "ludicrous"}, "ai_pace must be one of"),
        ({}, "send a JSON object with at least one setting"),
        ([["volume", 10]], "send a JSON object with at least one setting"),
    ],
)
def test_a_bad_change_is_refused_with_its_reason_and_changes_nothing(
    client: TestClient, change: Any, reason: str
) -> None:
    client.put("/settings.json", json={"volume": 20, "ai_pace": "normal"})
    before = client.get("/settings.json").json()
    response = client.put("/settings.json", json=change)
    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert client.get("/settings.json").json() == before


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.put(
        "/settings.json", content=b"volume=10", headers={"content-type": "text/plain"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "the body must be a JSON object"
    assert client.get("/settings.json").json() == DEFAULTS


def test_another_site_cannot_change_the_preferences(client: TestClient) -> None:
    response = client.put(
        "/settings.json", json={"muted": True}, headers={"origin": "http://evil.example"}
    )
    assert response.status_code == 403
    assert client.get("/settings.json").json()["muted"] is False


def test_quick_changes_to_different_fields_are_all_kept(
    client: TestClient, games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four clicks in the panel in quick succession (each saves one field) while the disk is
    slow: none of them undoes another."""
    store_setting = games.store.set_setting

    def slow_disk(key: str, value: Any) -> None:
        time.sleep(0.2)
        store_setting(key, value)

    monkeypatch.setattr(games.store, "set_setting", slow_disk)
    changes = [{"volume": 25}, {"muted": True}, {"notifications": False}, {"ai_pace": "slow"}]
    with ThreadPoolExecutor(len(changes)) as clicks:
        answers = list(clicks.map(lambda c: client.put("/settings.json", json=c), changes))
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200]
    assert client.get("/settings.json").json() == {
        "volume": 25,
        "muted": True,
        "notifications": False,
        "ai_pace": "slow",
    }


def test_preferences_survive_a_restart_of_the_core(make_app: Callable[..., FastAPI]) -> None:
    with opened(make_app()) as client:
        client.put("/settings.json", json={"volume": 5, "muted": True, "ai_pace": "instant"})
    with opened(make_app()) as client:  # a new core on the same database
        assert client.get("/settings.json").json() == {
            "volume": 5,
            "muted": True,
            "notifications": True,
            "ai_pace": "instant",
        }


def ai_orders_in_order(games: Games, caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """Start a 3-player game (Stark a person), let the two AI seats place their orders (4.1)
    and return, in order, each AI pause announced ("waits 1.50 s") and each AI action."""
    seen: list[tuple[str, str]] = []
    caplog.set_level(logging.DEBUG, logger="westeros.server.ai")
    session = games.create(players=3, human="stark", seed=3, start_ai=False)
    session.observe(lambda accepted: seen.append(("acted", accepted.house)))

    class Pauses(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(("paused", record.getMessage()))

    handler = Pauses(logging.DEBUG)
    logging.getLogger("westeros.server.ai").addHandler(handler)
    try:
        games.start_ai(session.game_id)
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while list(pending(session.state)) != ["stark"]:
            assert time.monotonic() < deadline, "the AI seats did not place their orders"
            time.sleep(0.05)
    finally:
        logging.getLogger("westeros.server.ai").removeHandler(handler)
    return seen


def test_slow_ai_pace_pauses_before_every_ai_decision(
    client: TestClient, games: Games, caplog: pytest.LogCaptureFixture
) -> None:
    assert client.put("/settings.json", json={"ai_pace": "slow"}).status_code == 200
    seen = ai_orders_in_order(games, caplog)
    game_id = games.loaded()[0].game_id
    assert seen == [
        ("paused", f"AI baratheon of game {game_id} waits 1.50 s"),
        ("acted", "baratheon"),
        ("paused", f"AI lannister of game {game_id} waits 1.50 s"),
        ("acted", "lannister"),
    ]


def test_without_a_chosen_pace_the_launch_pause_applies(
    games: Games, caplog: pytest.LogCaptureFixture
) -> None:
    """The tests' core is launched with no pause: the AI decides at once."""
    assert ai_orders_in_order(games, caplog) == [("acted", "baratheon"), ("acted", "lannister")]


def test_instant_pace_overrides_a_paced_launch(
    make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app(ai_delay=0.4)
    with opened(app) as client:
        client.put("/settings.json", json={"ai_pace": "instant"})
        seen = ai_orders_in_order(app.state.games, caplog)
    assert seen == [("acted", "baratheon"), ("acted", "lannister")]
