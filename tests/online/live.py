"""Real online servers for the scale-out tests: ``westeros server`` processes sharing one
PostgreSQL schema and one Redis database, and players as WebSocket clients (their key in
the ``X-Westeros-Key`` header, never in a URL)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

ENV_PG = "WESTEROS_TEST_POSTGRES_URL"
ENV_REDIS = "WESTEROS_TEST_REDIS_URL"
STARTUP_S = 60.0


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def shared_services() -> tuple[str, str]:
    """(PostgreSQL URL, Redis URL) from the environment, or skip with the reason."""
    pg, redis_url = os.environ.get(ENV_PG), os.environ.get(ENV_REDIS)
    if not pg or not redis_url:
        pytest.skip(
            f"scale-out tests need PostgreSQL and Redis: set {ENV_PG} (e.g. "
            f"postgresql://postgres@127.0.0.1:5432/wt_online) and {ENV_REDIS} "
            "(e.g. redis://127.0.0.1:6379/7)"
        )
    import redis
    import sqlalchemy as sa

    try:
        redis.Redis.from_url(redis_url).ping()
        sa.create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1)).connect().close()
    except Exception as exc:
        pytest.skip(f"PostgreSQL or Redis is not reachable ({exc})")
    return pg, redis_url


@contextlib.contextmanager
def fresh_schema(pg: str) -> Iterator[str]:
    """A new PostgreSQL schema (dropped afterwards); yields the URL whose search path is it."""
    import sqlalchemy as sa

    schema = f"online_test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(pg.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as db:
        db.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        joiner = "&" if "?" in pg else "?"
        yield f"{pg}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with engine.begin() as db:
            db.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@dataclasses.dataclass
class Server:
    """One ``westeros server`` process."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """Kill the process at once (no clean shutdown)."""
        self.process.kill()
        self.process.wait(10)


def start_server(database: str, redis_url: str, prefix: str, workers: int = 1) -> Server:
    """Start ``westeros server`` on a free port, sharing ``database`` and Redis."""
    return launch_server(
        "--database",
        database,
        "--redis",
        redis_url,
        "--workers",
        str(workers),
        env={"WESTEROS_REDIS_PREFIX": prefix},
    )


def launch_server(*arguments: str, env: dict[str, str] | None = None) -> Server:
    """Start ``westeros server --port <free> *arguments`` and wait until it answers."""
    port = free_port()
    env = {**os.environ, "WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})}
    command = [sys.executable, "-m", "westeros.cli", "server", "--port", str(port), *arguments]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    server = Server(process, port)
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with code {process.returncode}")
        if answers(server):
            return server
        time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not start")


def answers(server: Server) -> bool:
    """Does ``server`` answer its lobby list (HTTP 200) now?"""
    with (
        contextlib.suppress(OSError),
        urllib.request.urlopen(f"{server.url}/api/lobbies", timeout=2) as reply,
    ):
        return reply.status == 200
    return False


@dataclasses.dataclass
class Remote:
    """A person talking to one server: name, key and the server they use."""

    name: str
    key: str
    server: Server

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST JSON as this person (their key in the header); the reply's JSON."""
        status, data = post_json(f"{self.server.url}{path}", body or {}, self.key)
        assert status == 200, data
        return data

    def socket(self, path: str) -> Any:
        from websockets.sync.client import connect

        return connect(f"{self.server.ws}{path}", additional_headers={"x-westeros-key": self.key})


def post_json(url: str, body: dict[str, Any], key: str | None = None) -> tuple[int, Any]:
    """POST ``body`` as JSON; (status, reply JSON)."""
    headers = {"content-type": "application/json", **({"x-westeros-key": key} if key else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def register(server: Server, name: str, key: str | None = None) -> Remote:
    """Register ``name`` on ``server`` (a new key unless ``key`` is given)."""
    status, data = post_json(f"{server.url}/api/players", {"name": name, "key": key})
    assert status == 200, data
    return Remote(name, data["key"], server)


def receive(ws: Any, timeout: float = 30.0) -> dict[str, Any]:
    """The next message of ``ws`` as JSON."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message
