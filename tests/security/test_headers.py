"""Every page of the local core sends a Content-Security-Policy (only its own scripts, styles,
images and sockets; no framing), X-Frame-Options, a Referrer-Policy and ``nosniff``; the
launch token leaves the address once it is exchanged for the cookie, whose name is unique per
core (issue 14, Why 3: a page on another local port framed the start screen; a second core
overwrote the first one's cookie)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.server.conftest import BASE, COOKIE, PORT, TOKEN
from westeros.server import create_app
from westeros.server.games import Games


def policy(response: object) -> dict[str, str]:
    """The CSP's directives: {name: sources}."""
    header = response.headers["content-security-policy"]  # type: ignore[attr-defined]
    parts = (p.strip().split(" ", 1) for p in header.split(";") if p.strip())
    return {p[0]: (p[1] if len(p) > 1 else "") for p in parts}


def test_every_page_and_file_sends_the_security_headers(client: TestClient, games: Games) -> None:
    session = games.create(players=3, human="stark", seed=3, start_ai=False)
    game = session.game_id
    anonymous = TestClient(client.app, base_url=BASE)
    responses = [
        client.get("/"),
        client.get(f"/games/{game}/play/stark"),
        client.get(f"/games/{game}/replay/stark"),
        client.get(f"/games/{game}/delete"),
        client.get(f"/games/{game}/export"),  # refused while it runs: still a response
        client.get("/static/js/board.js"),
        client.get("/map.css"),
        client.get("/no-such-page"),
        anonymous.get("/"),  # refused without the token
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 403, 200, 200, 404, 403]
    for response in responses:
        directives = policy(response)
        assert directives["default-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert "'unsafe-inline'" not in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "same-origin"
        assert response.headers["x-content-type-options"] == "nosniff"


def test_the_token_leaves_the_address_once_the_cookie_is_set(app: FastAPI) -> None:
    with TestClient(app, base_url=BASE, follow_redirects=False) as browser:
        first = browser.get("/games/x/play/stark", params={"token": TOKEN, "lang": "de"})
        assert first.status_code == 303
        assert first.headers["location"] == "/games/x/play/stark?lang=de"
        assert TOKEN not in first.headers["location"]
        assert browser.cookies.get(COOKIE) == TOKEN
        start = browser.get("/", params={"token": TOKEN})
        assert (start.status_code, start.headers["location"]) == (303, "/")
        assert browser.get("/").status_code == 200  # the cookie alone


def test_two_cores_on_two_ports_keep_their_own_cookies(store_url: str) -> None:
    """One browser (one cookie jar: cookies do not tell ports apart) logs in to two cores;
    each still knows it afterwards."""
    second, second_port = "second-core-token-0123456789", PORT + 1
    first_app = create_app(token=TOKEN, store_url=store_url, port=PORT)
    second_app = create_app(token=second, store_url=store_url, port=second_port)
    with (
        TestClient(first_app, base_url=BASE, follow_redirects=False) as one,
        TestClient(second_app, base_url=f"http://127.0.0.1:{second_port}") as two,
    ):
        two.follow_redirects = False
        two.cookies = one.cookies  # the same jar
        assert one.get("/", params={"token": TOKEN}).status_code == 303
        assert two.get("/", params={"token": second}).status_code == 303
        assert (one.get("/").status_code, two.get("/").status_code) == (200, 200)
