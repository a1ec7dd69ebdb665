"""Issue 37 point 4, the host form and the AI level: a host form refused (its port in use) comes
back with everything the person chose, and the start screen, the host page and the online
lobby list pick the same AI level first, at which a game created without a choice plays."""

from __future__ import annotations

import html
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .hosting_helpers import local_core
from .live import free_port, post_json

EASY = "baseline"
"""The level a new player meets first: Easy (docs/ai.md, ``difficulty.BY_STRENGTH``)."""


@pytest.fixture
def core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    with local_core(tmp_path / "host.db") as client:
        yield client


def field(page: str, name: str) -> str:
    """The value an ``<input name=name>`` of ``page`` shows."""
    found = re.search(rf'<input name="{name}"[^>]*value="([^"]*)"', page)
    assert found is not None, name
    return html.unescape(found.group(1))


def chosen(page: str, name: str) -> list[str]:
    """The values of the ``name`` select's options (or radios, tick boxes) picked in ``page``."""
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
    if select is not None:
        return re.findall(r'<option value="([^"]*)"[^>]*\bselected>', select.group(0))
    tags = re.findall(rf'<input[^>]*name="{name}"[^>]*>', page)
    return [re.search(r'value="([^"]*)"', t).group(1) for t in tags if " checked" in t]  # type: ignore[union-attr]


def ticked(page: str) -> set[str]:
    """The names of the tick boxes (``plugin``: its value) ticked in ``page``."""
    out = set()
    for tag in re.findall(r'<input type="checkbox"[^>]*>', page):
        name = re.search(r'name="([^"]*)"', tag).group(1)  # type: ignore[union-attr]
        value = re.search(r'value="([^"]*)"', tag).group(1)  # type: ignore[union-attr]
        if " checked" in tag:
            out.add(value if name == "plugin" else name)
    return out


def test_issue37_a_host_form_refused_for_its_port_keeps_every_field(core: TestClient) -> None:
    """Issue 37 point 4: "the host form forgets every field after an error (e.g. the port is
    in use)". The port is held by another listener: the form comes back with the reason and
    with the name, game, player count, seats, options, AI level and personality, clock,
    grace, interface and port the person chose."""
    first = core.get("/online/host").text
    assert "westeros_ports" in ticked(first) and "tides_of_battle" not in ticked(first)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        sent = {
            "name": "Hostess",
            "game": "A long evening",
            "players": "4",
            "open": "2",
            "tides_of_battle": "on",  # and the ports plugin switched off
            "ai_level": "hard",
            "ai_personality": "turtle",
            "clock": "5",
            "grace": "120",
            "interface": "0.0.0.0",
            "listen_port": str(port),
        }
        refused = core.post("/online/host", data=sent)
    assert refused.status_code == 400
    page = refused.text
    error = re.search(r'data-testid="host-error">([^<]*)<', page)
    assert error is not None and str(port) in error.group(1), error
    for name in ("name", "game", "open", "clock", "grace", "listen_port"):
        assert field(page, name) == sent[name], name
    assert chosen(page, "players") == ["4"]
    assert chosen(page, "ai_level") == ["hard"]
    assert chosen(page, "ai_personality") == ["turtle"]
    assert chosen(page, "interface") == ["0.0.0.0"]
    assert ticked(page) == {"tides_of_battle"}


def test_issue37_every_form_picks_easy_and_a_game_without_a_choice_plays_it(
    core: TestClient, online_app: Any
) -> None:
    """Issue 37 point 4: "the start screen and the host page default to different AI levels"
    (Easy on the start screen, Normal when hosting). The start screen, the host page and the
    online server's new-lobby form all pick Easy first; a local game, a hosted game and an
    online lobby created without naming a level give every AI seat Easy."""
    start = core.get("/").text
    assert chosen(start, "ai_level") == [EASY]
    assert chosen(core.get("/online/host").text, "ai_level") == [EASY]
    assert chosen(TestClient(online_app).get("/").text, "ai_level") == [EASY]

    games = core.app.state.games  # type: ignore[attr-defined]
    local = core.post("/games", data={"players": "3", "house": "stark"}, follow_redirects=False)
    assert local.status_code == 303, local.text
    game_id = local.headers["location"].split("/")[2]
    seats = games.store.game(game_id).setup.seats
    assert {s.name for s in seats if s.kind == "ai"} == {EASY}

    port = free_port()
    hosted = core.post(
        "/online/host",
        data={"name": "Hostess", "players": "3", "open": "1", "listen_port": str(port)},
    )
    assert hosted.status_code == 200, hosted.text
    link = re.search(r"join#key=([^\"&]+)&(?:amp;)?lobby=([^\"]+)\"", hosted.text)
    assert link is not None
    key, lobby_id = link.groups()
    status, started = post_json(f"http://127.0.0.1:{port}/api/lobbies/{lobby_id}/start", {}, key)
    assert status == 200, started
    seats = games.store.game(started["lobby"]["game_id"]).setup.seats
    assert {s.name for s in seats if s.kind == "ai"} == {EASY}
