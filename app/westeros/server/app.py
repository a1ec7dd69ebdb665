"""The local core's ASGI app (DESIGN §4; routes in docs/protocol.md and the UI contract).

- ``GET /`` the start screen, ``POST /games`` a new game (303 to its board),
  ``GET /games/{id}/play/{house}`` the board with the map inlined,
  ``GET /games/{id}/content.json`` the game's content for scripts,
- ``GET /static/...`` the frontend's and the plugins' static files,
- ``GET /i18n/{lang}.json`` the script catalog of a language,
- ``WS /ws/games/{id}/seats/{house}`` one seat: its own view and log pushed after every
  accepted action; its actions, hints and pings in (every message through the GameSession).

Everything sits behind ``security.LocalOnly`` (Host header, launch token, Origin)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from starlette.datastructures import FormData
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from westeros.engine import EngineError
from westeros.plugins import LoadedPlugins, load
from westeros.store import GameStore, StoreError
from westeros.store.errors import GameNotFound

from ..session import AiFactory, GameSession, WrongSeat, error_reply
from . import pages
from .games import RANDOM, Games, SetupError, default_ai_factory, parse_seed
from .i18n import LANG_COOKIE, Catalogs, Templates, choose_language, normalise
from .narrate import Narrator
from .security import LocalOnly

log = logging.getLogger("westeros.server")

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
CLOSE_NO_GAME = 4404


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


def create_app(
    *,
    token: str,
    store_url: str | None = None,
    ai_delay: float = 0.0,
    port: int | None = None,
    ai_factory: AiFactory = default_ai_factory,
    ai_budget: float = 1.0,
    plugins: LoadedPlugins | None = None,
    locale_dirs: Iterable[str | Path] = (),
) -> FastAPI:
    """The local core. ``token`` is the per-launch secret; ``port`` (when known) must appear
    in the Host header; ``store_url`` picks the database (default: the user's SQLite file);
    ``ai_delay`` paces AI moves for a person to follow; ``ai_factory`` makes AI seats."""
    loaded = plugins if plugins is not None else load()
    store = GameStore.open(store_url)
    games = Games(store, ai_factory=ai_factory, ai_delay=ai_delay, ai_budget=ai_budget)
    catalogs = Catalogs([LOCALE_DIR, *locale_dirs, *loaded.translations])
    templates = Templates(pages.template_folders(loaded), catalogs)
    core = Core(loaded, store, games, catalogs, templates)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        games.close()
        store.close()

    app = FastAPI(
        title="Westeros local core",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
    )
    app.state.core = core
    app.state.games = games
    _routes(app, core)
    for prefix, folder in pages.static_folders(loaded):
        path = f"/static/{prefix}" if prefix else "/static"
        if Path(folder).is_dir():
            app.mount(path, StaticFiles(directory=folder), name=f"static:{prefix or 'base'}")
    app.add_middleware(LocalOnly, token=token, port=port)
    return app


def _form_options(form: FormData, core: Core) -> tuple[dict[str, Any], list[str]]:
    """Game options (checkboxes named after each option) and plugins switched off."""
    options: dict[str, Any] = {}
    for option in core.loaded.ruleset.options.values():
        value = form.get(option.id)
        if isinstance(option.default, bool):
            options[option.id] = value is not None and value not in ("", "0", "off", "false")
        elif value is not None:
            options[option.id] = (
                type(option.default)(value) if option.default is not None else value
            )
    enabled = set(form.getlist("plugin"))
    disable = [p["id"] for p in pages.toggleable_plugins(core.loaded) if p["id"] not in enabled]
    return options, disable


def _routes(app: FastAPI, core: Core) -> None:
    games = core.games

    @app.get("/", response_class=HTMLResponse)
    def start(request: Request) -> Response:
        return core.page(request, "start.html", pages.start_context(core.loaded, _active(core)))

    @app.post("/games")
    async def new_game(request: Request) -> Response:
        form = await request.form()
        try:
            players_text = str(form.get("players", ""))
            if not players_text.isdigit():
                raise SetupError("choose how many houses play")
            options, disable = _form_options(form, core)
            house = str(form.get("house") or RANDOM)
            seed = parse_seed(str(form.get("seed") or ""))
            session = await asyncio.to_thread(
                games.create,
                players=int(players_text),
                human=house,
                seed=seed,
                options=options,
                disable=disable,
            )
        except (SetupError, ValueError, StoreError, EngineError) as exc:
            context = pages.start_context(core.loaded, _active(core), str(exc))
            return core.page(request, "start.html", context, status=400)
        human = next(h for h in session.state.houses if not session.is_ai(h))
        return RedirectResponse(f"/games/{session.game_id}/play/{human}", status_code=303)

    @app.get("/games/{game_id}/play/{house}", response_class=HTMLResponse)
    def board(request: Request, game_id: str, house: str) -> Response:
        session = _session(core, game_id)
        if isinstance(session, Response):
            return session
        if house not in session.players:
            return PlainTextResponse(f"{house!r} does not play in this game", status_code=404)
        return core.page(request, "board.html", pages.board_context(session, house, core.loaded))

    @app.get("/games/{game_id}/content.json")
    def content(game_id: str) -> Response:
        session = _session(core, game_id)
        if isinstance(session, Response):
            return session
        seats = {h: ("ai" if session.is_ai(h) else "human") for h in session.state.houses}
        return JSONResponse(pages.content_of(session.state.rules, seats))

    @app.get("/i18n/{lang}.json")
    def catalog(lang: str) -> Response:
        code = normalise(lang)
        if code is None or code not in core.catalogs.languages():
            return JSONResponse({"error": f"no catalog for {lang!r}"}, status_code=404)
        return JSONResponse({"lang": code, "messages": core.catalogs.messages(code)})

    @app.websocket("/ws/games/{game_id}/seats/{house}")
    async def seat(websocket: WebSocket, game_id: str, house: str) -> None:
        await _seat(core, websocket, game_id, house)


def _active(core: Core) -> list[Any]:
    try:
        return core.store.list_games(status="active", limit=20)
    except StoreError:
        log.exception("could not list games")
        return []


def _session(core: Core, game_id: str) -> GameSession | Response:
    try:
        return core.games.get(game_id)
    except GameNotFound:
        return PlainTextResponse("There is no such game.", status_code=404)
    except Exception as exc:
        log.exception("game %s cannot be loaded", game_id)
        return PlainTextResponse(f"This game cannot be loaded: {exc}", status_code=500)


async def _seat(core: Core, websocket: WebSocket, game_id: str, house: str) -> None:
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
