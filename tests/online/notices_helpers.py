"""Helpers of the turn-notice tests (issue 40): a real SMTP server (aiosmtpd) that keeps what
it receives or refuses it, a local HTTP receiver (webhooks, push endpoints) that answers,
refuses or hangs, the online server configured to send to them, and a person who opens their
board, answers the decision they are asked, and closes it again."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from .helpers import Player, decide, receive_until, wait_for
from .live import free_port

SENDER = "Westeros <turns@westeros.test>"


class Mailbox:
    """An SMTP server on 127.0.0.1 (aiosmtpd): keeps every message it is given, or, with
    ``refuse``, answers every one with 554."""

    def __init__(self, *, refuse: bool = False) -> None:
        self.refuse = refuse
        self.messages: list[EmailMessage] = []
        self.attempts = 0
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.attempts += 1
        if self.refuse:
            return "554 5.7.1 refused by the test's SMTP server"
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages received for ``address``."""
        return [m for m in list(self.messages) if m["To"] == address]

    def wait(self, address: str, count: int, timeout: float = 60.0) -> list[EmailMessage]:
        """Wait until ``address`` has ``count`` messages; all of them."""
        wait_for(lambda: len(self.to(address)) >= count, timeout=timeout)
        return self.to(address)

    def env(self) -> dict[str, str]:
        """The server's environment for sending here."""
        return {
            "WESTEROS_SMTP_HOST": "127.0.0.1",
            "WESTEROS_SMTP_PORT": str(self.port),
            "WESTEROS_SMTP_TLS": "none",
            "WESTEROS_SMTP_FROM": SENDER,
            "WESTEROS_SMTP_TIMEOUT": "10",
        }


@contextlib.contextmanager
def mailbox(*, refuse: bool = False) -> Iterator[Mailbox]:
    """A running ``Mailbox``."""
    box = Mailbox(refuse=refuse)
    box.controller.start()
    try:
        yield box
    finally:
        box.controller.stop()


class Receiver:
    """An HTTP server on 127.0.0.1 that records every POST (path, headers, body) and answers
    ``status`` — or, with ``hang``, never answers until it is closed."""

    def __init__(self, *, status: int = 204, hang: bool = False) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver.requests.append((self.path, headers, body))
                if hang:
                    receiver.release.wait(120)
                    return
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        """The URL of ``path`` here."""
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        """The requests received at ``path``."""
        return [(h, b) for p, h, b in list(self.requests) if p == path]


@contextlib.contextmanager
def receiver(*, status: int = 204, hang: bool = False) -> Iterator[Receiver]:
    """A running ``Receiver``."""
    found = Receiver(status=status, hang=hang)
    found.thread.start()
    try:
        yield found
    finally:
        found.release.set()
        found.server.shutdown()
        found.server.server_close()


@contextlib.contextmanager
def notice_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], store_url: str = ""
) -> Iterator[Any]:
    """The online server (SQLite unless ``store_url``), its lifespan running, its notices
    configured by ``env`` (webhooks and push endpoints may be on this machine)."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    monkeypatch.setenv("WESTEROS_NOTICE_PRIVATE_TARGETS", "1")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    from westeros.online.app import create_online_app

    url = store_url or f"sqlite:///{tmp_path / 'online.db'}"
    app = create_online_app(store_url=url, ai_budget=0.05)
    with TestClient(app):
        yield app


def people(app: Any) -> Callable[[str], Player]:
    """``person(name)``: a registered person with their own client (as ``conftest.player``)."""

    def make(name: str) -> Player:
        client = TestClient(app)
        reply = client.post("/api/players", json={"name": name})
        assert reply.status_code == 200, reply.text
        data = reply.json()
        return Player(name, data["key"], data["id"], client)

    return make


def links(mail: EmailMessage) -> list[str]:
    """The URLs in an e-mail's text."""
    body = mail.get_body(("plain",))
    assert body is not None
    return re.findall(r"https?://\S+", body.get_content())


def text(mail: EmailMessage) -> str:
    """An e-mail's text."""
    body = mail.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def path_of(url: str) -> str:
    """The path and query of ``url`` (the test clients speak to the app directly)."""
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


def verify(person: Player, box: Mailbox, address: str, language: str = "en") -> EmailMessage:
    """``person`` gives ``address`` and follows the link sent to it; the link's e-mail."""
    reply = person.post("/api/notices/email", {"address": address, "language": language})
    assert reply.status_code == 200, reply.text
    assert reply.json()["email"]["verified"] is False
    mail = box.wait(address, 1)[-1]
    page = person.client.get(path_of(links(mail)[0]))
    assert page.status_code == 200
    assert 'data-testid="verified"' in page.text
    return mail


def take_turn(person: Player, game_id: str, house: str) -> str:
    """``person`` opens their board, answers the decision they are asked and closes it;
    the kind of that decision."""
    with person.client.websocket_connect(f"/ws/games/{game_id}/seats/{house}") as ws:
        view = receive_until(
            ws, lambda m: m["type"] == "view" and bool(m["view"].get("prompt")), limit=2000
        )
        kind = str(view["view"]["prompt"]["kind"])
        action = decide(view["view"], seed=view["state_id"])
        ws.send_json({"type": "action", "action": action, "state_id": view["state_id"]})
        reply = receive_until(
            ws,
            lambda m: (
                m["type"] == "error" or (m["type"] == "view" and m["state_id"] > view["state_id"])
            ),
            limit=2000,
        )
        assert reply["type"] == "view", reply
    return kind


def announced(app: Any, game_id: str, house: str) -> str | None:
    """The decision of ``house`` last announced in ``game_id`` (its digest)."""
    return app.state.notices.store.announced(game_id).get(house)


def next_announced(app: Any, game_id: str, house: str, before: str | None) -> str:
    """Wait until a decision of ``house`` other than ``before`` is announced and its notices
    are sent (or failed); its digest."""
    found = wait_for(
        lambda: (d := announced(app, game_id, house)) is not None and d != before and d, timeout=60
    )
    assert app.state.notices.wait_idle(60)
    return str(found)
