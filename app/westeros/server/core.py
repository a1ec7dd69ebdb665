"""What the local core's routes share: plugins, store, running games, catalogs and templates,
and the answers more than one route gives (the start screen, a game or its 404, who may open
a seat)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, PlainTextResponse
from starlette.responses import Response

from westeros.plugins import LoadedPlugins
from westeros.store import GameStore, StoreError
from westeros.store.errors import GameNotFound

from ..session import GameSession
from . import pages
from .games import Games
from .i18n import LANG_COOKIE, Catalogs, Templates, choose_language, normalise
from .replays import Replays

log = logging.getLogger("westeros.server")

SAVED_LIMIT = 200


class Core:
    """What the routes share: plugins, store, games, catalogs and templates."""

    def __init__(
        self,
        loaded: LoadedPlugins,
        store: GameStore,
        games: Games,
        catalogs: Catalogs,
        templates: Templates,
    ) -> None:
        self.loaded = loaded
        self.store = store
        self.games = games
        self.catalogs = catalogs
        self.templates = templates
        self.replays = Replays(store)

    def language(self, request: Request | WebSocket) -> str:
        """The language of a request (``?lang=``, cookie, Accept-Language, English)."""
        return choose_language(
            self.catalogs,
            request.query_params.get("lang"),
            request.cookies.get(LANG_COOKIE),
            request.headers.get("accept-language"),
        )

    def page(
        self, request: Request, name: str, context: dict[str, Any], status: int = 200
    ) -> HTMLResponse:
        """Render template ``name`` in the request's language."""
        lang = self.language(request)
        html = self.templates.render(name, lang, {"lang": lang, **context})
        response = HTMLResponse(html, status_code=status)
        if normalise(request.query_params.get("lang")) == lang:
            response.set_cookie(LANG_COOKIE, lang, httponly=True, samesite="strict")
        return response

    def listed(self, status: str | None, limit: int) -> list[Any]:
        """Stored games (``status`` "active", "finished" or None for all), newest first."""
        try:
            return self.store.list_games(status=status, limit=limit)
        except StoreError:
            log.exception("could not list games")
            return []

    def start_page(
        self,
        request: Request,
        *,
        error: str | None = None,
        import_error: str | None = None,
        status: int = 200,
    ) -> Response:
        """The start screen: "Continue" the game in progress played last, "Load game" any
        other stored game (and an error, if any)."""
        latest = self.listed("active", 1)
        shown = {g.id for g in latest}
        others = [g for g in self.listed(None, SAVED_LIMIT) if g.id not in shown]
        try:
            damaged = self.store.damaged_games()
        except StoreError:
            log.exception("could not list damaged games")
            damaged = []
        context = pages.start_context(
            self.loaded, latest, error, saved=others, import_error=import_error, damaged=damaged
        )
        return self.page(request, "start.html", context, status=status)

    def session(self, game_id: str) -> GameSession | Response:
        """The running session of ``game_id``, or the page that says why there is none."""
        try:
            return self.games.get(game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        except Exception as exc:
            log.exception("game %s cannot be loaded", game_id)
            return PlainTextResponse(f"This game cannot be loaded: {exc}", status_code=500)


def seat_refusal(session: GameSession, house: str) -> str | None:
    """Why a client may not open ``house`` (one of the game's seats) now, or None: while the
    game runs, a house played by the computer (``server.app`` docstring; as
    ``replays.check_viewer``)."""
    if session.over or not session.is_ai(house):
        return None
    found = session.state.rules.houses.get(house)
    name = found.name if found is not None else house
    return (
        f"{name} is played by the computer: while the game runs, only a house played by "
        "a person can be opened."
    )
