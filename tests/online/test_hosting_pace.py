"""Issue 40 in the app's "Host an online game" form (docs/online.md "Hosting from the app"):
the host chooses the pace (live, or by turns with its deadline, weekends, time zone,
vacation, missed deadlines and what happens then), a ranked game, an anonymous table and a
minimum reliability, as on the online server's own create form; the same checks as the
online server's refuse a bad value, and the form comes back with the field named and every
choice kept, before anything listens."""

from __future__ import annotations

import html
import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from .hosting_helpers import TOKEN, local_core
from .live import free_port
from .test_newplayer_defects_host_form import chosen, field, ticked

BY_TURNS = {
    "pace": "by_turns",
    "deadline_hours": "2",
    "skip_weekends": "on",
    "time_zone": "Europe/Paris",
    "vacation_days": "5",
    "max_missed": "2",
    "after_missed": "keep_ai",
    "ranked": "on",
    "anonymous": "on",
    "min_reliability": "80",
}


@pytest.fixture
def core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    with local_core(tmp_path / "host.db") as client:
        yield client


def post_host(core: TestClient, port: int, **fields: str) -> Any:
    """Post the host form: three players, two seats for people, on ``port``."""
    data = {"name": "Hostess", "players": "3", "open": "2", "listen_port": str(port), **fields}
    return core.post("/online/host", data=data)


def served_lobby(page: str) -> tuple[int, dict[str, Any]]:
    """The port of the hosted page's listener and its lobby as that online server lists it."""
    link = re.search(r'href="http://127\.0\.0\.1:(\d+)/join#key=[^"&]+&amp;lobby=([^"]+)"', page)
    assert link is not None, page
    port, lobby_id = int(link[1]), link[2]
    url = f"http://127.0.0.1:{port}/api/lobbies/{lobby_id}"
    with urllib.request.urlopen(url, timeout=30) as reply:
        return port, json.loads(reply.read())["lobby"]


def listening(port: int) -> bool:
    """Does anything accept connections on 127.0.0.1:``port``?"""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def shown_pace(page: str) -> str:
    """The hosted page's line naming the pace."""
    found = re.search(r'data-testid="hosted-pace">([^<]*)<', page)
    assert found is not None, page
    return html.unescape(found[1])


def test_a_game_hosted_by_turns_carries_every_setting_the_form_chose(core: TestClient) -> None:
    """Issue 40 "Two paces per game, chosen when it is created", ratings, reliability and
    anonymous tables: the online server's lobby holds exactly the host form's choices, the
    game by turns has no turn clock, and the hosted page names the pace."""
    reply = post_host(core, free_port(), **BY_TURNS)
    assert reply.status_code == 200, reply.text
    _, lobby = served_lobby(reply.text)
    settings = lobby["settings"]
    assert settings["pace"] == {
        "mode": "by_turns",
        "deadline_seconds": 2 * 3600,
        "skip_weekends": True,
        "time_zone": "Europe/Paris",
        "vacation_days": 5,
        "max_missed": 2,
        "after_missed": "keep_ai",
    }
    assert (settings["ranked"], settings["anonymous"], settings["min_reliability"]) == (
        True,
        True,
        80,
    )
    assert lobby["clock_seconds"] == 0
    assert "Hostess" not in json.dumps(lobby)  # an anonymous table names nobody, nor its game
    assert shown_pace(reply.text) == "By turns: 2 h per decision · Ranked · Anonymous"


@pytest.mark.parametrize(
    ("wrong", "label"),
    [
        ({"deadline_hours": "0"}, "Deadline per decision (hours)"),
        ({"min_reliability": "150"}, "Minimum reliability to take a seat (percent; 0: none)"),
        ({"clock": "5"}, "Turn clock per player (minutes, 0: none)"),
    ],
    ids=["deadline-0-hours", "reliability-150", "by-turns-with-a-clock"],
)
def test_a_bad_setting_returns_the_form_naming_it_with_every_choice_kept(
    core: TestClient, wrong: dict[str, str], label: str
) -> None:
    """The online server's own checks (``lobby_settings.pace``, ``min_reliability``) refuse
    the value: 400, the error names the form's field, every choice is kept (issue 37 point
    4), and no game server listens nor any lobby exists."""
    port = free_port()
    sent = BY_TURNS | {"clock": "0", "grace": "90", **wrong}
    refused = post_host(core, port, **sent)
    assert refused.status_code == 400, refused.text
    error = re.search(r'data-testid="host-error">([^<]*)<', refused.text)
    assert error is not None and html.unescape(error[1]).startswith(f"{label}: "), error
    page = refused.text
    for name in ("deadline_hours", "time_zone", "vacation_days", "max_missed"):
        assert field(page, name) == sent[name], name
    for name in ("min_reliability", "clock", "grace"):
        assert field(page, name) == sent[name], name
    assert chosen(page, "pace") == ["by_turns"]
    assert chosen(page, "after_missed") == ["keep_ai"]
    assert {"skip_weekends", "ranked", "anonymous"} <= ticked(page)
    assert 'data-pace="by_turns">' in page  # the deadlines shown, the clock hidden
    assert re.search(r'<label data-pace="live" hidden>', page)
    assert not listening(port)
    assert core.app.state.games.online.lobbies() == []  # type: ignore[attr-defined]


def test_the_default_form_still_hosts_a_live_unranked_named_game(core: TestClient) -> None:
    """Without the new fields the form hosts what it always did: live, unranked, named."""
    page = core.get("/online/host").text
    assert chosen(page, "pace") == ["live"]
    assert re.search(r'<div data-pace="by_turns" hidden>', page)
    reply = post_host(core, free_port(), clock="5")
    assert reply.status_code == 200, reply.text
    _, lobby = served_lobby(reply.text)
    settings = lobby["settings"]
    assert settings["pace"]["mode"] == "live"
    assert (settings["ranked"], settings["anonymous"], settings["min_reliability"]) == (
        False,
        False,
        0,
    )
    assert (lobby["name"], lobby["clock_seconds"]) == ("Hostess's game", 300)
    assert shown_pace(reply.text) == "Live: everyone plays at the same time"


def test_the_time_zone_is_this_computers(core: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The weekends' time zone starts as this computer's, as zoneinfo names it."""
    monkeypatch.setenv("TZ", "America/Sao_Paulo")
    assert field(core.get("/online/host").text, "time_zone") == "America/Sao_Paulo"


# ------------------------------------------------------------------------------- browser


@pytest.fixture
def app_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The local core served by uvicorn on a free port (as the desktop app runs it); the
    address to open with its launch token."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    import uvicorn

    from westeros.server import create_app

    port = free_port()
    app = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'app.db'}", port=port)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="pace-test-core", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


@pytest.mark.usefixtures("chromium")
def test_the_host_picks_by_turns_in_the_browser_and_the_hosted_page_names_it(
    app_url: str, launch_chromium: Any
) -> None:
    """In Chromium: choosing "By turns" shows the deadline and hides the turn clock (a clock
    typed before is then not sent); the hosted page names the pace, in Chinese too."""
    from playwright.sync_api import expect

    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    page = browser.new_context(viewport=VIEWPORT).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{app_url}/?token={TOKEN}")
    page.goto(f"{app_url}/online/host")
    form = page.get_by_test_id("host-form")
    form.locator("input[name=name]").fill("Hostess")
    page.get_by_test_id("host-players").select_option("3")
    form.locator("input[name=open]").fill("2")
    form.locator("input[name=listen_port]").fill(str(free_port()))
    deadline = form.locator("input[name=deadline_hours]")
    clock = form.locator("input[name=clock]")
    expect(deadline).to_be_hidden()
    clock.fill("5")
    page.get_by_test_id("host-by-turns").check()
    expect(deadline).to_be_visible()
    expect(clock).to_be_hidden()
    deadline.fill("2")
    page.get_by_test_id("host-ranked").check()
    form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("hosted-pace")).to_have_text("By turns: 2 h per decision · Ranked")
    _, lobby = served_lobby(page.content())
    assert (lobby["settings"]["pace"]["deadline_seconds"], lobby["clock_seconds"]) == (7200, 0)

    page.goto(f"{app_url}/online/host/lobbies/{lobby['id']}?lang=zh_CN")
    expect(page.get_by_test_id("hosted-pace")).to_have_text("按回合：每个决定 2 小时 · 排位")
    page.goto(f"{app_url}/online/host")
    expect(page.get_by_text("每个决定的截止时间（小时）")).to_be_hidden()
    page.get_by_test_id("host-by-turns").check()
    expect(page.get_by_text("每个决定的截止时间（小时）")).to_be_visible()
    assert not errors, errors
