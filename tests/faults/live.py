"""The fault suite's pieces (issue 35, acceptance 3): a real ``westeros server`` with several
workers on 127.0.0.1 sharing a fresh PostgreSQL schema and a Redis, its processes as /proc
shows them, a Redis of the test's own that a test may stop and start again, and a table of
people playing over real WebSockets whose every socket is checked against the store.

Nothing here is a mock: the server is the ``westeros`` command, the clients are websockets
clients that answer the prompts of the view they were sent, and every check reads the
database the server wrote (the game re-run from its log, every recorded hash checked)."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.online.helpers import decide
from tests.online.live import Remote, Server, answers, free_port, register
from westeros.engine import pending

STARTUP_S = 90.0
RECONNECT_S = 45.0
# refusals a person meets in a race or a fault and answers by deciding again (by wire code)
AGAIN = (
    "stale-state",
    "not-saved",
    "illegal/not-pending",
    "illegal/already-revealed",
    "illegal/wrong-action-kind",
)


# ---------------------------------------------------------------------------- processes
def _stat(pid: int) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = _stat(int(entry.name))
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return sorted(found)


def running(pid: int) -> bool:
    """Is process ``pid`` there and not a zombie?"""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def cmdline(pid: int) -> str:
    """The command line of ``pid`` ("" once it has gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def spawned(pid: int) -> list[int]:
    """The children of ``pid`` started by multiprocessing's spawn (uvicorn's workers of a
    server; the AI-pool processes of a worker), not its resource tracker."""
    return [c for c in children(pid) if "spawn_main" in cmdline(c)]


# ---------------------------------------------------------------------------- services
def postgres_and_redis() -> tuple[str, str]:
    """(PostgreSQL URL, Redis URL) of the CI services, or skip with the reason."""
    from tests.online.live import shared_services

    return shared_services()


class PrivateRedis:
    """A ``redis-server`` of this test's own (its port, its folder), started with the flags
    of the shared one (no persistence), so that stopping it hurts no other test."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None or shutil.which("redis-cli") is None:
            pytest.skip("the Redis fault tests need redis-server and redis-cli on the PATH")
        self.binary = binary
        self.folder = folder
        self.port = free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/7"

    def _answers(self) -> bool:
        reply = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
        )
        return reply.stdout.strip() == "PONG"

    def start(self) -> None:
        """Start it (as common.md's command does, on this port and folder); wait for PONG."""
        subprocess.run(
            [
                self.binary,
                "--daemonize",
                "yes",
                "--bind",
                "127.0.0.1",
                "-::1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--logfile",
                str(self.folder / "redis.log"),
                "--pidfile",
                str(self.folder / "redis.pid"),
            ],
            check=True,
        )
        deadline = time.monotonic() + 20
        while not self._answers():
            assert time.monotonic() < deadline, "the private redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """``redis-cli shutdown nosave``: every connection drops, every key is lost."""
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True
        )
        deadline = time.monotonic() + 20
        while self._answers():
            assert time.monotonic() < deadline, "the private redis-server did not stop"
            time.sleep(0.05)


@contextlib.contextmanager
def fresh_database(pg: str) -> Iterator[tuple[str, str]]:
    """A new PostgreSQL schema (dropped afterwards): yields (the URL the server uses, whose
    connections carry an ``application_name`` of their own, so a test can kill exactly
    them; the URL the test reads with)."""
    from tests.online.live import fresh_schema

    name = f"westeros-faults-{uuid.uuid4().hex[:10]}"
    with fresh_schema(pg) as reader:
        yield f"{reader}&application_name={name}", reader


def application_name(server_url: str) -> str:
    """The ``application_name`` of a server URL made by ``fresh_database``."""
    return server_url.rsplit("application_name=", 1)[1]


# ---------------------------------------------------------------------------- the server
@dataclasses.dataclass
class FaultServer(Server):
    """One ``westeros server --workers N`` process (its address as ``Server`` gives it) and
    what it printed."""

    database: str
    redis_url: str
    log_path: Path

    def workers(self) -> list[int]:
        """The pids of its worker processes now."""
        return spawned(self.process.pid)

    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL after 20 s) and every worker with it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


# ``westeros server`` with its workers run by ``westeros.online.supervisor`` (what
# online/serve.py is to call instead of ``uvicorn.run``; until it does, put in place here)
SUPERVISED = (
    "import sys, uvicorn; from westeros.online import supervisor; uvicorn.run = supervisor.run; "
    "from westeros.cli import main; sys.exit(main(sys.argv[1:]))"
)


def launch(
    database: str, redis_url: str, folder: Path, workers: int = 2, *, supervised: bool = False
) -> FaultServer:
    """Start ``westeros server`` on a free port with ``workers`` workers (``supervised``:
    watched by ``westeros.online.supervisor``); wait until it answers and every worker
    runs."""
    port = free_port()
    log_path = folder / f"server-{port}.log"
    env = {
        **os.environ,
        "WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "1",
        "WESTEROS_REDIS_PREFIX": f"faults-{uuid.uuid4().hex[:8]}",
        "PYTHONUNBUFFERED": "1",
    }
    boot = ("-c", SUPERVISED) if supervised else ("-m", "westeros.cli")
    command = [
        *(sys.executable, *boot),
        *("server", "--port", str(port)),
        *("--database", database, "--redis", redis_url, "--workers", str(workers)),
    ]
    with log_path.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = FaultServer(process, port, database, redis_url, log_path)
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited ({process.returncode}):\n{server.log()}")
        if answers(server) and len(server.workers()) == workers:
            return server
        time.sleep(0.2)
    server.stop()
    raise AssertionError(f"the server did not start:\n{server.log()}")


def socket_worker(server: FaultServer, ws: Any) -> int | None:
    """The worker process that holds the server side of client socket ``ws`` (matched in
    /proc/net/tcp by its two ports, then by the socket's inode among the workers' files)."""
    client_port = ws.socket.getsockname()[1]
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote = fields[1], fields[2]
                if (
                    int(local.rsplit(":", 1)[1], 16) == server.port
                    and int(remote.rsplit(":", 1)[1], 16) == client_port
                ):
                    inode = fields[9]
    if inode is None:
        return None
    for worker in server.workers():
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{worker}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) == f"socket:[{inode}]":
                        return worker
    return None


# ---------------------------------------------------------------------------- the players
_texts = itertools.count(1)


class Client:
    """One socket of a game: a person's seat (answering its prompts when ``answers``) or a
    spectator's (``person`` None). Like the board, it opens again when the server drops it,
    and like a person it decides again after a refusal in ``AGAIN``."""

    def __init__(
        self, server: FaultServer, game_id: str, person: Remote | None, house: str | None
    ) -> None:
        self.server = server
        self.person = person
        self.house = house
        self.answers = False
        self.path = f"/ws/games/{game_id}/seats/{house}" if house else f"/ws/games/{game_id}/watch"
        self.last: dict[str, Any] = {}
        self.drops = 0
        self.accepted: list[int] = []  # the serials of the actions this socket had accepted
        self.refused: list[dict[str, Any]] = []
        self.again: list[str] = []
        self.chat: dict[int, dict[str, Any]] = {}
        self.sent_chat: dict[str, str | None] = {}  # text: recipient
        self._answered: set[int] = set()
        self._ids = itertools.count(1)
        self.ws: Any = None
        self.open()

    def open(self) -> None:
        """Open (again) the socket and read its first view (retrying while the server
        refuses or is not there yet)."""
        from websockets.sync.client import connect

        headers = {"x-westeros-key": self.person.key} if self.person else {}
        deadline = time.monotonic() + RECONNECT_S
        while True:
            try:
                self.ws = connect(f"{self.server.ws}{self.path}", additional_headers=headers)
                while True:
                    message = json.loads(self.ws.recv(timeout=30))
                    if message["type"] == "view":
                        self.last = message
                        return
                    self._note(message)
            except (OSError, TimeoutError, ValueError, KeyError, EOFError) as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.path} could not open again: {exc}") from exc
                with contextlib.suppress(Exception):
                    self.ws.close()
                time.sleep(0.3)
            except Exception as exc:  # websockets' ConnectionClosed and handshake errors
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.path} could not open again: {exc}") from exc
                time.sleep(0.3)

    @property
    def state_id(self) -> int:
        return int(self.last["state_id"])

    def _note(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "view":
            self.last = message
        elif kind == "accepted":
            self.accepted.append(int(message["state_id"]))
        elif kind == "chat":
            self.chat[int(message["id"])] = message
        elif kind == "error":
            code = str(message.get("code"))
            if code in AGAIN:
                self.again.append(code)
                self._answered.clear()  # decide again on the view as it is now
            else:
                self.refused.append(message)

    def pump(self, seconds: float) -> None:
        """Read for up to ``seconds``; answer this seat's prompt on the latest view once no
        more messages are waiting; open the socket again if the server dropped it."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                self._answer()
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._note(json.loads(self.ws.recv(timeout=min(left, 0.1))))
            except TimeoutError:
                continue
            except (OSError, EOFError) as exc:
                self._dropped(exc)
            except Exception as exc:
                if type(exc).__name__.startswith("Connection"):
                    self._dropped(exc)
                else:
                    raise

    def _dropped(self, exc: BaseException) -> None:
        self.drops += 1
        print(f"  {self.path}: dropped ({type(exc).__name__}); opening it again")
        self.open()
        self._answered.clear()  # an answer sent before the drop may never have arrived

    def _answer(self) -> None:
        if not self.answers or self.house is None:
            return
        view = self.last["view"]
        if view.get("prompt") is None or self.state_id in self._answered:
            return
        self._answered.add(self.state_id)
        action = decide(view, seed=self.state_id)
        message = {
            "type": "action",
            "action": action,
            "state_id": self.state_id,
            "id": next(self._ids),
        }
        self.ws.send(json.dumps(message))

    def say(self, to: str | None = None) -> str:
        """Send a chat line (a raven when ``to``), unique in the test run; its text."""
        text = f"line {next(_texts)} from {self.house or 'a spectator'}"
        message: dict[str, Any] = {"type": "chat", "text": text}
        if to is not None:
            message["to"] = to
        self.sent_chat[text] = to
        try:
            self.ws.send(json.dumps(message))
        except Exception as exc:  # dropped: the board opens the socket again and resends
            if not type(exc).__name__.startswith("Connection"):
                raise
            self._dropped(exc)
            self.ws.send(json.dumps(message))
        return text

    def acknowledged(self) -> dict[str, int]:
        """The lines this socket sent that came back to it from the server (text: id)."""
        return {m["text"]: i for i, m in self.chat.items() if m["text"] in self.sent_chat}

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    def __str__(self) -> str:
        prompt = (self.last.get("view") or {}).get("prompt") or {}
        return (
            f"{self.house or 'spectator'} at {self.state_id} (prompt {prompt.get('kind')}, "
            f"refused {[m.get('code') for m in self.refused]}, {len(self.again)} again)"
        )


@dataclasses.dataclass
class Table:
    """A 3-player game on a FaultServer: Alys (stark, the host) and Brynden (lannister) are
    people, baratheon is the baseline AI; each person has two seat sockets (the first one
    answers the prompts), and two spectators watch."""

    server: FaultServer
    reader: str  # the test's own database URL
    lobby_id: str
    game_id: str
    people: dict[str, Remote]
    seats: list[Client]
    spectators: list[Client]

    @property
    def clients(self) -> list[Client]:
        return [*self.seats, *self.spectators]

    @property
    def answering(self) -> list[Client]:
        return [c for c in self.seats if c.answers]

    def pump(self, seconds: float) -> None:
        """Let every socket read (and the answering ones play) for about ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for client in self.clients:
                client.pump(0.05)

    def play(self, actions: int, timeout: float = 120.0) -> int:
        """Play until the store holds ``actions`` more actions; the count then."""
        for client in self.answering:
            client.answers = True
        target = stored_count(self.reader, self.game_id) + actions
        deadline = time.monotonic() + timeout
        while (count := stored_count(self.reader, self.game_id)) < target:
            assert time.monotonic() < deadline, f"the game stalled at action {count}: {self}"
            self.pump(0.5)
        return count

    def settle(self, timeout: float = 90.0) -> Any:
        """Stop answering and wait until the game waits for the people only and every
        socket shows the store's last action; that state, re-run from the store's log."""
        for client in self.answering:
            client.answers = False
        deadline = time.monotonic() + timeout
        while True:
            self.pump(0.5)
            count = stored_count(self.reader, self.game_id)
            state = stored_state(self.reader, self.game_id, count)
            only_people = set(pending(state)) <= set(self.people)
            shown = [(c.path, c.state_id) for c in self.clients]  # a seat has two sockets
            settled = only_people and all(s == count for _, s in shown)
            if settled and stored_count(self.reader, self.game_id) == count:
                return state
            assert time.monotonic() < deadline, (
                f"the sockets did not settle: store at {count}, pending "
                f"{sorted(pending(state))}, sockets {shown}"
            )

    def close(self) -> None:
        for client in self.clients:
            client.close()

    def __str__(self) -> str:
        return "; ".join(map(str, self.clients))


def seat_table(server: FaultServer, reader: str) -> Table:
    """Register the people, create, join and start the game, open every socket (until both
    workers hold some of the seat sockets, when there are two)."""
    alys, brynden = register(server, "Alys"), register(server, "Brynden")
    created = alys.post(
        "/api/lobbies",
        {
            "players": 3,
            "house": "stark",
            "open_houses": ["stark", "lannister"],
            "ai_level": "baseline",
            "grace_seconds": 3600,
        },
    )
    lobby_id = created["lobby"]["id"]
    brynden.post("/api/join", {"invite": created["invites"]["lannister"].split("=", 1)[1]})
    brynden.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = alys.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]
    people = {"stark": alys, "lannister": brynden}
    seats: list[Client] = []
    for _ in range(12):
        for client in seats:
            client.close()
        seats = [Client(server, game_id, people[h], h) for h in ("stark", "lannister") * 2]
        if len({socket_worker(server, c.ws) for c in seats}) >= min(2, len(server.workers())):
            break
    for client in seats[:2]:
        client.answers = True
    spectators = [Client(server, game_id, None, None) for _ in range(2)]
    return Table(server, reader, lobby_id, game_id, people, seats, spectators)


# ---------------------------------------------------------------------------- the store
def _read(reader: str, query: str, **params: Any) -> list[Any]:
    from westeros.store.db import create_db_engine

    engine = create_db_engine(reader)
    try:
        with engine.connect() as db:
            return list(db.execute(sa.text(query), params).all())
    finally:
        engine.dispose()


def stored_count(reader: str, game_id: str) -> int:
    """How many actions the store holds for ``game_id``."""
    rows = _read(reader, "SELECT action_count FROM games WHERE id = :id", id=game_id)
    return int(rows[0][0])


def stored_actions(reader: str, game_id: str) -> dict[int, str]:
    """Every stored action of ``game_id``: serial → house."""
    rows = _read(reader, "SELECT seq, house FROM actions WHERE game_id = :id", id=game_id)
    return {int(seq): house for seq, house in rows}


def stored_chat(reader: str, lobby_id: str) -> dict[int, tuple[str, str | None, str | None]]:
    """Every stored chat line of ``lobby_id``: id → (text, house, to)."""
    rows = _read(
        reader,
        "SELECT id, text, house, to_house FROM chat_messages WHERE lobby_id = :id",
        id=lobby_id,
    )
    return {int(i): (text, house, to) for i, text, house, to in rows}


def stored_state(reader: str, game_id: str, serial: int) -> Any:
    """The state after action ``serial``, re-run from the first state and the stored log
    (every recorded hash checked)."""
    from westeros.saves import open_store
    from westeros.store import Timeline

    store = open_store(reader, migrate=False)
    try:
        info, entries = store.game_log(game_id)
        return Timeline(store.first_state(info), entries[:serial]).state(serial)
    finally:
        store.close()


def same(view: Any) -> Any:
    """``view`` as it reads after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(view))


def check_nothing_lost(table: Table) -> None:
    """Every action a socket had accepted is stored, by its house; the log has no gap; every
    chat line a socket had acknowledged is stored as sent."""
    actions = stored_actions(table.reader, table.game_id)
    count = stored_count(table.reader, table.game_id)
    assert sorted(actions) == list(range(1, count + 1)), "the stored log has a gap"
    for client in table.seats:
        for serial in client.accepted:
            assert actions.get(serial) == client.house, (client.path, serial, actions.get(serial))
    chat = stored_chat(table.reader, table.lobby_id)
    for client in table.seats:
        for text, line_id in client.acknowledged().items():
            assert chat[line_id][0] == text, (text, chat.get(line_id))
            assert chat[line_id][1] == client.house and chat[line_id][2] == client.sent_chat[text]


def check_views(table: Table, state: Any) -> None:
    """Every socket shows exactly its seat's view of ``state`` (a spectator: the public
    view), at the state's serial."""
    from westeros.engine.view import player_view

    for client in table.clients:
        assert client.state_id == state.serial, (client.path, client.state_id, state.serial)
        assert same(client.last["view"]) == same(player_view(state, client.house)), client.path


def check_chat_reached(table: Table) -> None:
    """Every stored line reached every seat socket that may read it (public: all; a raven:
    its two houses' sockets) and no other."""
    chat = stored_chat(table.reader, table.lobby_id)
    for client in table.seats:
        readable = {
            i for i, (_, house, to) in chat.items() if to is None or client.house in (house, to)
        }
        assert set(client.chat) == readable, (client.path, sorted(readable - set(client.chat)))
