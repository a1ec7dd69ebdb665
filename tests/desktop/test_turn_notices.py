"""The desktop app's turn notices (issue 40; docs/online.md "Playing online from the app"):
while the app runs, a system notification for each new decision of its player in an online
game — shown through a real notification service on a private D-Bus session bus, read from
a live online server's inbox — never twice, in the app's language, not at all when the
player switched notifications off; a server that is down, a refused key or a missing
notification service never stop the watcher; a click opens the game's board. A remote
window keeps its server's web profile and tells the app the key its pages keep."""

from __future__ import annotations

import http.server
import importlib.util
import io
import json
import logging
import shutil
import signal
import subprocess
import sys
import threading
import time
import types
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros import desktop, remote, turn_watch
from westeros.server import create_app
from westeros.turn_watch import TurnWatch

from .notify_helpers import (
    OnlineServer,
    Person,
    SessionBus,
    online_server,
    register,
    session_bus,
    wait_for,
)

TOKEN = "turn-notices-test-launch-token-0123456789"
POLL = 0.3
pytestmark = pytest.mark.skipif(shutil.which("dbus-daemon") is None, reason="no dbus-daemon")


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[SessionBus]:
    """A private session bus with the notification service, this process's session bus."""
    with session_bus() as found:
        found.serve()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", found.address)
        yield found


@pytest.fixture
def core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app's local core (its store, its language as the app's pages show it)."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    app = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'games.db'}")
    desktop._follow_language(app)  # as desktop.launch prepares it
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.cookies.set("westeros_token", TOKEN)
        yield client


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[OnlineServer]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_PUBLIC_URL", raising=False)
    with online_server(tmp_path) as found:
        yield found


def store_of(core: TestClient) -> Any:
    return core.app.state.core.store  # type: ignore[attr-defined]


def watcher(core: TestClient, opened: list[str] | None = None) -> TurnWatch:
    """The app's turn watcher on ``core``'s store, polling every ``POLL`` seconds."""
    state = core.app.state  # type: ignore[attr-defined]
    found = TurnWatch(
        state.core.store,
        open_url=(opened if opened is not None else []).append,
        language=state.app_language.current,
        poll_seconds=POLL,
    )
    found.start()
    return found


def polls(watch: TurnWatch, count: int = 3) -> None:
    """Wait until ``watch`` polled ``count`` more times."""
    target = watch.polls + count
    wait_for(lambda: watch.polls >= target)


def stored(core: TestClient, server: OnlineServer) -> turn_watch.Account:
    (account,) = [a for a in turn_watch.accounts(store_of(core)) if a.origin == server.url]
    return account


def game_for(server: OnlineServer, name: str = "Kings") -> tuple[Person, str]:
    """A person with a game against the AI whose first decision is in their inbox."""
    alice = register(server, "Alice")
    _, game_id = alice.start_game(name)
    wait_for(lambda: alice.inbox()["items"])
    return alice, game_id


def test_each_decision_shows_one_notification_never_twice_even_after_a_restart(
    bus: SessionBus, core: TestClient, server: OnlineServer
) -> None:
    alice, game_id = game_for(server, "Kings of Winter")
    turn_watch.remember(store_of(core), server.url, alice.key)
    watch = watcher(core)
    try:
        (first,) = bus.wait_shown(1)
        print("shown:", first)
        assert first.app_name == "Westeros"
        assert "Kings of Winter" in first.summary + first.body
        assert "Stark" in first.body and "Place your orders" in first.body
        assert first.actions[:1] == ["default"]  # a click opens the board
        polls(watch)
        assert len(bus.shown) == 1  # the same decision is not shown again

        assert alice.take_turn(game_id) == "place_orders"
        second = bus.wait_shown(2)[1]
        print("then:", second)
        assert "Kings of Winter" in second.summary + second.body and second.body != first.body
        polls(watch)
        assert len(bus.shown) == 2
    finally:
        watch.stop()
    assert not watch.running
    after = stored(core, server).after
    assert after == alice.inbox()["last"]

    again = watcher(core)  # the app starts again: what was shown is not shown again
    try:
        polls(again)
        assert len(bus.shown) == 2
    finally:
        again.stop()


def test_in_an_app_shown_in_chinese_the_notification_is_chinese(
    bus: SessionBus, core: TestClient, server: OnlineServer
) -> None:
    assert core.get("/?lang=zh_CN").status_code == 200  # the player's language switch
    alice, _ = game_for(server, "Kings")
    turn_watch.remember(store_of(core), server.url, alice.key)
    watch = watcher(core)
    try:
        (shown,) = bus.wait_shown(1)
    finally:
        watch.stop()
    print("shown:", shown)
    assert shown.summary == "轮到你了：“Kings”"
    assert "史塔克" in shown.body
    assert store_of(core).setting(turn_watch.LANGUAGE_SETTING) == "zh_CN"  # for the next start


def test_with_notifications_off_nothing_is_shown(
    bus: SessionBus, core: TestClient, server: OnlineServer
) -> None:
    assert core.put("/settings.json", json={"notifications": False}).status_code == 200
    alice, _ = game_for(server)
    turn_watch.remember(store_of(core), server.url, alice.key)
    watch = watcher(core)
    try:
        polls(watch)
    finally:
        watch.stop()
    assert bus.shown == []
    assert stored(core, server).after == alice.inbox()["last"]  # not shown later either


def test_a_server_that_is_down_is_skipped_and_its_notice_shown_when_it_is_back(
    bus: SessionBus,
    core: TestClient,
    server: OnlineServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice, _ = game_for(server)
    turn_watch.remember(store_of(core), server.url, alice.key)
    server.stop()
    caplog.set_level(logging.INFO, logger="westeros.turn_watch")
    watch = watcher(core)
    try:
        polls(watch, 5)
        assert watch.running and bus.shown == []
        skipped = [r for r in caplog.records if "skips" in r.getMessage()]
        assert len(skipped) == 1, skipped  # logged once, not at every poll
        assert server.url in skipped[0].getMessage()

        server.start()
        (shown,) = bus.wait_shown(1)
        assert "Kings" in shown.summary
    finally:
        watch.stop()
    assert any("answers the turn watcher again" in r.getMessage() for r in caplog.records)


def test_a_refused_key_is_not_asked_again_until_a_window_reports_it(
    bus: SessionBus, core: TestClient, server: OnlineServer
) -> None:
    unknown = "k" * 43
    turn_watch.remember(store_of(core), server.url, unknown)
    watch = watcher(core)
    try:
        wait_for(lambda: stored(core, server).refused)
        polls(watch)
        assert bus.shown == [] and watch.running
    finally:
        watch.stop()
    turn_watch.remember(store_of(core), server.url, unknown)  # reported again: asked again
    assert stored(core, server).refused is False


def test_without_a_notification_service_the_watcher_goes_on(
    core: TestClient,
    server: OnlineServer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice, _ = game_for(server)
    turn_watch.remember(store_of(core), server.url, alice.key)
    caplog.set_level(logging.INFO)
    with session_bus() as bus:  # a session bus, but no notification service on it
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        watch = watcher(core)
        try:
            polls(watch, 4)
            assert watch.running
            failed = [r for r in caplog.records if "could not be shown" in r.getMessage()]
            assert len(failed) == 1  # logged once
            assert stored(core, server).after is None  # not shown, so not seen

            bus.serve()  # the service comes up: the notice is shown then
            (shown,) = bus.wait_shown(1)
            assert "Kings" in shown.summary
        finally:
            watch.stop()
    noisy = [r for r in caplog.records if r.name.startswith("desktop_notifier")]
    assert len(noisy) == 1, noisy  # desktop-notifier's own warning, once


def test_clicking_a_notification_opens_the_board_of_that_game(
    bus: SessionBus, core: TestClient, server: OnlineServer
) -> None:
    alice, game_id = game_for(server)
    turn_watch.remember(store_of(core), server.url, alice.key)
    opened: list[str] = []
    watch = watcher(core, opened)
    try:
        (shown,) = bus.wait_shown(1)
        bus.click(shown.id)
        wait_for(lambda: opened)
    finally:
        watch.stop()
    assert opened == [f"{server.url}/games/{game_id}/play/stark"]


def test_the_play_online_page_lists_the_servers_and_stops_their_notices(
    core: TestClient,
) -> None:
    page = core.get("/online/play")
    assert "it tells you when it is your turn" in page.text
    assert 'data-testid="play-online-no-servers"' in page.text
    store = store_of(core)
    key = "a" * 43
    turn_watch.remember(store, "https://westeros.example.org", key)
    page = core.get("/online/play")
    assert 'data-origin="https://westeros.example.org"' in page.text
    assert key not in page.text  # never the key

    stopped = core.post(
        "/online/play/notices", data={"origin": "https://westeros.example.org", "notify": "off"}
    )
    assert stopped.status_code == 200
    assert "Turn notices from https://westeros.example.org are no longer shown." in stopped.text
    assert 'data-testid="notify-again"' in stopped.text
    (account,) = turn_watch.accounts(store)
    assert not account.notify and not account.polled
    turn_watch.remember(store, "https://westeros.example.org", key)  # the window again
    assert not turn_watch.accounts(store)[0].notify  # stays stopped until asked

    foreign = core.post(
        "/online/play/notices",
        data={"origin": "https://westeros.example.org", "notify": "on"},
        headers={"origin": "https://evil.example.org"},
    )
    assert foreign.status_code == 403  # another site cannot switch it
    assert (
        core.post(
            "/online/play/notices", data={"origin": "https://westeros.example.org", "notify": "on"}
        ).status_code
        == 200
    )
    assert turn_watch.accounts(store)[0].notify
    unknown = core.post("/online/play/notices", data={"origin": "https://x.org", "notify": "on"})
    assert unknown.status_code == 404


def test_at_most_twenty_servers_are_kept_the_latest_first(core: TestClient) -> None:
    store = store_of(core)
    for n in range(25):
        turn_watch.remember(store, f"https://s{n}.example.org", f"{n:02d}" + "k" * 40)
    found = turn_watch.accounts(store)
    assert len(found) == turn_watch.MAX_ACCOUNTS
    assert found[0].origin == "https://s24.example.org"


class ShowingWebview(types.ModuleType):
    """pywebview whose window shows at ``start`` and closes once the turn watcher runs."""

    def __init__(self, started: list[TurnWatch]) -> None:
        super().__init__("webview")
        self.settings: dict[str, Any] = {}
        self.shown: Any = None
        self.started = started
        self.closed = threading.Event()

    def create_window(self, *args: Any, **kwargs: Any) -> Any:
        class Event:
            def __init__(self) -> None:
                self.handlers: list[Any] = []

            def __iadd__(self, handler: Any) -> Any:
                self.handlers.append(handler)
                return self

        events = types.SimpleNamespace(
            shown=Event(), before_show=Event(), loaded=Event(), closed=self.closed
        )
        self.shown = events.shown
        return types.SimpleNamespace(events=events, get_title=lambda: "Westeros")

    def start(self, *args: Any, **kwargs: Any) -> None:
        for handler in self.shown.handlers:
            handler()
        wait_for(lambda: self.started)
        self.closed.set()


@pytest.mark.parametrize("browser", [False, True])
def test_the_app_watches_once_it_shows_and_stops_watching_with_the_core(
    browser: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[TurnWatch] = []
    cores: list[desktop.LocalCore] = []

    class Recorded(TurnWatch):
        def start(self) -> None:
            super().start()
            started.append(self)

    class Core(desktop.LocalCore):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            cores.append(self)

    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setattr(turn_watch, "TurnWatch", Recorded)
    monkeypatch.setattr(desktop, "LocalCore", Core)
    monkeypatch.setattr(desktop, "window_problem", lambda: None)
    monkeypatch.setattr(desktop, "setup_logging", lambda: tmp_path / "westeros.log")
    monkeypatch.setitem(sys.modules, "webview", ShowingWebview(started))
    qt = types.SimpleNamespace(environ_append=lambda *args, **kwargs: None)
    monkeypatch.setitem(sys.modules, "webview.platforms", types.SimpleNamespace(qt=qt))
    monkeypatch.setitem(sys.modules, "webview.platforms.qt", qt)
    # In the browser the core serves until Ctrl+C: here until the watcher runs.

    def stop_when_watching() -> None:
        wait_for(lambda: started)
        cores[0].stop()

    monkeypatch.setattr(
        desktop,
        "_open_browser",
        lambda url: threading.Thread(target=stop_when_watching, daemon=True).start(),
    )
    handlers = {name: signal.getsignal(name) for name in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert desktop.launch(browser=browser, store_url=f"sqlite:///{tmp_path / 'g.db'}") == 0
    finally:  # the browser's way ignores both signals at its end: processes started later
        for name, handler in handlers.items():  # would inherit that
            signal.signal(name, handler)
    (watch,) = started
    assert not watch.running  # stopped with the core
    assert watch.polls >= 1 and watch.poll_seconds == turn_watch.POLL_SECONDS
    state = cores[0].app.state
    assert watch.store is state.core.store
    assert watch.open_url is (webbrowser.open if browser else state.open_remote)


SERVER = "http://127.0.0.1:8765"
KEY = "Q" * 43


@pytest.mark.parametrize(
    "line",
    [
        remote.account_line("http://127.0.0.1:9999", KEY),  # another server
        remote.account_line(SERVER, "short"),
        remote.account_line(SERVER, "k" * 201),
        remote.account_line(SERVER, "bad key with spaces and more than twenty"),
        json.dumps({"account": {"origin": SERVER, "key": 12345678901234567890123}}),
        json.dumps({"account": {"origin": SERVER, "key": KEY, "more": 1}}),
        json.dumps({"origin": SERVER, "key": KEY}),
        "not json",
        "",
    ],
)
def test_the_app_ignores_any_other_line_of_the_window_s_process(line: str) -> None:
    got: list[tuple[str, str]] = []
    stream = io.BytesIO(f"{line}\n{remote.account_line(SERVER, KEY)}\n".encode())
    remote._read_accounts(stream, SERVER, lambda o, k: got.append((o, k)))
    assert got == [(SERVER, KEY)]


KEY_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>key</title></head>
<body><script>
let key = localStorage.getItem("westeros.online.key");
const fresh = !key;
if (fresh) {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  key = Array.from(bytes, (b) => (b % 36).toString(36)).join("");
  localStorage.setItem("westeros.online.key", key);
}
fetch("/report", {method: "POST", body: JSON.stringify({key, fresh})});
</script></body></html>"""


class KeyServer:
    """A page that keeps a key in its local storage (a new one if it has none) and reports
    it, on 127.0.0.1."""

    def __init__(self) -> None:
        self.reports: list[dict[str, Any]] = []
        reports = self.reports

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(KEY_PAGE)

            def do_POST(self) -> None:
                reports.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


def needs_window(test: Any) -> Any:
    """A test with real remote windows: under Xvfb, with pywebview's Qt backend."""
    for mark in (
        pytest.mark.slow,
        pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
        pytest.mark.skipif(
            importlib.util.find_spec("PyQt6.QtWebEngineWidgets") is None,
            reason="PyQt6-WebEngine is not installed (pip install -e '.[test]')",
        ),
    ):
        test = mark(test)
    return test


@pytest.fixture
def window_env(display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process's environment as the app's under Xvfb, its user data in ``tmp_path``."""
    home = tmp_path / "home"
    home.mkdir()
    for name, value in {
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": "--disable-gpu --no-sandbox",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
    }.items():
        monkeypatch.setenv(name, value)
    return home / "data"


def run_until_reported(link: str, reports: list[dict[str, Any]], count: int) -> None:
    """Open ``link`` in a remote window until ``reports`` has ``count`` reports."""
    child = remote.open_window(link)
    try:
        deadline = time.monotonic() + 120
        while len(reports) < count:
            assert child.poll() is None, "the remote window's process ended early"
            assert time.monotonic() < deadline, "the page did not report within 120 s"
            time.sleep(0.2)
    finally:
        child.send_signal(signal.SIGINT)  # the window closes as a person closes it
        child.wait(30)


UNANSWERED_READ = """
import threading
from webview.event import Event
from westeros import remote

class Window:  # a page has loaded, and the window closes before the key read is answered
    def __init__(self):
        self.events = type("Events", (), {})()
        self.events.loaded = Event(self)

    def get_current_url(self):
        return "https://westeros.example.org/lobbies"

    def run_js(self, script):
        threading.Event().wait()  # pywebview waits for an answer the closed window never sends

window = Window()
remote.tell_accounts(window, "https://westeros.example.org")
window.events.loaded.set()
print("window closed", flush=True)
"""


def test_a_window_closed_while_its_key_is_read_lets_its_process_end() -> None:
    """The key is read after each page load, with pywebview's ``run_js``, which waits for
    the page's answer. A window closed while a page loads never answers (CI saw a closed
    remote window's process still running 30 s on): the process ends all the same."""
    done = subprocess.run(
        [sys.executable, "-c", UNANSWERED_READ], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "window closed\n"), done.stderr


@needs_window
def test_a_remote_window_keeps_its_server_s_storage_and_no_other_server_sees_it(
    window_env: Path,
) -> None:
    one, other = KeyServer(), KeyServer()
    run_until_reported(f"{one.url}/join", one.reports, 1)
    run_until_reported(f"{one.url}/lobbies", one.reports, 2)  # days later, the same server
    run_until_reported(f"{other.url}/join", other.reports, 1)
    first, again = one.reports
    assert first["fresh"] and not again["fresh"]
    assert again["key"] == first["key"]  # still that player there
    assert other.reports[0]["fresh"] and other.reports[0]["key"] != first["key"]
    profiles = window_env / "westeros" / remote.PROFILES
    assert remote.profile_folder(one.url).parent == profiles
    assert sorted(p.name for p in profiles.iterdir()) == sorted(
        remote.profile_folder(s.url).name for s in (one, other)
    )


@needs_window
def test_a_remote_window_tells_the_app_the_key_of_the_player_it_opened(
    window_env: Path, server: OnlineServer
) -> None:
    alice = register(server, "Alice")
    lobby = alice.post("/api/lobbies", {"players": 3, "name": "Kings"})["lobby"]
    told: list[tuple[str, str]] = []
    link = f"{server.url}/join#key={alice.key}&lobby={lobby['id']}"  # as the hosting app does
    child = remote.open_window(link, on_account=lambda o, k: told.append((o, k)))
    try:
        wait_for(lambda: told, timeout=120)
    finally:
        child.terminate()
        child.wait(30)
    assert told[0] == (server.url, alice.key)
    assert len(set(told)) == 1  # told once per key, not at every page


def test_the_watcher_sends_the_key_in_the_online_server_s_own_header() -> None:
    """The watcher names the header without importing the online server (start-up)."""
    from westeros.online.app import KEY_HEADER

    assert turn_watch.KEY_HEADER == KEY_HEADER
