"""The local core refuses requests without the launch token and requests with a foreign Host
header or Origin (DESIGN §4: no cross-site or DNS-rebinding access)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import BASE, COOKIE, PORT, TOKEN, WS_BASE, receive
from westeros.server.security import POLICY_VIOLATION

SEAT = "/ws/games/some-game/seats/stark"


@pytest.fixture
def anonymous(app: FastAPI) -> TestClient:
    """A client without the token cookie."""
    return TestClient(app, base_url=BASE, follow_redirects=False)


def test_request_without_token_is_refused(anonymous: TestClient) -> None:
    response = anonymous.get("/")
    assert response.status_code == 403
    assert "set-cookie" not in response.headers


def test_request_with_wrong_token_is_refused(anonymous: TestClient) -> None:
    assert anonymous.get("/", params={"token": "not-" + TOKEN}).status_code == 403
    anonymous.cookies.set(COOKIE, TOKEN[:-1])
    assert anonymous.get("/").status_code == 403


def test_static_files_and_catalogs_need_the_token_too(anonymous: TestClient) -> None:
    assert anonymous.get("/static/map/westeros.svg").status_code == 403
    assert anonymous.get("/i18n/en.json").status_code == 403
    assert anonymous.post("/games", data={"players": "3"}).status_code == 403


def test_query_token_sets_a_strict_http_only_cookie(anonymous: TestClient) -> None:
    response = anonymous.get("/", params={"token": TOKEN})
    assert response.status_code == 303
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN};")
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "samesite=strict", "path=/"} <= attributes


def test_cookie_alone_is_enough_after_the_first_load(anonymous: TestClient) -> None:
    anonymous.get("/", params={"token": TOKEN})
    assert anonymous.cookies.get(COOKIE) == TOKEN
    assert anonymous.get("/").status_code == 200
    assert anonymous.get("/static/map/westeros.svg").status_code == 200


def test_foreign_host_header_is_refused_even_with_the_token(anonymous: TestClient) -> None:
    for host in ("evil.example", f"evil.example:{PORT}", f"127.0.0.1.evil.example:{PORT}"):
        response = anonymous.get("/", params={"token": TOKEN}, headers={"host": host})
        assert response.status_code == 400, host
        assert "set-cookie" not in response.headers


def test_host_with_another_port_is_refused(anonymous: TestClient) -> None:
    response = anonymous.get("/", params={"token": TOKEN}, headers={"host": "127.0.0.1:9"})
    assert response.status_code == 400


def test_localhost_names_are_accepted(anonymous: TestClient) -> None:
    for host in (f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LOCALHOST:{PORT}", f"[::1]:{PORT}"):
        response = anonymous.get("/", params={"token": TOKEN}, headers={"host": host})
        assert response.status_code == 303, host


def test_cross_site_form_post_is_refused(anonymous: TestClient) -> None:
    anonymous.cookies.set(COOKIE, TOKEN)
    response = anonymous.post(
        "/games", data={"players": "3"}, headers={"origin": "https://evil.example"}
    )
    assert response.status_code == 403


def test_websocket_without_token_is_refused(anonymous: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        anonymous.websocket_connect(WS_BASE + SEAT),
    ):
        pass
    assert refused.value.code == POLICY_VIOLATION


def test_websocket_with_foreign_host_is_refused(anonymous: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        anonymous.websocket_connect(
            f"{WS_BASE}{SEAT}?token={TOKEN}", headers={"host": f"evil.example:{PORT}"}
        ),
    ):
        pass
    assert refused.value.code == POLICY_VIOLATION


def test_websocket_from_a_foreign_origin_is_refused(anonymous: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        anonymous.websocket_connect(
            f"{WS_BASE}{SEAT}?token={TOKEN}", headers={"origin": "https://evil.example"}
        ),
    ):
        pass
    assert refused.value.code == POLICY_VIOLATION


def test_websocket_with_token_and_own_origin_is_accepted(anonymous: TestClient) -> None:
    with anonymous.websocket_connect(
        f"{WS_BASE}{SEAT}?token={TOKEN}", headers={"origin": BASE}
    ) as ws:
        # Accepted; the game does not exist, which the seat is told in words.
        assert receive(ws)["code"] == "game/not-found"
