"""``GET /settings.json`` the player's board preferences (sound, notifications, AI pace;
``server.preferences``) and ``PUT /settings.json`` a change to some of them: every field is
checked first, and one bad field answers 400 with the reason and changes nothing. Changes are
applied one at a time, so two quick clicks in the panel never undo each other."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from westeros.store import StoreError

from .. import preferences
from ..core import Core


def router(core: Core) -> APIRouter:
    """The preferences, read and changed."""
    api = APIRouter()
    games = core.games
    one_change_at_a_time = asyncio.Lock()

    @api.get("/settings.json")
    def read() -> Response:
        return JSONResponse(games.preferences.as_json())

    @api.put("/settings.json")
    async def change(request: Request) -> Response:
        try:
            body: Any = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
        async with one_change_at_a_time:
            try:
                chosen = preferences.changed(games.preferences, body)
            except preferences.PreferenceError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            try:
                await asyncio.to_thread(games.set_preferences, chosen)
            except StoreError as exc:
                return JSONResponse({"error": f"the settings could not be saved: {exc}"}, 503)
        return JSONResponse(chosen.as_json())

    return api
