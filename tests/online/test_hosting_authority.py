"""Issue 35 findings 6 (H1) and 7 (M9): a game hosted from the app has one authority, the
online server. The host's own local core serves no seat of it — not the board page, not the
seat socket, not the deals — so no guest's secret (their unrevealed orders) leaks to the host
and no action for a guest's seat is stored behind the online server's back. The hosting
listener answers only to the addresses it listens on (no DNS rebinding) and gives an open
seat only to its invite link."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .helpers import decide
from .hosting_helpers import HostedGame, host, lobby_seats, local_core, start
from .live import free_port, post_json


def _guest_socket(game: HostedGame) -> Any:
    """The guest's seat socket on the online server (their key in the header)."""
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{game.base.rsplit(':', 1)[1]}/ws/games/{game.game_id}/seats/"
    return connect(url + game.guest_house, additional_headers={"x-westeros-key": game.guest_key})


def _online_view(game: HostedGame) -> dict[str, Any]:
    """The view the online server sends the guest when they connect."""
    with _guest_socket(game) as ws:
        view: dict[str, Any] = json.loads(ws.recv(timeout=30))
    assert view["type"] == "view", view
    return view


def _play_orders_online(game: HostedGame) -> dict[str, Any]:
    """The guest places their orders through the online server; their view afterwards
    (it holds their own unrevealed orders: ``take_back``)."""
    with _guest_socket(game) as ws:
        view = json.loads(ws.recv(timeout=30))
        assert view["type"] == "view", view
        action = {"type": "action", "action": decide(view["view"]), "state_id": view["state_id"]}
        ws.send(json.dumps(action))
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "view" and message["view"].get("take_back"):
                return dict(message)
            assert message["type"] != "error", message


@pytest.fixture
def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Any]]:
    """A running hosted game in which the guest has placed orders (not yet revealed)."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    with local_core(tmp_path / "host.db") as core:
        game = start(host(core, free_port()))
        own = _play_orders_online(game)
        assert own["view"]["take_back"]  # the secret a local socket must never hand out
        yield core, game


def _actions(core: TestClient, game_id: str) -> int:
    return int(core.app.state.core.store.game(game_id).action_count)  # type: ignore[attr-defined]


def test_the_local_seat_socket_never_sends_a_hosted_game_s_guest_view_finding_6(
    hosted: tuple[TestClient, HostedGame],
) -> None:
    """Issue 35 finding 6 (H1): with the launch token, the local core's
    ``/ws/games/{game}/seats/{guest}`` sent the guest's view with their unrevealed orders
    (``take_back.commitment``). Now every seat of a hosted game — the host's own too, which
    the host plays through the online server — is refused (``seat/online``, close 4403)
    before any view, and no local session of the game is ever loaded."""
    core, game = hosted
    for house in (game.guest_house, game.host_house):
        url = f"ws://127.0.0.1/ws/games/{game.game_id}/seats/{house}"
        with core.websocket_connect(url) as ws:
            first = ws.receive_json()
            assert "take_back" not in json.dumps(first), (house, first)
            assert first["type"] == "error" and first["code"] == "seat/online", first
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4403, house
    assert core.app.state.games.loaded() == []  # type: ignore[attr-defined]


def test_a_replacement_order_for_a_guest_sent_to_the_local_core_is_never_stored_finding_6(
    hosted: tuple[TestClient, HostedGame],
) -> None:
    """Issue 35 finding 6 (H1): a replacement ``place_orders`` for the guest's seat sent to
    the host's local core was accepted and stored there, and the online copy then fell
    behind ("stale-state"). Now the local socket takes nothing for a hosted game: the stored
    game keeps its actions, and the guest plays on through the online server."""
    core, game = hosted
    before = _actions(core, game.game_id)
    online_before = _online_view(game)
    with core.websocket_connect(
        f"ws://127.0.0.1/ws/games/{game.game_id}/seats/{game.guest_house}"
    ) as ws:
        first = ws.receive_json()
        assert first["type"] == "error" and first["code"] == "seat/online", first
        replacement = {"type": "action", "action": {"type": "place_orders"}, "state_id": 1}
        with contextlib.suppress(WebSocketDisconnect):
            ws.send_json(replacement)
    assert _actions(core, game.game_id) == before
    after = _online_view(game)  # the online server still serves the guest, in step
    assert after["state_id"] == online_before["state_id"]
    assert after["view"]["take_back"] == online_before["view"]["take_back"]


def test_the_local_board_page_shows_no_seat_of_a_hosted_game_finding_6(
    hosted: tuple[TestClient, HostedGame],
) -> None:
    """Issue 35 finding 6 (H1): ``GET /games/{id}/play/{guest}`` answered 200 with the
    guest's board on the host's local core. Now another seat is refused (403, a page without
    the board that leads to the hosted game's page); the host's own seat leads to that page
    (resume hosting, open the seat through the online server); the game's content is not
    served locally either."""
    core, game = hosted
    page = core.get(f"/games/{game.game_id}/play/{game.guest_house}", follow_redirects=False)
    assert page.status_code == 403
    assert 'data-testid="seat-refused"' in page.text
    assert "board.js" not in page.text and "map-svg" not in page.text
    assert f'href="/online/host/lobbies/{game.lobby_id}"' in page.text
    own = core.get(f"/games/{game.game_id}/play/{game.host_house}", follow_redirects=False)
    assert own.status_code == 303
    assert own.headers["location"] == f"/online/host/lobbies/{game.lobby_id}"
    assert core.get(f"/games/{game.game_id}/content.json").status_code == 403
    assert core.app.state.games.loaded() == []  # type: ignore[attr-defined]


def test_the_local_deals_routes_refuse_every_seat_of_a_hosted_game_finding_6(
    hosted: tuple[TestClient, HostedGame],
) -> None:
    """Issue 35 finding 6 (H1): the local core's deals routes served a hosted game's seats
    (``routes/deals.py``). Now each is 403 ``seat/online`` and nothing is proposed."""
    core, game = hosted
    base = f"/games/{game.game_id}/deals"
    for house in (game.guest_house, game.host_house):
        read = core.get(f"{base}/{house}")
        assert read.status_code == 403 and read.json()["code"] == "seat/online", read.text
        other = game.host_house if house == game.guest_house else game.guest_house
        offer = {"to": other, "term": {"kind": "no_attack", "area": "winterfell"}}
        proposed = core.post(f"{base}/{house}/proposals", json=offer)
        assert proposed.status_code == 403 and proposed.json()["code"] == "seat/online"
    assert core.app.state.core.store.deal_book(game.game_id) is None  # type: ignore[attr-defined]


def test_in_the_desktop_app_the_host_s_seat_opens_in_a_window_of_its_own_finding_6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 6 (H1): the host plays their seat through the online server, like
    any guest — in the desktop app through *Play online*, in a window of its own (no bridge,
    no token, no cookie of the app), never by taking the app's own window there."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    opened: list[str] = []
    with local_core(tmp_path / "host.db") as core:
        core.app.state.open_remote = opened.append  # type: ignore[attr-defined]
        game = host(core, free_port())
        page = core.get(f"/online/host/lobbies/{game.lobby_id}").text
        assert 'action="/online/play"' in page
        assert f'href="http://127.0.0.1:{game.base.rsplit(":", 1)[1]}/join#key=' not in page
        link = f"{game.base}/join#key={game.host_key}&lobby={game.lobby_id}"
        assert core.post("/online/play", data={"link": link}).status_code == 200
    assert opened == [link]


def test_export_and_replay_still_refuse_a_guest_s_secrets_of_a_hosted_game_finding_6(
    hosted: tuple[TestClient, HostedGame],
) -> None:
    """Issue 35 finding 6 (H1), the routes that held: while the hosted game runs, the local
    core neither exports it (every secret is in the file) nor replays a guest's seat."""
    core, game = hosted
    assert core.get(f"/games/{game.game_id}/export").status_code == 403
    assert core.get(f"/games/{game.game_id}/replay/{game.guest_house}").status_code == 403
    assert core.get(f"/games/{game.game_id}/replay").status_code == 403


def _raw(port: int, request: str) -> str:
    """Send ``request`` to 127.0.0.1:``port``; the status line of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request.encode())
        return conn.recv(4096).decode("latin-1").split("\r\n", 1)[0]


def test_the_hosting_listener_refuses_a_host_header_it_does_not_listen_as_finding_7(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 7 (M9): a request with Host and Origin ``evil.example`` succeeded on
    the hosting listener (the shape of DNS rebinding). Now the Host must name an address it
    listens on: anything else is 400 ``online/wrong-host`` (a WebSocket is refused before it
    opens) and nothing is registered; its own address still works."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    port = free_port()
    with local_core(tmp_path / "host.db") as core:
        game = host(core, port)
        evil = f"evil.example:{port}"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = json.dumps({"name": "Mallory"})
        headers = {"Host": evil, "Origin": f"http://{evil}", "Content-Type": "application/json"}
        conn.request("POST", "/api/players", body, headers)
        reply = conn.getresponse()
        answer = json.loads(reply.read())
        assert reply.status == 400, answer
        assert answer["code"] == "online/wrong-host"
        assert "set-cookie" not in {k.lower() for k in reply.headers}
        conn.request("GET", f"/api/lobbies/{game.lobby_id}", headers={"Host": evil})
        read = conn.getresponse()
        read.read()
        assert read.status == 400
        handshake = (
            f"GET /ws/lobbies/{game.lobby_id} HTTP/1.1\r\nHost: {evil}\r\n"
            f"Origin: http://{evil}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert " 101 " not in _raw(port, handshake)
        for name in ("127.0.0.1", "localhost"):
            conn.request("GET", f"/api/lobbies/{game.lobby_id}", headers={"Host": f"{name}:{port}"})
            fine = conn.getresponse()
            fine.read()
            assert fine.status == 200, name
        conn.close()


def test_a_hosted_game_s_open_seat_is_taken_only_with_its_invite_finding_7(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 7 (M9): anyone who registered a key could take an open seat of the
    hosted game without an invite. Now ``take`` is refused (403 ``online/invite-only``, the
    seat stays free), as is creating another lobby on the host's machine; the invite link
    still gives the seat."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    with local_core(tmp_path / "host.db") as core:
        game = host(core, free_port(), players=3, people=3)
        free = [h for h, s in lobby_seats(game).items() if s["open"] and not s["player"]]
        assert len(free) == 1
        status, stranger = post_json(f"{game.base}/api/players", {"name": "Stranger"})
        assert status == 200
        lobby = f"{game.base}/api/lobbies/{game.lobby_id}"
        for house in (free[0], "random"):
            status, taken = post_json(f"{lobby}/take", {"house": house}, stranger["key"])
            assert status == 403, taken
            assert taken["code"] == "online/invite-only"
        assert lobby_seats(game)[free[0]]["player"] is None
        status, made = post_json(
            f"{game.base}/api/lobbies", {"players": 3, "ai_level": "baseline"}, stranger["key"]
        )
        assert status == 403 and made["code"] == "online/invite-only", made
        status, joined = post_json(
            f"{game.base}/api/join", {"invite": game.invites[1]}, stranger["key"]
        )
        assert status == 200 and joined["house"] == free[0], joined


@pytest.mark.parametrize(
    ("interface", "share", "allowed", "refused"),
    [
        ("127.0.0.1", "127.0.0.1", ["127.0.0.1", "localhost"], ["evil.example", "192.168.1.20"]),
        ("0.0.0.0", "192.168.1.20", ["192.168.1.20", "127.0.0.1"], ["evil.example", "0.0.0.0"]),
        ("192.168.1.20", "192.168.1.20", ["192.168.1.20"], ["localhost", "evil.example"]),
        ("::1", "::1", ["[::1]", "localhost"], ["evil.example", "[::2]"]),
    ],
)
def test_the_listener_s_host_names_are_its_own_addresses_only_finding_7(
    interface: str, share: str, allowed: list[str], refused: list[str]
) -> None:
    """Issue 35 finding 7 (M9): the Host names the hosting listener answers to are the
    address it listens on, the invite links' address and, on loopback or every network, this
    machine's own names — on its own port only; never a name another site picked."""
    from westeros.online.hosting import allowed_hosts, host_allowed

    hosts = allowed_hosts(interface, 8765, share)
    for name in allowed:
        assert host_allowed(f"{name}:8765", hosts), name
        assert not host_allowed(f"{name}:8766", hosts), name
    for name in refused:
        assert not host_allowed(f"{name}:8765", hosts), name
    assert not host_allowed(None, hosts)
