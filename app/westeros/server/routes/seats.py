"""``WS /ws/games/{id}/seats/{house}``: one seat's connection. Its own view and log are pushed
after every accepted action; its actions, hints and pings go through the GameSession.

All of a game's socket work runs on that game's own serial worker (``Games.executor``), never
on a pool shared with other games. Whatever a client sends is answered — an ``error`` reply
with a stable ``code`` for anything refused — and the socket stays open; a message that
cannot be encoded is sent with its text escaped, and if sending fails for any other reason
the socket is closed (1011) rather than left open and silent.

No seat of an online game is served here (issue 35 finding 6): its one authority is the
online server, which the host plays through like any guest; such a socket is refused with
``seat/online`` and closed (4403), before anything of the game is read or sent."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from westeros.store import StoreError
from westeros.store.errors import GameNotFound

from ...session import InternalError, WrongSeat, error_reply
from ..core import Core, seat_refusal
from ..games import HostedOnline
from ..narrate import Narrator

log = logging.getLogger("westeros.server")

CLOSE_NO_GAME = 4404
CLOSE_REFUSED_SEAT = 4403
CLOSE_INTERNAL = 1011
T = TypeVar("T")


def encode(message: dict[str, Any]) -> str:
    """``message`` as JSON text; a text that is not valid Unicode (a lone surrogate) is sent
    escaped (``\\udXXX``) rather than failing the send."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":"))
    return text


def refusal_code(exc: Exception) -> str:
    """The code of a refused connection."""
    if isinstance(exc, GameNotFound):
        return "game/not-found"
    if isinstance(exc, StoreError):
        return "game/unavailable"
    if isinstance(exc, HostedOnline):
        return HostedOnline.code
    return "seat/unknown"


async def serve_seat(core: Core, websocket: WebSocket, game_id: str, house: str) -> None:
    """One seat's connection: attach to the session, pump its updates, pass its messages."""
    loop = asyncio.get_running_loop()
    executor = core.games.executor(game_id)

    async def on_game(function: Callable[..., T], *args: Any) -> T:
        return await loop.run_in_executor(executor, functools.partial(function, *args))

    await websocket.accept()
    try:
        session = await on_game(core.games.get, game_id)
        if house not in session.players:
            raise WrongSeat(f"{house!r} does not play in this game", "seat/unknown")
    except (GameNotFound, WrongSeat, StoreError, HostedOnline) as exc:
        core.games.release(game_id)
        refused = error_reply(exc, None)
        refused["code"] = refusal_code(exc)
        await websocket.send_text(encode(refused))
        online = isinstance(exc, HostedOnline)
        await websocket.close(code=CLOSE_REFUSED_SEAT if online else CLOSE_NO_GAME)
        return
    refusal = seat_refusal(session, house)
    if refusal is not None:
        await websocket.send_text(encode(error_reply(WrongSeat(refusal, "seat/computer"), None)))
        await websocket.close(code=CLOSE_REFUSED_SEAT)
        return
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def deliver(message: dict[str, Any] | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, message)

    async def pump() -> None:
        while (message := await queue.get()) is not None:
            try:
                await websocket.send_text(encode(message))
            except (WebSocketDisconnect, RuntimeError, OSError):
                return
            except Exception:
                log.exception("could not send a message to %s of game %s", house, game_id)
                with contextlib.suppress(Exception):
                    await websocket.close(code=CLOSE_INTERNAL)
                return

    def handle(data: str | bytes | None) -> dict[str, Any]:
        try:
            return session.handle(house, data)
        except Exception:
            log.exception("a message from %s of game %s failed", house, game_id)
            return error_reply(InternalError("the message could not be handled"), None)

    narrate = Narrator(session.state.rules, core.catalogs.translations(core.language(websocket)))
    detach = await on_game(session.attach, house, deliver, narrate)
    sender = asyncio.create_task(pump())
    try:
        while not sender.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            deliver(await on_game(handle, data))
    except (WebSocketDisconnect, RuntimeError):  # gone, or the game was deleted meanwhile
        pass
    finally:
        detach()
        deliver(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, timeout=5)


def router(core: Core) -> APIRouter:
    """The seat socket."""
    api = APIRouter()

    @api.websocket("/ws/games/{game_id}/seats/{house}")
    async def seat(websocket: WebSocket, game_id: str, house: str) -> None:
        await serve_seat(core, websocket, game_id, house)

    return api
