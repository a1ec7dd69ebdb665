"""Players' profiles and the leaderboard of the online server (issue 40;
docs/online-ratings.md): ``GET /players/{id}`` and ``/api/players/{id}/profile`` (a player's
rating, reliability and latest games), ``GET /leaderboard`` and ``/api/leaderboard`` (the best
rated players). Public: they show what every player of the server may know (names, ratings,
finished games), never a key; the ratings are ``westeros.online.ratings``'."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.responses import Response

from . import ratings
from .errors import OnlineError, Unavailable
from .lobby_settings import house_names
from .sockets import refusal

if TYPE_CHECKING:
    from .app import Online

log = logging.getLogger("westeros.online")

LEADERS = 100
"""How many players the leaderboard lists at most."""
UNAVAILABLE = "the game server's database did not answer: try again"


def mount(app: FastAPI, online: Online) -> None:
    """The profile and leaderboard routes (pages and JSON)."""

    def answer(read: Callable[[], Any]) -> Any:
        """What ``read`` returns, or the JSON refusal of what it raised."""
        try:
            return read()
        except OnlineError as exc:
            return JSONResponse(refusal(exc), status_code=exc.status)
        except SQLAlchemyError as exc:
            log.warning("a profile could not be read: %s", exc)
            return JSONResponse(refusal(Unavailable(UNAVAILABLE)), status_code=503)

    def page(request: Request, name: str, context: dict[str, Any]) -> Response:
        houses = {house: {"name": name} for house, name in house_names(online.loaded).items()}
        return online.page(request, name, {**context, "houses": houses})

    @app.get("/api/players/{player_id}/profile")
    async def profile_json(player_id: str) -> Response:
        found = await asyncio.to_thread(answer, lambda: ratings.profile(online.online, player_id))
        if isinstance(found, Response):
            return found
        return JSONResponse(found.public())

    @app.get("/api/leaderboard")
    async def leaderboard_json() -> Response:
        found = await asyncio.to_thread(answer, lambda: ratings.leaderboard(online.online, LEADERS))
        if isinstance(found, Response):
            return found
        return JSONResponse({"players": [leader.public() for leader in found]})

    @app.get("/players/{player_id}", response_class=HTMLResponse)
    def profile_page(request: Request, player_id: str) -> Response:
        found = answer(lambda: ratings.profile(online.online, player_id))
        if isinstance(found, Response):
            return found
        return page(request, "online/profile.html", {"profile": found})

    @app.get("/leaderboard", response_class=HTMLResponse)
    def leaderboard_page(request: Request) -> Response:
        found = answer(lambda: ratings.leaderboard(online.online, LEADERS))
        if isinstance(found, Response):
            return found
        return page(request, "online/leaderboard.html", {"leaders": found})
