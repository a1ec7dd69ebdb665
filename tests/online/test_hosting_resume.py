"""Issue 35 finding 2: a game hosted from the app resumes after the app restarts. The host's
app offers "Resume hosting" for each hosted game that is not over; it listens again on the
same interface and port, with the same lobby, keys and invites, and the game goes on from
its last accepted action — the guest's key opens their seat as before."""

from __future__ import annotations

import html
import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import decide
from .hosting_helpers import HostedGame, host, local_core, start
from .live import free_port


def _seat_socket(game: HostedGame, house: str, key: str) -> Any:
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{game.base.rsplit(':', 1)[1]}/ws/games/{game.game_id}/seats/{house}"
    return connect(url, additional_headers={"x-westeros-key": key})


def _first_view(game: HostedGame, house: str, key: str) -> dict[str, Any]:
    with _seat_socket(game, house, key) as ws:
        view: dict[str, Any] = json.loads(ws.recv(timeout=30))
    assert view["type"] == "view", view
    return view


def _place_orders(game: HostedGame, house: str, key: str) -> dict[str, Any]:
    """``house`` places its orders through the online server; the view that follows."""
    with _seat_socket(game, house, key) as ws:
        view = json.loads(ws.recv(timeout=30))
        assert view["type"] == "view", view
        action = {"type": "action", "action": decide(view["view"]), "state_id": view["state_id"]}
        ws.send(json.dumps(action))
        while True:
            message = json.loads(ws.recv(timeout=60))
            assert message["type"] != "error", message
            if message["type"] == "view" and message["state_id"] > view["state_id"]:
                return dict(message)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    yield tmp_path / "host.db"


def test_after_a_restart_the_host_resumes_hosting_and_the_game_goes_on_finding_2(
    database: Path,
) -> None:
    """Issue 35 finding 2: after the host's app restarted, the guests retried forever and
    there was no way to host the game again. Now the restarted app lists the game under
    "Resume hosting" (and the host's Continue leads there); resuming listens on the same
    port, the guest's key opens their seat at the last accepted action, and the game goes on
    when the host plays their own seat through the online server."""
    port = free_port()
    with local_core(database) as core:
        game = start(host(core, port))
        played = _place_orders(game, game.guest_house, game.guest_key)
        accepted = core.app.state.core.store.game(game.game_id).action_count  # type: ignore[attr-defined]

    with local_core(database) as core:
        offer = core.get("/online/host")
        assert f'data-testid="resume-hosting-{game.lobby_id}"' in offer.text
        page = core.get(f"/games/{game.game_id}/play/{game.host_house}")  # "Continue"
        assert page.status_code == 200 and 'data-testid="resume-form"' in page.text
        assert not _listening(port)  # the app stopped, and its game server with it
        resumed = core.post(f"/online/host/lobbies/{game.lobby_id}/resume", data={})
        assert resumed.status_code == 200, resumed.text
        assert f"/join#key={game.host_key}&lobby={game.lobby_id}" in html.unescape(resumed.text)
        assert _listening(port)

        again = _first_view(game, game.guest_house, game.guest_key)
        assert again["state_id"] == played["state_id"]
        assert again["view"]["take_back"] == played["view"]["take_back"]
        store = core.app.state.core.store  # type: ignore[attr-defined]
        assert store.game(game.game_id).action_count == accepted
        _place_orders(game, game.host_house, game.host_key)
        assert store.game(game.game_id).action_count > accepted
        shown = core.get(f"/online/host/lobbies/{game.lobby_id}").text
        assert 'data-testid="open-lobby"' in shown and "resume-form" not in shown


def test_resuming_on_a_port_taken_meanwhile_says_so_and_another_port_works_finding_2(
    database: Path,
) -> None:
    """Issue 35 finding 2: when the game's old port is taken by another program, "Resume
    hosting" says which address cannot be listened on and changes nothing; the host may
    choose another port, and the still-open invite links are shown with it."""
    port = free_port()
    with local_core(database) as core:
        game = host(core, port, players=3, people=3)
    with socket.socket() as squatter, local_core(database) as core:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        refused = core.post(f"/online/host/lobbies/{game.lobby_id}/resume", data={})
        assert refused.status_code == 400
        assert f"cannot listen on 127.0.0.1:{port}" in refused.text
        assert 'data-testid="resume-form"' in refused.text
        other = free_port()
        moved = core.post(
            f"/online/host/lobbies/{game.lobby_id}/resume", data={"listen_port": str(other)}
        )
        assert moved.status_code == 200, moved.text
        links = re.findall(r'value="(http://127\.0\.0\.1:\d+/join#invite=[^"]+)"', moved.text)
        assert links == [f"http://127.0.0.1:{other}/join#invite={game.invites[1]}"]
        assert _listening(other)
