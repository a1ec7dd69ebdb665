"""The guided first game (issue 37 point 1): ``POST /guide`` starts one, ``GET
/games/{id}/guide/{house}`` answers the step the board's guide box shows (``server.guide``)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.responses import Response

from westeros.store import StoreError

from .. import guide
from ..core import Core
from ..games import SetupError


def router(core: Core) -> APIRouter:
    """``POST /guide`` and ``GET /games/{game_id}/guide/{house}``."""
    api = APIRouter()

    @api.post("/guide")
    async def start_guide(request: Request) -> Response:
        gettext = core.catalogs.translations(core.language(request)).gettext
        try:
            session = await asyncio.to_thread(
                guide.create, core.games, gettext("Guided first game")
            )
        except (SetupError, StoreError) as exc:
            return core.start_page(request, error=str(exc), status=400)
        return RedirectResponse(f"/games/{session.game_id}/play/{guide.HOUSE}", status_code=303)

    @api.get("/games/{game_id}/guide/{house}")
    def step(request: Request, game_id: str, house: str) -> Response:
        if core.games.hosted(game_id) is not None:
            return JSONResponse({"guide": False})
        session = core.session(game_id, request)
        if isinstance(session, Response):
            return session
        state = session.state
        if not guide.is_guide(state) or house not in session.players or session.is_ai(house):
            return JSONResponse({"guide": False})
        gettext = core.catalogs.translations(core.language(request)).gettext
        message = guide.step_for(state, house).message(gettext)
        return JSONResponse({**message, "state_id": state.serial})

    return api
