"""The local core's ASGI app (DESIGN §4; routes in docs/protocol.md and the UI contract).

- ``GET /`` the start screen (new game, "Continue" and "Load game" lists, import),
  ``POST /games`` a new game (303 to its board),
  ``GET /games/{id}/play/{house}`` the board with the map inlined,
  ``GET /games/{id}/content.json`` the game's content for scripts,
- ``GET /games/{id}/export`` the game as one JSON file (download), ``POST /games/import``
  (multipart ``file``) a game file, fully validated (303 to the game; 400 and the start screen
  with the reason otherwise, the database untouched),
- ``GET /games/{id}/delete`` the confirmation page, ``POST /games/{id}/delete`` deletes only
  with the form field ``confirm`` equal to the game id (400 otherwise),
- ``GET /games/{id}/replay/{house}`` a seat's replay, ``GET /games/{id}/replay`` the full
  replay of a finished game, ``GET /games/{id}/replay/step/{seq}?house=`` one step as JSON
  (``replays.step_message``; no ``house``: the full view, finished games only),
- ``GET /static/...`` the frontend's and the plugins' static files,
- ``GET /i18n/{lang}.json`` the script catalog of a language,
- ``WS /ws/games/{id}/seats/{house}`` one seat: its own view and log pushed after every
  accepted action; its actions, hints and pings in (every message through the GameSession).

Who may open a seat (RULES.md 0.4.4: the server filters, the client is never trusted): a
seat's view holds its prompt and what it alone has seen (a looked-at wildling card, its Tides
of Battle draw), so while the game runs the board and the socket open only a house played by a
person; a house played by the computer is refused — the board with 403 and a plain message,
the socket with an ``error`` message (``WrongSeat``, the reason in words) and then close code
4403. Once the game is over any seat opens. These are the replay rules (``replays.py``:
``check_viewer``). An unknown game or house is 404 (socket: ``error``, close code 4404).

Everything sits behind ``security.LocalOnly`` (Host header, launch token, Origin)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
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
from westeros.saves import open_store
from westeros.store import GameStore, InvalidGameFile, StoreError
from westeros.store.archive import MAX_FILE_BYTES
from westeros.store.errors import GameNotFound

from ..session import AiFactory, GameSession, WrongSeat, error_reply
from . import pages
from .games import AI_LEVELS, RANDOM, Games, SetupError, default_ai_factory, parse_seed
from .i18n import LANG_COOKIE, Catalogs, Templates, choose_language, normalise
from .narrate import Narrator
from .replays import ReplayRefused, Replays, check_viewer, step_message
from .security import LocalOnly

log = logging.getLogger("westeros.server")

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
CLOSE_NO_GAME = 4404
CLOSE_REFUSED_SEAT = 4403
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
    store = open_store(store_url)
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
        return _start_page(core, request)

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
                ai_level=str(form.get("ai_level") or AI_LEVELS[0]),
            )
        except (SetupError, ValueError, StoreError, EngineError) as exc:
            return _start_page(core, request, error=str(exc), status=400)
        human = next(h for h in session.state.houses if not session.is_ai(h))
        return RedirectResponse(f"/games/{session.game_id}/play/{human}", status_code=303)

    @app.post("/games/import")
    async def import_game(request: Request) -> Response:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES:
            too_large = f"the file is larger than {MAX_IMPORT_BYTES // 2**20} MiB"
            return _start_page(core, request, import_error=too_large, status=400)
        form = await request.form()
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            return _start_page(core, request, import_error="no file was chosen", status=400)
        data = await upload.read(MAX_IMPORT_BYTES + 1)
        try:
            if len(data) > MAX_IMPORT_BYTES:
                raise InvalidGameFile("the file is too large to be a game")
            info = await asyncio.to_thread(core.store.import_game, data)
        except InvalidGameFile as exc:
            return _start_page(core, request, import_error=str(exc), status=400)
        entry = pages.game_entry(info)
        target = entry["replay_url"] if entry["over"] else entry["url"]
        return RedirectResponse(target, status_code=303)

    @app.get("/games/{game_id}/export")
    def export(game_id: str) -> Response:
        try:
            info = core.store.game(game_id)
            text = core.store.export_json(game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        except StoreError as exc:
            return PlainTextResponse(f"This game cannot be exported: {exc}", status_code=500)
        filename = _export_name(info.setup.name, info.id, info.round)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/games/{game_id}/delete", response_class=HTMLResponse)
    def confirm_delete(request: Request, game_id: str) -> Response:
        try:
            info = core.store.game(game_id)
        except GameNotFound:
            return PlainTextResponse("There is no such game.", status_code=404)
        entry = pages.game_entry(info, core.loaded.ruleset)
        return core.page(request, "delete.html", {"game": entry})

    @app.post("/games/{game_id}/delete")
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

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse)
    def full_replay(request: Request, game_id: str) -> Response:
        return _replay_page(core, request, game_id, None)

    @app.get("/games/{game_id}/replay/step/{seq}")
    def replay_step(request: Request, game_id: str, seq: int, house: str | None = None) -> Response:
        try:
            info, timeline = core.replays.timeline(game_id)
            narrate = Narrator(
                timeline.final.rules, core.catalogs.translations(core.language(request))
            )
            return JSONResponse(step_message(info, timeline, seq, house or None, narrate))
        except ReplayRefused as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except GameNotFound:
            return JSONResponse({"error": "There is no such game."}, status_code=404)
        except StoreError as exc:
            return JSONResponse({"error": f"This game cannot be replayed: {exc}"}, 500)

    @app.get("/games/{game_id}/replay/{house}", response_class=HTMLResponse)
    def seat_replay(request: Request, game_id: str, house: str) -> Response:
        return _replay_page(core, request, game_id, house)

    @app.get("/games/{game_id}/play/{house}", response_class=HTMLResponse)
    def board(request: Request, game_id: str, house: str) -> Response:
        session = _session(core, game_id)
        if isinstance(session, Response):
            return session
        if house not in session.players:
            return PlainTextResponse(f"{house!r} does not play in this game", status_code=404)
        refusal = seat_refusal(session, house)
        if refusal is not None:
            return PlainTextResponse(refusal, status_code=403)
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


MAX_IMPORT_BYTES = MAX_FILE_BYTES
FORM_OVERHEAD_BYTES = 64 * 1024


def _listed(core: Core, status: str | None, limit: int) -> list[Any]:
    try:
        return core.store.list_games(status=status, limit=limit)
    except StoreError:
        log.exception("could not list games")
        return []


def _start_page(
    core: Core,
    request: Request,
    *,
    error: str | None = None,
    import_error: str | None = None,
    status: int = 200,
) -> Response:
    """The start screen: "Continue" the game in progress played last, "Load game" any other
    stored game (and an error, if any)."""
    latest = _listed(core, "active", 1)
    shown = {g.id for g in latest}
    others = [g for g in _listed(core, None, SAVED_LIMIT) if g.id not in shown]
    try:
        damaged = core.store.damaged_games()
    except StoreError:
        log.exception("could not list damaged games")
        damaged = []
    context = pages.start_context(
        core.loaded, latest, error, saved=others, import_error=import_error, damaged=damaged
    )
    return core.page(request, "start.html", context, status=status)


def _export_name(name: str, game_id: str, round_number: int) -> str:
    """A file name for an exported game: its name (or id) and round, safe on every system."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:40] or game_id[:8]
    return f"westeros-{stem}-round-{round_number}.json"


def _replay_page(core: Core, request: Request, game_id: str, viewer: str | None) -> Response:
    try:
        info, timeline = core.replays.timeline(game_id)
        check_viewer(info, viewer)
    except ReplayRefused as exc:
        return PlainTextResponse(exc.message, status_code=exc.status)
    except GameNotFound:
        return PlainTextResponse("There is no such game.", status_code=404)
    except StoreError as exc:
        return PlainTextResponse(f"This game cannot be replayed: {exc}", status_code=500)
    context = pages.replay_context(info, timeline.final.rules, viewer, core.loaded)
    return core.page(request, "replay.html", context)


def seat_refusal(session: GameSession, house: str) -> str | None:
    """Why a client may not open ``house`` (one of the game's seats) now, or None: while the
    game runs, a house played by the computer (module docstring; as ``replays.check_viewer``)."""
    if session.over or not session.is_ai(house):
        return None
    found = session.state.rules.houses.get(house)
    name = found.name if found is not None else house
    return (
        f"{name} is played by the computer: while the game runs, only a house played by "
        "a person can be opened."
    )


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
