"""A socket's two directions on the online server (issue 35 finding 12; docs/online.md
"Limits"): ``Outbox``, its queue of messages to send — filled from any thread, emptied by one
task, bounded, each send given a time limit — and ``incoming``, the messages it sends,
counted against its rate (table voice's signals against a bucket of their own, sized for the
bursts of ICE candidates a join sends). A socket whose reader falls behind (the queue is full,
or a send waits longer than the limit) is closed with ``CLOSE_TOO_SLOW``: it holds no more of the
server's memory than its queue, and its reading side stops at once."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from westeros.session import error_reply
from westeros.session.messages import MAX_MESSAGE_CHARS

from .limits import CLOSE_TOO_SLOW, Limits, MessageRate, TooFast

log = logging.getLogger("westeros.online")

CLOSE_WAIT_S = 1.0
"""How long a socket that fell behind may take to accept its close frame."""

Item = dict[str, Any] | int | None


def message_text(message: dict[str, Any]) -> str:
    """``message`` as JSON text, by orjson (encoding the views was the largest cost of a
    broadcast with the standard encoder); what orjson refuses (a lone surrogate in a text) is
    sent escaped by the standard encoder."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message)


def client_address(connection: HTTPConnection) -> str:
    """The peer's address as the server sees it (through trusted proxies: the app's
    ``Guard``, ``--forwarded-allow-ips``)."""
    return connection.client.host if connection.client is not None else "unknown"


class Outbox:
    """A socket's outgoing queue (see the module docstring): ``deliver`` a message or
    ``close`` with a code from any thread; ``gone`` is set once nothing more will be sent."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.limit = limits.send_queue
        self.timeout = limits.send_timeout
        self.rate = MessageRate(limits)
        self.signals = MessageRate(limits, voice=True)
        self.loop = asyncio.get_running_loop()
        self.gone = asyncio.Event()
        self._queue: collections.deque[Item] = collections.deque()
        self._ready = asyncio.Event()
        self.closing: asyncio.Future[None] | None = None
        self.task = asyncio.create_task(self._pump())

    def deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (any thread)."""
        self.loop.call_soon_threadsafe(self._put, message)

    def close(self, code: int) -> None:
        """Close the socket with ``code`` once what is queued before is sent (any thread)."""
        self.loop.call_soon_threadsafe(self._put, code)

    def _put(self, item: Item) -> None:
        if self.gone.is_set():
            return
        if isinstance(item, dict) and len(self._queue) >= self.limit:
            self._fall_behind(f"{self.limit} messages were waiting to be sent")
            return
        self._queue.append(item)
        self._ready.set()

    async def _pump(self) -> None:
        while True:
            await self._ready.wait()
            if not self._queue:
                self._ready.clear()
                continue
            item = self._queue.popleft()
            if item is None:
                return
            try:
                if isinstance(item, int):
                    await asyncio.wait_for(self.websocket.close(code=item), self.timeout)
                    self.gone.set()
                    return
                await asyncio.wait_for(self.websocket.send_text(message_text(item)), self.timeout)
            except TimeoutError:
                self._fall_behind(f"a message waited over {self.timeout:g} s to be sent")
                return
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.gone.set()
                return

    def _fall_behind(self, why: str) -> None:
        """The reader is too slow: drop what is queued, stop sending and close the socket
        (if it still takes a close frame; the server aborts the connection otherwise)."""
        if self.gone.is_set():
            return
        self.gone.set()
        self._queue.clear()
        log.info("closing a socket of %s that fell behind: %s", client_address(self.websocket), why)
        if self.task is not asyncio.current_task():
            self.task.cancel()
        self.closing = asyncio.ensure_future(self._close_slow(why))

    async def _close_slow(self, why: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.websocket.close(code=CLOSE_TOO_SLOW, reason=f"too slow: {why}"[:120]),
                CLOSE_WAIT_S,
            )

    async def finish(self) -> None:
        """Send what is queued (within the send time limit) and stop."""
        self.loop.call_soon_threadsafe(self._put, None)
        await asyncio.wait({self.task}, timeout=self.timeout)
        if self.closing is not None:
            await asyncio.wait({self.closing}, timeout=CLOSE_WAIT_S * 2)


async def incoming(websocket: WebSocket, out: Outbox) -> AsyncIterator[str | bytes | None]:
    """The messages the socket sends, until it closes or ``out`` is gone. A message over the
    socket's rate is not handled: its sender gets ``online/rate-limited``."""
    gone = asyncio.ensure_future(out.gone.wait())
    try:
        while True:
            receiving = asyncio.ensure_future(websocket.receive())
            await asyncio.wait((receiving, gone), return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                return
            message = receiving.result()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            raw = text if text is not None else message.get("bytes")
            try:
                (out.signals if voice_signal(raw) else out.rate).take()
            except TooFast as exc:
                out.deliver(refusal(exc))
                continue
            yield raw
    finally:
        gone.cancel()


class AfterHistory:
    """The deliver function of a lobby socket that sends the stored chat first: what the hub
    delivers before ``release`` is held, then sent after the stored lines; a chat line
    already among them is never sent again, whether it was held or its delivery reaches the
    socket only after the release (the hub delivers a line to a lobby's sockets one after
    another), until a ``seat`` message (the socket speaks for another seat: the chat that
    seat may read follows, whole). A line stored and delivered while the socket read the
    store reaches it once, in its place."""

    def __init__(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        self._deliver = deliver
        self._held: list[dict[str, Any]] | None = []
        self._stored: set[Any] = set()
        self._lock = threading.Lock()

    def __call__(self, message: dict[str, Any]) -> None:
        with self._lock:
            if self._held is not None:
                self._held.append(message)
                return
            if self._sent(message):
                return
            if message.get("type") == "seat":
                self._stored = set()  # the chat of the seat it speaks for now comes anew
        self._deliver(message)

    def _sent(self, message: dict[str, Any]) -> bool:
        """Is ``message`` a chat line of the stored chat this socket was sent?"""
        return message.get("type") == "chat" and message.get("id") in self._stored

    def release(self, history: list[dict[str, Any]]) -> None:
        """Send the stored chat ``history``, then what was held; deliver at once from now."""
        with self._lock:
            self._stored = {m["id"] for m in history}
            held, self._held = self._held or [], None
            for message in history:
                self._deliver(message)
            for message in held:
                if not self._sent(message):
                    self._deliver(message)


def voice_signal(raw: str | bytes | None) -> bool:
    """Is ``raw`` a table voice ``signal`` message (JSON whose type is voice and op signal)?"""
    if raw is None or len(raw) > MAX_MESSAGE_CHARS:
        return False
    if b'"signal"' not in (raw if isinstance(raw, bytes) else raw.encode()):
        return False
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("type") == "voice" and data.get("op") == "signal"


def refusal(exc: Exception, in_reply_to: Any = None) -> dict[str, Any]:
    """The ``error`` message for a refused online request (``code`` is stable)."""
    message = error_reply(exc, in_reply_to)
    message.setdefault("code", getattr(exc, "code", "") or "")
    return message
