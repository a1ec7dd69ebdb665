"""Helpers of the turn-notice tests of the desktop app (issue 40; tests/desktop/
test_turn_notices.py): a private D-Bus session bus (``dbus-daemon``) with a small
``org.freedesktop.Notifications`` service written with dbus-fast that records each Notify
call and answers as a notification daemon does; the online server under uvicorn on a port
and SQLite file the test chooses (so it can be stopped and started again); and a person of
that server who starts a game against the AI and takes the turns it asks."""

import asyncio
import contextlib
import dataclasses
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusDict, DBusInt32, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.service import ServiceInterface, dbus_method, dbus_signal

from tests.online.helpers import decide
from tests.online.live import free_port

WAIT_S = 60.0
BUS_NAME = "org.freedesktop.Notifications"
BUS_PATH = "/org/freedesktop/Notifications"
Strings = Annotated[list[str], DBusSignature("as")]


@dataclasses.dataclass(frozen=True)
class Shown:
    """One Notify call the service received."""

    id: int
    app_name: str
    summary: str
    body: str
    actions: list[str]


class Notifications(ServiceInterface):
    """A notification daemon as the freedesktop spec describes it, which only records."""

    def __init__(self) -> None:
        super().__init__(BUS_NAME)
        self.shown: list[Shown] = []

    @dbus_method()
    def Notify(
        self,
        app_name: DBusStr,
        replaces_id: DBusUInt32,
        app_icon: DBusStr,
        summary: DBusStr,
        body: DBusStr,
        actions: Strings,
        hints: DBusDict,
        expire_timeout: DBusInt32,
    ) -> DBusUInt32:
        ident = len(self.shown) + 1
        self.shown.append(Shown(ident, app_name, summary, body, list(actions)))
        return ident

    @dbus_method()
    def GetCapabilities(self) -> Strings:
        return ["actions", "body", "body-hyperlinks", "icon-static", "persistence"]

    @dbus_method()
    def GetServerInformation(
        self,
    ) -> Annotated[list[str], DBusSignature("ssss")]:
        return ["Westeros test notifications", "westeros", "1.0", "1.2"]

    @dbus_method()
    def CloseNotification(self, ident: DBusUInt32) -> None:
        self.NotificationClosed(ident, 3)

    @dbus_signal()
    def NotificationClosed(
        self, ident: int, reason: int
    ) -> Annotated[list[int], DBusSignature("uu")]:
        return [ident, reason]

    @dbus_signal()
    def ActionInvoked(self, ident: int, action: str) -> Annotated[list[Any], DBusSignature("us")]:
        return [ident, action]


class SessionBus:
    """A private session bus (``dbus-daemon --session``) and, once ``serve`` is called, the
    ``Notifications`` service on it, run by an asyncio loop in a thread of its own."""

    def __init__(self) -> None:
        self.daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--print-address", "--nofork"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.daemon.stdout is not None
        self.address = self.daemon.stdout.readline().strip()
        assert self.address, "dbus-daemon printed no address"
        self.service = Notifications()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.bus: MessageBus | None = None

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def serve(self) -> None:
        """Register the notification service on the bus."""

        async def serve() -> MessageBus:
            bus = await MessageBus(bus_address=self.address).connect()
            bus.export(BUS_PATH, self.service)
            await bus.request_name(BUS_NAME)
            return bus

        self.bus = self._run(serve())

    @property
    def shown(self) -> list[Shown]:
        """Every notification received so far."""
        return list(self.service.shown)

    def wait_shown(self, count: int, timeout: float = WAIT_S) -> list[Shown]:
        """Wait until ``count`` notifications were received; all of them."""
        deadline = time.monotonic() + timeout
        while len(self.service.shown) < count:
            assert time.monotonic() < deadline, f"{count} notifications never came: {self.shown}"
            time.sleep(0.05)
        return self.shown

    def click(self, ident: int) -> None:
        """Click notification ``ident``: the service says its default action was invoked."""
        self.loop.call_soon_threadsafe(self.service.ActionInvoked, ident, "default")

    def close(self) -> None:
        if self.bus is not None:
            self.bus.disconnect()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.daemon.terminate()
        self.daemon.wait(10)


@contextlib.contextmanager
def session_bus() -> Iterator[SessionBus]:
    """A running ``SessionBus`` (without its service until ``serve``)."""
    bus = SessionBus()
    try:
        yield bus
    finally:
        bus.close()


class OnlineServer:
    """The online server under uvicorn in this process on a fixed port and SQLite file, so
    that it can stop and start again on the same address with the same games."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = f"sqlite:///{tmp_path / 'online.db'}"
        self.app: Any = None
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        from westeros.online.app import create_online_app

        self.app = create_online_app(store_url=self.database, ai_budget=0.05)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            assert self._thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.05)

    def stop(self) -> None:
        self._server.should_exit = True
        assert self._thread is not None
        self._thread.join(15)


@contextlib.contextmanager
def online_server(tmp_path: Path) -> Iterator[OnlineServer]:
    """A running ``OnlineServer`` (stopped at the end if it runs)."""
    server = OnlineServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server._thread is not None and server._thread.is_alive():
            server.stop()


def call(
    method: str, url: str, body: dict[str, Any] | None = None, key: str | None = None
) -> tuple[int, Any]:
    """One JSON request over HTTP; (status, reply JSON)."""
    headers = {"content-type": "application/json", **({"x-westeros-key": key} if key else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@dataclasses.dataclass
class Person:
    """A registered person of an online server, talking to it over HTTP and WebSockets."""

    server: OnlineServer
    name: str
    key: str

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        status, data = call("POST", f"{self.server.url}{path}", body or {}, self.key)
        assert status == 200, (path, status, data)
        return dict(data)

    def inbox(self, after: int | None = None) -> dict[str, Any]:
        query = "" if after is None else f"?after={after}"
        status, data = call("GET", f"{self.server.url}/api/notices/inbox{query}", key=self.key)
        assert status == 200, (status, data)
        return dict(data)

    def start_game(self, name: str) -> tuple[str, str]:
        """Host a 3-player game named ``name`` against the AI and start it: (lobby id, game
        id); the person plays Stark and is asked to place their orders."""
        lobby = self.post(
            "/api/lobbies",
            {"players": 3, "name": name, "house": "stark", "grace_seconds": 3600},
        )["lobby"]
        started = self.post(f"/api/lobbies/{lobby['id']}/start")["lobby"]
        return str(lobby["id"]), str(started["game_id"])

    def take_turn(self, game_id: str, house: str = "stark") -> str:
        """Open the board, answer the decision asked, close it; that decision's kind."""
        from websockets.sync.client import connect

        ws_url = self.server.url.replace("http", "ws", 1)
        path = f"{ws_url}/ws/games/{game_id}/seats/{house}"
        with connect(path, additional_headers={"x-westeros-key": self.key}) as ws:
            view = until(ws, lambda m: m["type"] == "view" and bool(m["view"].get("prompt")))
            kind = str(view["view"]["prompt"]["kind"])
            action = decide(view["view"], seed=view["state_id"])
            ws.send(json.dumps({"type": "action", "action": action, "state_id": view["state_id"]}))
            reply = until(
                ws,
                lambda m: (
                    m["type"] == "error"
                    or (m["type"] == "view" and m["state_id"] > view["state_id"])
                ),
            )
            assert reply["type"] == "view", reply
        return kind


def until(ws: Any, check: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
    """The first message of ``ws`` that passes ``check``."""
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT_S))
        if check(message):
            return message
    raise AssertionError("no such message")


def register(server: OnlineServer, name: str) -> Person:
    """A new person ``name`` on ``server``."""
    status, data = call("POST", f"{server.url}/api/players", {"name": name})
    assert status == 200, data
    return Person(server, name, str(data["key"]))


def wait_for(check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    """Poll ``check`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the condition never held")
