"""The desktop shell's local core (desktop issue, DESIGN §4): 127.0.0.1, a free port, a
per-launch token, a clean stop, and a friendly page when the core cannot start; the window
opens while the core is built beside it (issue 37 point 5)."""

from __future__ import annotations

import http.cookiejar
import socket
import sys
import threading
import types
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from westeros import desktop
from westeros.desktop import CoreStartError, LocalCore, error_page

from .test_play_online import FakeEvent


def test_the_core_serves_only_with_its_token_and_stops_cleanly(tmp_path: Path) -> None:
    core = LocalCore(store_url=f"sqlite:///{tmp_path / 'games.db'}", ai_delay=0)
    url = core.start()
    try:
        assert url.startswith(f"http://127.0.0.1:{core.port}/?token=")
        assert len(core.token) >= 32
        browser = urllib.request.build_opener(  # keeps the cookie, as a browser does
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with browser.open(url, timeout=10) as page:  # 303 to "/" without the token
            assert (page.status, page.geturl()) == (200, f"http://127.0.0.1:{core.port}/")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{core.port}/", timeout=10)
        assert refused.value.code == 403
    finally:
        core.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=2)


def test_a_core_that_cannot_start_raises_a_clear_error(tmp_path: Path) -> None:
    core = LocalCore(store_url=f"sqlite:///{tmp_path / 'games.db'}", ai_delay=0)
    with socket.socket() as taken:
        taken.bind((core.host, core.port))
        taken.listen()
        with pytest.raises(CoreStartError, match="stopped while starting"):
            core.start(timeout=20)


def test_the_error_page_explains_and_names_the_log(tmp_path: Path) -> None:
    page = error_page(RuntimeError("database <locked>"), tmp_path / "westeros.log")
    assert "Westeros could not start" in page
    assert "database &lt;locked&gt;" in page
    assert str(tmp_path / "westeros.log") in page


def test_a_request_sent_before_the_core_is_built_waits_and_gets_the_start_screen(
    tmp_path: Path,
) -> None:
    """Issue 37 point 5: the window opens the core's address at once, while the core is still
    being built; its request waits on the listening socket and gets the start screen."""
    core = LocalCore(store_url=f"sqlite:///{tmp_path / 'games.db'}", ai_delay=0)
    url = core.listen()
    answer: dict[str, Any] = {}

    def open_the_window() -> None:
        browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with browser.open(url, timeout=120) as page:
            answer["status"] = page.status
            answer["page"] = page.read().decode("utf-8")

    window = threading.Thread(target=open_the_window)
    window.start()
    window.join(0.5)
    assert window.is_alive(), "the request was answered before the core was built"
    try:
        assert core.start() == url
        window.join(120)
    finally:
        core.stop()
    assert answer["status"] == 200
    assert 'id="new-game"' in answer["page"]


class FakeWindow:
    """A pywebview window as the shell uses it: records the pages loaded into it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loaded_html: list[str] = []
        self.events = types.SimpleNamespace(shown=FakeEvent(), before_show=FakeEvent())

    def load_html(self, html: str) -> None:
        self.loaded_html.append(html)


@pytest.fixture
def fake_webview(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[FakeWindow]:
    """pywebview replaced by a module that records the app's window; no window problem."""
    windows: list[FakeWindow] = []

    def create_window(title: str, url: str, **options: Any) -> FakeWindow:
        windows.append(FakeWindow(url))
        return windows[-1]

    fake = types.SimpleNamespace(settings={}, create_window=create_window, start=lambda **_: None)
    monkeypatch.setitem(sys.modules, "webview", fake)
    monkeypatch.setattr(desktop, "window_problem", lambda: None)
    monkeypatch.setattr(desktop, "setup_logging", lambda: tmp_path / "westeros.log")
    return windows


def test_a_core_that_cannot_start_shows_why_in_the_window_already_open(
    fake_webview: list[FakeWindow], capsys: pytest.CaptureFixture[str]
) -> None:
    """The window opened before the core was built; when the database cannot be opened, that
    window shows the error page (the terminal says it too) and the app exits with 1."""
    unreachable = "postgresql://westeros@127.0.0.1:1/games"
    assert desktop.launch(store_url=unreachable) == 1
    (window,) = fake_webview
    assert window.url.startswith("http://127.0.0.1:")
    (page,) = window.loaded_html
    assert "Westeros could not start" in page
    assert "could not open its database" in page
    assert "could not open its database" in capsys.readouterr().err
