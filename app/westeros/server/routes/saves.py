"""Stored games as files and their deletion: export, import, delete (with confirmation).

A game file holds everything: every house's orders before they are revealed, its cards and
the seed (so the order of every deck). RULES.md 0.4.4: while a game runs nobody may see
that, so only a finished game is exported (403 before); its replay shows the same."""

from __future__ import annotations

import asyncio
import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse
from starlette.responses import Response

from westeros.store import InvalidGameFile, StoreError
from westeros.store.archive import MAX_FILE_BYTES
from westeros.store.errors import GameNotFound

from .. import pages
from ..core import Core
from .replay import export_text

MAX_IMPORT_BYTES = MAX_FILE_BYTES
FORM_OVERHEAD_BYTES = 64 * 1024
EXPORT_REFUSED = (
    "A game can be exported once it is over: its file holds every house's secrets "
    "(orders not yet revealed, the order of the decks)."
)


def export_name(name: str, game_id: str, round_number: int) -> str:
    """A file name for an exported game: its name (or id) and round, safe on every system."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:40] or game_id[:8]
    return f"westeros-{stem}-round-{round_number}.json"


def router(core: Core) -> APIRouter:
    """``POST /games/import``, ``GET /games/{id}/export`` and ``GET``/``POST
    /games/{id}/delete``."""
    api = APIRouter()
    games = core.games

    @api.post("/games/import")
    async def import_game(request: Request) -> Response:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES:
            too_large = f"the file is larger than {MAX_IMPORT_BYTES // 2**20} MiB"
            return core.start_page(request, import_error=too_large, status=400)
        form = await request.form()
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            return core.start_page(request, import_error="no file was chosen", status=400)
        data = await upload.read(MAX_IMPORT_BYTES + 1)
        try:
            if len(data) > MAX_IMPORT_BYTES:
                raise InvalidGameFile("the file is too large to be a game")
            info = await asyncio.to_thread(core.store.import_game, data)
        except InvalidGameFile as exc:
            return core.start_page(request, import_error=str(exc), status=400)
        entry = pages.game_entry(info)
        target = entry["replay_url"] if entry["over"] else entry["url"]
        return RedirectResponse(target, status_code=303)

    @api.get("/games/{game_id}/export")
    def export(game_id: str) -> Response:
        try:
            info = core.store.game(game_id)
            if info.winner is None:
                return PlainTextResponse(EXPORT_REFUSED, status_code=403)
            text = export_text(core, game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        except StoreError as exc:
            return PlainTextResponse(f"This game cannot be exported: {exc}", status_code=500)
        filename = export_name(info.setup.name, info.id, info.round)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @api.get("/games/{game_id}/delete", response_class=HTMLResponse)
    def confirm_delete(request: Request, game_id: str) -> Response:
        try:
            info = core.store.game(game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        entry = pages.game_entry(info, core.loaded.ruleset)
        return core.page(request, "delete.html", {"game": entry})

    @api.post("/games/{game_id}/delete")
    async def delete(request: Request, game_id: str) -> Response:
        form = await request.form()
        if form.get("confirm") != game_id:
            return PlainTextResponse(
                "Deleting a game needs confirmation (the form field 'confirm' with its id).",
                status_code=400,
            )
        try:
            await asyncio.to_thread(games.delete, game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        core.replays.forget(game_id)
        return RedirectResponse("/", status_code=303)

    return api
