"""``WS /ws/games/{id}/seats/{house}``: one seat's connection. Its own view and log are pushed
after every accepted action; its actions, hints and pings go through the GameSession."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from westeros.store import StoreError
from westeros.store.errors import GameNotFound

from ...session import WrongSeat, error_reply
from ..core import Core, seat_refusal
from ..narrate import Narrator

CLOSE_NO_GAME = 4404
CLOSE_REFUSED_SEAT = 4403


async def serve_seat(core: Core, websocket: WebSocket, game_id: str, house: str) -> None:
    """One seat's connection: attach to the session, pump its updates, pass its messages."""
    await websocket.accept()
    try:
        session = await asyncio.to_thread(core.games.get, game_id)
        if house not in session.players:
            raise WrongSeat(f"{house!r} does not play in this game")
    except (GameNotFound, WrongSeat, StoreError) as exc:
        await websocket.send_json(error_reply(exc, None))
        await websocket.close(code=CLOSE_NO_GAME)
        return
    refusal = seat_refusal(session, house)
    if refusal is not None:
        await websocket.send_json(error_reply(WrongSeat(refusal), None))
        await websocket.close(code=CLOSE_REFUSED_SEAT)
        return
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def deliver(message: dict[str, Any] | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, message)

    async def pump() -> None:
        while (message := await queue.get()) is not None:
            try:
                await websocket.send_json(message)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    narrate = Narrator(session.state.rules, core.catalogs.translations(core.language(websocket)))
    detach = await asyncio.to_thread(session.attach, house, deliver, narrate)
    sender = asyncio.create_task(pump())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            reply = await asyncio.to_thread(session.handle, house, data)
            if reply is not None:
                deliver(reply)
    except WebSocketDisconnect:
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
