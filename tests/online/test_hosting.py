"""Hosting from the app (docs/online.md): the local core's "Host an online game" starts the
online server on the interface the host chose (only this computer unless they choose a
network, with a warning), creates the lobby with the host seated and one invite link per open
seat; a person joins through the link over the network; the local core itself still needs
its launch token, and the online listener serves none of its routes."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .live import free_port, post_json

TOKEN = "hosting-test-launch-token-0123456789"


@pytest.fixture
def local_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    from westeros.server import create_app

    app = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'host.db'}")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.cookies.set("westeros_token", TOKEN)
        yield client


def test_the_host_form_listens_only_on_this_computer_unless_told_and_warns(
    local_core: Any,
) -> None:
    page = local_core.get("/online/host").text
    assert re.search(r'value="127\.0\.0\.1" checked', page)
    assert "Warning: listening on a network" in page
    assert 'href="/online/host"' in local_core.get("/").text


def test_hosting_gives_invite_links_that_work_over_the_network(local_core: Any) -> None:
    port = free_port()
    reply = local_core.post(
        "/online/host",
        data={
            "name": "Hostess",
            "players": "3",
            "open": "2",
            "interface": "127.0.0.1",
            "listen_port": str(port),
            "ai_level": "baseline",
        },
    )
    assert reply.status_code == 200, reply.text
    invites = re.findall(r'value="(http://127\.0\.0\.1:\d+/join#invite=[^"]+)"', reply.text)
    assert len(invites) == 1  # two seats for people: the host's and one invite
    lobby_link = re.search(
        r'href="(http://127\.0\.0\.1:\d+/join#key=[^"&]+&amp;lobby=[^"]+)"', reply.text
    )
    assert lobby_link is not None
    base = f"http://127.0.0.1:{port}"
    status, guest = post_json(f"{base}/api/players", {"name": "Guest"})
    assert status == 200
    token = invites[0].split("#invite=", 1)[1]
    status, joined = post_json(f"{base}/api/join", {"invite": token}, guest["key"])
    assert status == 200, joined
    seats = {s["house"]: s["player"] for s in joined["lobby"]["seats"]}
    assert sorted(p for p in seats.values() if p) == ["Guest", "Hostess"]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{base}/games/import", timeout=5)
    assert missing.value.code in (404, 405)
    anonymous = TestClient(local_core.app, base_url="http://127.0.0.1")
    assert anonymous.get("/online/host").status_code == 403  # the launch token still rules


def test_an_address_that_is_not_an_ip_is_refused(local_core: Any) -> None:
    reply = local_core.post(
        "/online/host",
        data={
            "name": "Hostess",
            "interface_address": "evil.example",
            "listen_port": str(free_port()),
        },
    )
    assert reply.status_code == 400
    assert "is not an IP address" in reply.text
