"""Deals on the board (issue 15 point 4; ``westeros.deals.table``), one seat at a time:

- ``GET /games/{id}/deals/{house}``: what the seat's deals panel shows (``DealTable.message``:
  only the seat's own proposals and deals, ``DealBook.seen_by``),
- ``POST /games/{id}/deals/{house}/proposals`` ``{"to", "term": {"kind", "area"}}``: the seat
  offers one term to another house; an AI answers at once,
- ``POST /games/{id}/deals/{house}/replies`` ``{"proposal", "answer"}``: the seat accepts or
  declines a proposal made to it.

A seat acts here as it does on its socket: a house played by a person (a computer's seat is
403 while the game runs, as the board), with its credentials (header ``X-Seat-Credential``,
for seats that have them) — ``session.check_seat``. A refused proposal or reply is 400 with the
reason; an unknown game or house 404. Everything runs on the game's own worker. An online
game's deals are none of the local core's: every seat of it is 403 ``seat/online`` here
(issue 35 finding 6; the online server is its one authority)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from westeros.store import StoreError
from westeros.store.errors import GameNotFound

from ...deals.table import DealError, DealTable
from ...session import SessionError
from ...session.seats import check_seat
from ..core import Core, seat_refusal
from ..games import HostedOnline

CREDENTIAL = "x-seat-credential"


def _refused(status: int, reason: str, code: str) -> JSONResponse:
    return JSONResponse({"type": "error", "error": reason, "code": code}, status_code=status)


def router(core: Core) -> APIRouter:
    """The deals routes."""
    api = APIRouter()

    def seat(game_id: str, house: str, credential: str | None) -> DealTable | JSONResponse:
        try:
            session = core.games.get(game_id)
        except GameNotFound:
            return _refused(404, "There is no such game.", "game/not-found")
        except StoreError:
            return _refused(503, "The game cannot be loaded.", "game/unavailable")
        except HostedOnline as exc:
            return _refused(403, str(exc), HostedOnline.code)
        if house not in session.players:
            return _refused(404, f"{house!r} does not play in this game", "seat/unknown")
        refusal = seat_refusal(session, house)
        if refusal is not None:
            return _refused(403, refusal, "seat/computer")
        try:
            check_seat(session.players, house, None, credential)
        except SessionError as exc:
            return _refused(403, str(exc), "seat/credentials")
        return core.games.deals(game_id)

    async def on_game(game_id: str, work: Callable[[], Any]) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(core.games.executor(game_id), work)

    def answer(
        game_id: str,
        house: str,
        credential: str | None,
        act: Callable[[DealTable], dict[str, Any]] | None = None,
    ) -> JSONResponse:
        table = seat(game_id, house, credential)
        if isinstance(table, JSONResponse):
            return table
        try:
            done = act(table) if act is not None else None
        except DealError as exc:
            return _refused(400, str(exc), exc.code)
        message = table.message(house)
        if done is not None:
            message["done"] = done
        return JSONResponse(message)

    async def body(request: Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    @api.get("/games/{game_id}/deals/{house}")
    async def deals(request: Request, game_id: str, house: str) -> JSONResponse:
        credential = request.headers.get(CREDENTIAL)
        result: JSONResponse = await on_game(
            game_id, functools.partial(answer, game_id, house, credential)
        )
        return result

    @api.post("/games/{game_id}/deals/{house}/proposals")
    async def propose(request: Request, game_id: str, house: str) -> JSONResponse:
        data = await body(request)
        term = data.get("term")

        def act(table: DealTable) -> dict[str, Any]:
            return table.propose(house, data.get("to"), term if isinstance(term, dict) else {})

        credential = request.headers.get(CREDENTIAL)
        result: JSONResponse = await on_game(
            game_id, functools.partial(answer, game_id, house, credential, act)
        )
        return result

    @api.post("/games/{game_id}/deals/{house}/replies")
    async def reply(request: Request, game_id: str, house: str) -> JSONResponse:
        data = await body(request)

        def act(table: DealTable) -> dict[str, Any]:
            return table.reply(house, data.get("proposal"), data.get("answer"))

        credential = request.headers.get(CREDENTIAL)
        result: JSONResponse = await on_game(
            game_id, functools.partial(answer, game_id, house, credential, act)
        )
        return result

    return api
