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
from westeros.store import CorruptGame, GameStore, StoreError
from westeros.store.errors import GameNotFound

from ..online import hosted_games
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
        context["hosting"] = self.hosting()
        return self.page(request, "start.html", context, status=status)

    def hosting(self) -> list[dict[str, Any]]:
        """The online games this app hosted that are not over ("Resume hosting":
        ``partials/hosted_games.html``; issue 35 finding 2)."""
        try:
            return hosted_games.resumable(self.store)
        except StoreError:
            log.exception("could not list the hosted games")
            return []

    def session(self, game_id: str, request: Request | None = None) -> GameSession | Response:
        """The running session of ``game_id``, or the page that says why there is none: for
        a game that cannot be loaded, ``damaged.html`` (``cannot_load``)."""
        try:
            return self.games.get(game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        except Exception as exc:
            log.exception("game %s cannot be loaded", game_id)
            return self.cannot_load(game_id, exc, request)

    def cannot_load(
        self, game_id: str, exc: Exception, request: Request | None = None
    ) -> HTMLResponse:
        """The styled page (HTTP 500) of a game that cannot be loaded, in ``request``'s
        language (English without one): why, a way back to the start screen and, when its
        record reads, its delete page. A CorruptGame one is listed as damaged from now on
        (``GameStore.load_game``; issue 35 finding 1)."""
        try:
            info = self.store.game(game_id)
        except Exception:  # the record itself is damaged: no name, no delete page
            info = None
        context = {
            "game": game_id,
            "name": info.setup.name if info is not None else "",
            "reason": str(exc),
            "damaged": isinstance(exc, CorruptGame),
            "delete_url": f"/games/{game_id}/delete" if info is not None else "",
        }
        if request is not None:
            return self.page(request, "damaged.html", context, status=500)
        html = self.templates.render("damaged.html", "en", {"lang": "en", **context})
        return HTMLResponse(html, status_code=500)


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
