"""*Play online* in the desktop app (docs/online.md "Playing online from the app"): an invite
link opens in its own window, in its own process; only http and https links open, anything
else is refused with a clear reason; the remote page gets no pywebview bridge (no
``js_api``), never the local core's launch token, and none of the app's environment."""

from __future__ import annotations

import http.server
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros import desktop, remote, turn_watch

INVITE = "https://westeros.example.org:8443/join#invite=abc123"
TOKEN = "play-online-test-launch-token-0123456789"


@pytest.mark.parametrize(
    "link",
    [INVITE, "http://192.168.1.20:8765/join#invite=x", "  https://example.org/  "],
)
def test_http_and_https_links_open_as_given(link: str) -> None:
    assert remote.check_link(link) == link.strip()


@pytest.mark.parametrize(
    ("link", "reason"),
    [
        ("", "Paste the invite link"),
        ("file:///etc/passwd", "Only http:// and https:// links"),
        ("javascript:alert(1)", "not 'javascript'"),
        ("data:text/html,<b>hi</b>", "not 'data'"),
        ("ftp://example.org/game", "not 'ftp'"),
        ("westeros.example.org/join", "Only http:// and https:// links"),
        ("https://", "names no server"),
        ("https://bob:secret@example.org/join", "user name or password"),
        ("https://example.org:port/join", "port is not valid"),
        ("https://example.org/join #x", "spaces or control characters"),
        ("https://example.org/" + "a" * 2000, "too long"),
    ],
)
def test_other_links_are_refused_with_the_reason(link: str, reason: str) -> None:
    with pytest.raises(remote.RemoteLinkError, match=reason):
        remote.check_link(link)


def test_the_remote_window_s_process_gets_only_the_link() -> None:
    assert remote.command_line() == [sys.executable, "-m", "westeros.remote"]
    environ = {
        "DISPLAY": ":1",
        "HOME": "/home/ann",
        "WESTEROS_DATABASE_URL": "postgresql://ann:pw@db/westeros",
        "WESTEROS_TOKEN": TOKEN,
    }
    assert remote.window_environment(environ) == {"DISPLAY": ":1", "HOME": "/home/ann"}


def test_a_refused_link_never_opens_a_window_and_the_process_says_why() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "westeros.remote", "file:///etc/passwd"],
        capture_output=True,
        text=True,
        timeout=60,
        env=remote.window_environment({"PATH": "/usr/bin:/bin"}),
        check=False,
    )
    assert done.returncode == 2
    assert "Only http:// and https:// links" in done.stderr


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("file:///etc/passwd\n", "Only http:// and https:// links"),
        ("file:///etc/passwd", "Only http:// and https:// links"),  # no line end: still read
        ("", "No link was given to open."),
        ("\n", "No link was given to open."),
        ("https://example.org/join#invite=" + "a" * 2100, "longer than 2000 characters"),
        ("https://example.org/join#invite=" + "a" * 2100 + "\n", "longer than 2000 characters"),
    ],
)
@pytest.mark.parametrize(
    "started", [["-m", "westeros.remote"], ["-m", "westeros.cli", "play-online", "-"]]
)
def test_a_link_on_stdin_is_checked_as_one_given_on_the_command_line(
    started: list[str], given: str, reason: str
) -> None:
    """The app writes the link to the window process's stdin (``remote.read_link``): a link
    refused there (with or without a line end), no link at all, or a line longer than any link
    opens nothing (status 2), and says why."""
    done = subprocess.run(
        [sys.executable, *started],
        input=given,
        capture_output=True,
        text=True,
        timeout=60,
        env=remote.window_environment({"PATH": "/usr/bin:/bin"}),
        check=False,
    )
    print(started, repr(given[:40]), "->", done.returncode, done.stderr.strip())
    assert done.returncode == 2 and reason in done.stderr


@pytest.mark.parametrize("end", ["", "\n", "\r\n"])
def test_a_link_of_the_longest_length_is_read_whole_and_one_character_more_is_refused(
    end: str,
) -> None:
    longest = "https://example.org/join#invite=" + "a" * (remote.MAX_URL_CHARS - 32)
    assert len(longest) == remote.MAX_URL_CHARS
    after = "the next line\n" if end else ""
    assert remote.read_link(io.StringIO(longest + end + after)) == longest
    with pytest.raises(remote.RemoteLinkError, match="longer than 2000 characters"):
        remote.read_link(io.StringIO(longest + "a" + end))


def test_the_frozen_app_starts_its_remote_window_with_the_link_on_stdin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert remote.command_line() == [sys.executable, "play-online", "-"]


class FakeEvent:
    """A pywebview window event: handlers are added with ``+=``."""

    def __init__(self) -> None:
        self.handlers: list[Any] = []

    def __iadd__(self, handler: Any) -> FakeEvent:
        self.handlers.append(handler)
        return self


class FakeWebview(types.ModuleType):
    """pywebview as the shell calls it: records each window and each start."""

    def __init__(self) -> None:
        super().__init__("webview")
        self.windows: list[dict[str, Any]] = []
        self.starts: list[dict[str, Any]] = []
        self.settings: dict[str, Any] = {}

    def create_window(self, *args: Any, **kwargs: Any) -> types.SimpleNamespace:
        self.windows.append({"args": args, **kwargs})
        events = types.SimpleNamespace(
            shown=FakeEvent(), before_show=FakeEvent(), loaded=FakeEvent()
        )
        return types.SimpleNamespace(events=events)

    def start(self, *args: Any, **kwargs: Any) -> None:
        self.starts.append(kwargs)


@pytest.fixture
def webview(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeWebview]:
    fake = FakeWebview()
    monkeypatch.setitem(sys.modules, "webview", fake)
    qt = types.SimpleNamespace(environ_append=lambda *args, **kwargs: None)  # its Qt backend
    monkeypatch.setitem(sys.modules, "webview.platforms", types.SimpleNamespace(qt=qt))
    monkeypatch.setitem(sys.modules, "webview.platforms.qt", qt)
    yield fake


def test_the_remote_window_has_no_bridge_and_a_kept_profile_of_its_server(
    webview: FakeWebview, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert remote.run_window(INVITE) == 0
    (window,) = webview.windows
    assert window["url"] == INVITE
    assert "js_api" not in window and not window["args"]
    assert "westeros.example.org:8443" in window["title"]
    folder = tmp_path / "data" / "westeros" / "remote-profiles"
    (profile,) = folder.iterdir()  # one web profile per server, kept
    assert webview.starts == [
        {"gui": desktop.default_gui(), "private_mode": False, "storage_path": str(profile)}
    ]
    assert remote.profile_folder("https://WESTEROS.example.org:8443/lobbies/x") == profile
    assert remote.profile_folder("https://westeros.example.org/join") != profile


def test_the_app_s_window_offers_play_online_through_a_separate_process(
    webview: FakeWebview, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cores: list[desktop.LocalCore] = []

    class Recorded(desktop.LocalCore):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            cores.append(self)

    monkeypatch.setattr(desktop, "LocalCore", Recorded)
    monkeypatch.setattr(desktop, "window_problem", lambda: None)
    monkeypatch.setattr(desktop, "setup_logging", lambda: tmp_path / "westeros.log")
    assert desktop.launch(store_url=f"sqlite:///{tmp_path / 'games.db'}") == 0
    (core,) = cores
    opener = core.app.state.open_remote
    assert opener.func is remote.open_window  # the key a window reports is kept
    assert opener.keywords["on_account"].func is turn_watch.remember
    (window,) = webview.windows
    assert "js_api" not in window  # the app's own window has no bridge either
    assert webview.starts == [{"gui": desktop.default_gui(), "private_mode": True}]


@pytest.fixture
def local_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    from westeros.server import create_app

    app = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'games.db'}")
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.cookies.set("westeros_token", TOKEN)
        yield client


def test_play_online_refuses_a_link_that_is_not_http_and_opens_nothing(
    local_core: TestClient,
) -> None:
    opened: list[str] = []
    local_core.app.state.open_remote = opened.append  # type: ignore[attr-defined]
    assert 'href="/online/play"' in local_core.get("/").text
    reply = local_core.post("/online/play", data={"link": "javascript:alert(document.cookie)"})
    assert reply.status_code == 400
    assert "Only http:// and https:// links can be opened" in reply.text
    assert 'data-testid="play-online-link"' not in reply.text
    assert opened == []


def test_play_online_in_the_app_opens_the_link_in_its_own_window(local_core: TestClient) -> None:
    opened: list[str] = []
    local_core.app.state.open_remote = opened.append  # type: ignore[attr-defined]
    reply = local_core.post("/online/play", data={"link": f" {INVITE} "})
    assert reply.status_code == 200
    assert opened == [INVITE]
    assert "The game opened in its own window." in reply.text
    assert TOKEN not in opened[0]


def test_play_online_in_a_browser_offers_the_link_without_referrer_or_opener(
    local_core: TestClient,
) -> None:
    reply = local_core.post("/online/play", data={"link": INVITE})
    assert reply.status_code == 200
    assert f'href="{INVITE}" target="_blank" rel="noopener noreferrer"' in reply.text
    assert "The game opened in its own window." not in reply.text


PROBE_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>probe</title></head>
<body><script>
function report() {
  const bridge = window.pywebview;
  const api = bridge && bridge.api ? Object.keys(bridge.api) : [];
  fetch("/report", {method: "POST", body: JSON.stringify({
    api: api, cookie: document.cookie, referrer: document.referrer, href: location.href})});
}
window.addEventListener("pywebviewready", report);
setTimeout(report, 8000);
</script></body></html>"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt xvfb)")
@pytest.mark.skipif(
    importlib.util.find_spec("PyQt6.QtWebEngineWidgets") is None,
    reason="PyQt6-WebEngine is not installed (pip install -e '.[test]')",
)
def test_a_real_remote_window_shows_the_page_with_no_bridge_and_no_cookie(
    display: str, tmp_path: Path
) -> None:
    """Under Xvfb with pywebview's Qt backend: the remote window loads the page it was given
    (a server on 127.0.0.1, where the local core's cookie would be sent if it were shared),
    which finds no API of ours on ``window.pywebview`` and gets no cookie and no referrer."""
    reports: list[dict[str, Any]] = []
    requests: list[dict[str, str]] = []

    class Probe(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(dict(self.headers))
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(PROBE_PAGE)

        def do_POST(self) -> None:
            requests.append(dict(self.headers))
            body = self.rfile.read(int(self.headers["content-length"]))
            reports.append(json.loads(body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Probe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    link = f"http://127.0.0.1:{server.server_port}/join#invite=probe"
    environ = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": "--disable-gpu --no-sandbox",
        "HOME": str(tmp_path),
    }
    child = remote.open_window(link, environ=environ)
    try:
        deadline = time.monotonic() + 120
        while not reports:
            assert child.poll() is None, "the remote window's process ended early"
            assert time.monotonic() < deadline, "the remote page did not report within 120 s"
            time.sleep(0.2)
        command = Path(f"/proc/{child.pid}/cmdline").read_bytes().split(b"\0")
    finally:
        child.terminate()
        child.wait(30)
        server.shutdown()
    report = reports[0]
    assert report["href"] == link
    print("the window's process runs as", command)  # readable by every user of the computer
    assert b"westeros.remote" in command and not any(b"invite" in part for part in command)
    assert report["api"] == [] and report["cookie"] == "" and report["referrer"] == ""
    assert all("Cookie" not in headers for headers in requests)
