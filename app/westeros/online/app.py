"""The online server's ASGI app (``westeros server``; routes in docs/protocol.md "Online").

Who is who: a player's secret key travels only in the ``westeros_player`` cookie (HttpOnly,
SameSite=Strict; set by ``POST /api/players``) or, for programs, the ``X-Westeros-Key``
header — never in a URL. Invite links carry their token in the fragment (``/join#invite=…``),
which browsers neither send to the server nor put in a Referer; the join page posts it.
Every response says ``Referrer-Policy: no-referrer``; a request that may change something
(and every WebSocket) must come from the server's own origin when the browser names one.

Deals: ``/games/{id}/deals/{house}`` and its ``/proposals`` and ``/replies``, as on the local
core, for the seat's own player only (``deals``).

Sockets: ``/ws/games/{id}/seats/{house}`` (the board's, the same messages as the local core's
plus ``chat`` and ``voice``: table voice's signalling, ``voice_relay``),
``/ws/games/{id}/watch`` (a spectator: the public view and the public chat, table voice if the
host lets spectators listen; any action is refused), ``/ws/lobbies/{id}`` (the lobby's roster
and chat, for players and spectators). Each socket is bounded (``limits``, ``sockets``); a
database or Redis failure while one opens is answered ``online/unavailable`` and the socket
closed with 1013 (try again later), while it runs ``not-saved`` on the socket, which stays
open (issue 35 finding 9)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from markupsafe import Markup
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from westeros.deals.table import DealError, DealTable
from westeros.engine import EngineError
from westeros.plugins import LoadedPlugins, load
from westeros.saves import open_store
from westeros.server import pages
from westeros.server.games import DEFAULT_AI_LEVEL
from westeros.server.i18n import Catalogs, Templates, choose_language, normalise
from westeros.server.narrate import Narrator
from westeros.server.security import HEADERS
from westeros.session import NotSaved, SessionError
from westeros.session.messages import load as load_message
from westeros.session.messages import reply_id
from westeros.store import GameStore, StoreError

from . import catchup, moderation, notices, profiles, replays, votes
from .ai_pool import AiPool
from .bus import make_bus
from .deals import OnlineDeals
from .errors import BodyTooLarge, OnlineError, SpectatorCannotAct, Unavailable, UnknownPlayer
from .hub import Conn, OnlineHub, clean_name
from .keys import key_hash
from .limits import (
    CLOSE_TOO_MANY,
    Limits,
    RequestRate,
    SocketCounter,
    TooManyRequests,
    TooManySockets,
)
from .lobby_settings import house_names, lobby_settings
from .memory import Collector
from .records import LobbyInfo, PlayerInfo
from .sockets import AfterHistory, Outbox, client_address, incoming, refusal
from .sockets import message_text as message_text  # where tests and tools import it from
from .store import OnlineStore
from .turn import IceConfig

log = logging.getLogger("westeros.online")

PLAYER_COOKIE = "westeros_player"
KEY_HEADER = "x-westeros-key"
ENV_REDIS_URL = "WESTEROS_REDIS_URL"
ENV_AI_PROCESSES = "WESTEROS_AI_PROCESSES"
ENV_REDIS_PREFIX = "WESTEROS_REDIS_PREFIX"
ENV_FORWARDED_ALLOW_IPS = "WESTEROS_FORWARDED_ALLOW_IPS"
ENV_LOG_LEVEL = "WESTEROS_LOG_LEVEL"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
CLOSE_REFUSED = 4403
CLOSE_NO_GAME = 4404
CLOSE_TRY_LATER = 1013
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
HANDLER_THREADS = 32
MAX_BODY = 64 * 1024
"""The largest request body the API reads (bytes)."""
STATIC_PREFIX = "/static/"
"""Where the static files are served (``Throttle`` does not count them)."""
SECURITY_HEADERS = (
    *((name.encode(), value.encode()) for name, value in HEADERS if name != "referrer-policy"),
    (b"referrer-policy", b"no-referrer"),
)
"""The local core's Content-Security-Policy, X-Frame-Options and nosniff
(``server.security.HEADERS``), with this server's own Referrer-Policy."""
HEADER_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)
OUTAGES = (SQLAlchemyError, RedisError, OSError)
"""What a failing database or Redis raises on the way of a request or a socket (issue 35
finding 9)."""
UNAVAILABLE = "the game server's database did not answer: try again"

online_error = refusal


class Guard:
    """ASGI middleware: the security headers on every response; a WebSocket or a
    state-changing request whose browser-sent Origin is not this server's is refused.

    Behind reverse proxies whose addresses ``forwarded_allow_ips`` lists (uvicorn's syntax:
    addresses, networks, ``*``), the request's scheme and client address are those the proxy
    forwards (``X-Forwarded-Proto``, ``X-Forwarded-For``) and its host, which the Origin must
    name, is ``X-Forwarded-Host`` when the proxy sends one; from anyone else those headers are
    ignored."""

    def __init__(self, app: Any, forwarded_allow_ips: str | None = None) -> None:
        self.proxies = (
            ProxyHeadersMiddleware(app, forwarded_allow_ips) if forwarded_allow_ips else None
        )
        self.app = self.proxies if self.proxies is not None else app

    def host(self, scope: Any, headers: dict[str, str]) -> str | None:
        """The host the client asked for: the trusted proxy's ``X-Forwarded-Host``, else
        the Host header."""
        client = scope.get("client")
        forwarded = headers.get("x-forwarded-host")
        trusted = self.proxies is not None and client and client[0] in self.proxies.trusted_hosts
        if trusted and forwarded:
            return forwarded.split(",")[0].strip()
        return headers.get("host")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        origin = headers.get("origin")
        unsafe = scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS
        if unsafe and origin is not None and urlsplit(origin).netloc != self.host(scope, headers):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            response = JSONResponse(
                {"error": "cross-origin request refused", "code": "online/cross-origin"}, 403
            )
            await response(scope, receive, wrapped_send(send))
            return
        await self.app(scope, receive, wrapped_send(send))


class Throttle:
    """ASGI middleware: an HTTP request (static files aside) of a client address past its
    limit (``limits.RequestRate``) is refused with 429 ``online/too-many-requests`` and a
    ``Retry-After`` of one second, and never reaches a route. Inside ``Guard``, so the
    address is the one a trusted proxy forwards."""

    def __init__(self, app: Any, rate: RequestRate) -> None:
        self.app, self.rate = app, rate

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not scope["path"].startswith(STATIC_PREFIX):
            client = scope.get("client")
            try:
                self.rate.take(client[0] if client else "")
            except TooManyRequests as exc:
                response = JSONResponse(online_error(exc), exc.status, headers={"retry-after": "1"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def wrapped_send(send: Any) -> Any:
    """``send`` adding ``SECURITY_HEADERS`` to an HTTP response."""

    async def wrapped(message: Any) -> None:
        if message["type"] == "http.response.start":
            kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in HEADER_NAMES]
            message["headers"] = [*kept, *SECURITY_HEADERS]
        await send(message)

    return wrapped


class Online:
    """What the routes share."""

    def __init__(
        self,
        loaded: LoadedPlugins,
        store: GameStore,
        hub: OnlineHub,
        templates: Templates,
        limits: Limits | None = None,
    ) -> None:
        self.loaded = loaded
        self.store = store
        self.hub = hub
        self.online = hub.online
        self.templates = templates
        self.catalogs = templates.catalogs
        self.limits = limits if limits is not None else Limits()
        self.sockets = SocketCounter(self.limits)
        self.deals = OnlineDeals(hub)
        self.catchup = catchup.CatchUp(store, hub)

    @contextlib.contextmanager
    def holding(self, websocket: WebSocket) -> Iterator[None]:
        """Count ``websocket`` against its address's and key's socket limits while the block
        runs (TooManySockets)."""
        key = self.key(websocket)
        with self.sockets.hold(client_address(websocket), key_hash(key) if key else None):
            yield

    def key(self, request: Request | WebSocket) -> str | None:
        """The player key a request carries (cookie or header; never the URL)."""
        return request.headers.get(KEY_HEADER) or request.cookies.get(PLAYER_COOKIE)

    def player(self, request: Request | WebSocket) -> PlayerInfo:
        """The player the request's key belongs to (UnknownPlayer)."""
        return self.online.player(self.key(request))

    def maybe_player(self, request: Request | WebSocket) -> PlayerInfo | None:
        """The request's player, or None (a spectator)."""
        try:
            return self.player(request)
        except UnknownPlayer:
            return None

    def language(self, request: Request | WebSocket) -> str:
        """The request's language."""
        return choose_language(
            self.catalogs,
            request.query_params.get("lang"),
            request.cookies.get("westeros_lang"),
            request.headers.get("accept-language"),
        )

    def page(self, request: Request, name: str, context: dict[str, Any]) -> HTMLResponse:
        """Render template ``name`` in the request's language."""
        lang = self.language(request)
        return HTMLResponse(self.templates.render(name, lang, {"lang": lang, **context}))


def create_online_app(
    *,
    store_url: str | None = None,
    redis_url: str | None = None,
    ai_processes: int = 1,
    ai_budget: float = 1.0,
    plugins: LoadedPlugins | None = None,
    redis_prefix: str = "westeros",
    collector: Collector | None = None,
    limits: Limits | None = None,
    forwarded_allow_ips: str | None = None,
    ice: IceConfig | None = None,
) -> FastAPI:
    """The online server of one worker: the store at ``store_url`` (default: as the local
    core), shared with the other workers through Redis at ``redis_url`` (None: this process
    is the only one), AI seats decided in a pool of ``ai_processes`` processes; with
    ``collector``, the process's garbage collector is tuned while the app runs (a process of
    its own only: ``westeros server``). ``limits``: what one client may hold (default
    ``Limits()``); ``forwarded_allow_ips``: the reverse proxies trusted for the
    ``X-Forwarded-*`` headers (``Guard``; None: none here); ``ice``: the STUN and TURN
    servers table voice hands out (``turn``; None: none)."""
    loaded = plugins if plugins is not None else load()
    store = open_store(store_url)
    bus = make_bus(redis_url, redis_prefix)
    pool = AiPool(ai_processes)
    hub = OnlineHub(
        store,
        OnlineStore(store.engine),
        bus,
        pool,
        ai_budget=ai_budget,
        personalities=loaded.ai_personalities,
        ice=ice,
    )
    catalogs = Catalogs([LOCALE_DIR, *loaded.translations])
    templates = Templates(pages.template_folders(loaded), catalogs)
    online = Online(loaded, store, hub, templates, limits)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # every socket message is handled in a thread (it waits on Redis and the database):
        # enough threads that one game's wait does not queue the others' actions
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=HANDLER_THREADS, thread_name_prefix="westeros-ws")
        )
        if collector is not None:
            collector.start()
        app.state.notices.start()  # turn notices (issue 40): keys, then the sender
        hub.start()
        yield
        hub.close()
        app.state.notices.close()
        if collector is not None:
            collector.close()
        pool.shutdown(wait=False, cancel_futures=True)
        bus.close()
        store.close()

    app = FastAPI(
        title="Westeros online", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.online = online
    _api(app, online)
    _pages(app, online)
    _sockets(app, online)
    replays.mount(app, online)
    notices.mount(app, online)
    profiles.mount(app, online)
    catchup.mount(app, online)
    moderation.mount(app, online)  # blocks and reports (issue 40)
    votes.mount(app, online)  # the table's votes (issue 40)
    for prefix, folder in pages.static_folders(loaded):
        path = f"{STATIC_PREFIX}{prefix}" if prefix else STATIC_PREFIX.rstrip("/")
        if Path(folder).is_dir():
            app.mount(path, StaticFiles(directory=folder), name=f"static:{prefix or 'base'}")
    app.add_middleware(Throttle, rate=RequestRate(online.limits))
    app.add_middleware(Guard, forwarded_allow_ips=forwarded_allow_ips)
    return app


def app_from_env() -> FastAPI:
    """The app for ``uvicorn --factory`` workers: configured by environment variables
    (``WESTEROS_DATABASE_URL``, ``WESTEROS_REDIS_URL``, ``WESTEROS_AI_PROCESSES``,
    ``WESTEROS_REDIS_PREFIX``: the prefix of every Redis key and channel; the limits of
    ``limits.SETTINGS``; the ICE servers of ``turn.SETTINGS``;
    ``WESTEROS_FORWARDED_ALLOW_IPS``: the trusted proxies;
    ``WESTEROS_LOG_LEVEL``: what the server logs)."""
    log_to_stderr(os.environ.get(ENV_LOG_LEVEL) or "warning")
    return create_online_app(
        redis_url=os.environ.get(ENV_REDIS_URL) or None,
        ai_processes=int(os.environ.get(ENV_AI_PROCESSES) or 1),
        redis_prefix=os.environ.get(ENV_REDIS_PREFIX) or "westeros",
        collector=Collector(),
        limits=Limits.from_env(os.environ),
        forwarded_allow_ips=os.environ.get(ENV_FORWARDED_ALLOW_IPS) or None,
        ice=IceConfig.from_env(os.environ),
    )


def log_to_stderr(level: str) -> None:
    """Send the server's own log (``westeros.*``) to stderr from ``level`` (a logging level
    name) up, as uvicorn does its own."""
    logger = logging.getLogger("westeros")
    logger.setLevel(level.upper())
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        logger.addHandler(handler)


# ---------------------------------------------------------------------------------- API

Handler = Callable[[Request], Awaitable[Any]]


def _refusing(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Any:
        try:
            return await handler(request)
        except OnlineError as exc:
            return JSONResponse(online_error(exc), status_code=exc.status)
        except SessionError as exc:
            return JSONResponse(online_error(exc), status_code=400)
        except (StoreError, EngineError, ValueError) as exc:
            return JSONResponse(online_error(exc), status_code=400)
        except OUTAGES as exc:
            log.warning("a request was not handled: %s", exc)
            return JSONResponse(online_error(Unavailable(UNAVAILABLE)), status_code=503)

    return wrapped


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most MAX_BODY bytes)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise BodyTooLarge(f"a request body may have at most {MAX_BODY} bytes")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BodyTooLarge(f"a request body may have at most {MAX_BODY} bytes")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise OnlineError("the request body must be JSON") from exc
    if not isinstance(data, dict):
        raise OnlineError("the request body must be a JSON object")
    return data


def _you(lobby: LobbyInfo, player: PlayerInfo | None) -> dict[str, Any]:
    seat = lobby.seat_of(player.id) if player is not None else None
    return {
        "lobby": lobby.public(),
        "you": {
            "house": seat.house if seat else None,
            "host": player is not None and lobby.host_id == player.id,
        },
    }


def _invite_links(invites: dict[str, str]) -> dict[str, str]:
    return {house: f"/join#invite={token}" for house, token in invites.items()}


def _api(app: FastAPI, online: Online) -> None:
    hub = online.hub

    def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Awaitable[Any]:
        return asyncio.to_thread(func, *args, **kwargs)

    @app.post("/api/players")
    @_refusing
    async def register(request: Request) -> Response:
        data = await _body(request)
        key = data.get("key") or online.key(request)
        if key is not None and (not isinstance(key, str) or not 32 <= len(key) <= 200):
            raise UnknownPlayer("a player key is 32 to 200 characters")
        if data.get("name") is None and isinstance(key, str):
            player = await run(online.online.player, key)  # a known key on a new device
        else:
            player, key = await run(online.online.register, clean_name(data.get("name")), key)
        response = JSONResponse({"id": player.id, "name": player.name, "key": key})
        response.set_cookie(
            PLAYER_COOKIE,
            key,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=10 * 365 * 24 * 3600,
        )
        response.headers["cache-control"] = "no-store"
        return response

    @app.get("/api/me")
    @_refusing
    async def me(request: Request) -> Response:
        player = await run(online.player, request)
        return JSONResponse({"id": player.id, "name": player.name})

    @app.get("/api/lobbies")
    @_refusing
    async def lobbies(request: Request) -> Response:
        found = await run(online.online.lobbies)
        return JSONResponse({"lobbies": [lobby.public() for lobby in found]})

    @app.post("/api/lobbies")
    @_refusing
    async def create(request: Request) -> Response:
        player = await run(online.player, request)
        settings = lobby_settings(await _body(request), online.loaded)
        lobby, invites = await run(hub.create_lobby, player, **settings.arguments())
        return JSONResponse({**_you(lobby, player), "invites": _invite_links(invites)})

    @app.get("/api/lobbies/{lobby_id}")
    @_refusing
    async def lobby(request: Request) -> Response:
        found = await run(online.online.lobby, request.path_params["lobby_id"])
        return JSONResponse(_you(found, await run(online.maybe_player, request)))

    async def seat_change(request: Request, action: str) -> Response:
        player = await run(online.player, request)
        data = await _body(request)
        lobby_id = request.path_params["lobby_id"]
        house = str(data.get("house") or "")
        extra: dict[str, Any] = {}
        if action == "take":
            found = await run(hub.take, lobby_id, player, house or "random")
        elif action == "ready":
            found = await run(hub.ready, lobby_id, player, bool(data.get("ready", True)))
        elif action == "start":
            found = await run(hub.start_game, lobby_id, player)
        elif action == "kick":
            found = await run(hub.kick, lobby_id, player, house)
        elif action == "stop":
            found = await run(hub.stop_game, lobby_id, player)
        elif action == "vacation":  # a game by turns (issue 40): {"on": true|false}
            found = await run(hub.vacation, lobby_id, player, data.get("on", True) is not False)
        else:
            found, token = await run(hub.hand_back, lobby_id, player, house)
            extra["invite"] = _invite_links({house: token})[house]
        return JSONResponse({**_you(found, player), **extra})

    for action in ("take", "ready", "start", "kick", "stop", "hand-back", "vacation"):

        def bind(action: str = action) -> Handler:
            async def route(request: Request) -> Response:
                return await seat_change(request, action.replace("-", "_").split("_")[0])

            return _refusing(route)

        app.add_api_route(f"/api/lobbies/{{lobby_id}}/{action}", bind(), methods=["POST"])

    @app.post("/api/join")
    @_refusing
    async def join(request: Request) -> Response:
        player = await run(online.player, request)
        data = await _body(request)
        found, house = await run(hub.join, str(data.get("invite") or ""), player)
        return JSONResponse({**_you(found, player), "house": house})

    @app.get("/api/lobbies/{lobby_id}/chat")
    @_refusing
    async def chat_log(request: Request) -> Response:
        """The lobby's chat as the requester may read it (their house's ravens or none),
        without the lines of those they blocked (issue 40)."""
        lobby_id = request.path_params["lobby_id"]
        found = await run(online.online.lobby, lobby_id)
        player = await run(online.maybe_player, request)
        seat = found.seat_of(player.id) if player else None
        house = seat.house if seat else None
        lines = await run(hub.moderation.readable, online.online, lobby_id, house, player)
        return JSONResponse({"chat": [line.message() for line in lines]})

    async def deals(request: Request, act: Callable[[DealTable], Any] | None) -> Response:
        """The deals panel of the seat in the path, for the player who holds it only
        (``online.deals``); a proposal or reply the table refuses is 400 with its code
        (``deal/refused``, ``deal/too-many-offers``)."""
        player = await run(online.player, request)
        game_id, house = request.path_params["game_id"], request.path_params["house"]
        try:
            message = await run(online.deals.answer, game_id, house, player, act)
        except DealError as exc:
            return JSONResponse(online_error(exc) | {"code": exc.code}, status_code=400)
        return JSONResponse(message)

    @app.get("/games/{game_id}/deals/{house}")
    @_refusing
    async def deals_panel(request: Request) -> Response:
        return await deals(request, None)

    @app.post("/games/{game_id}/deals/{house}/proposals")
    @_refusing
    async def propose(request: Request) -> Response:
        data = await _body(request)
        house, term = request.path_params["house"], data.get("term")
        return await deals(
            request,
            lambda table: table.propose(
                house, data.get("to"), term if isinstance(term, dict) else {}
            ),
        )

    @app.post("/games/{game_id}/deals/{house}/replies")
    @_refusing
    async def reply(request: Request) -> Response:
        data = await _body(request)
        house = request.path_params["house"]
        return await deals(
            request, lambda table: table.reply(house, data.get("proposal"), data.get("answer"))
        )


# ---------------------------------------------------------------------------------- pages


def _pages(app: FastAPI, online: Online) -> None:
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        return online.page(
            request, "online/lobbies.html", pages.ai_choices(online.loaded, DEFAULT_AI_LEVEL)
        )

    @app.get("/lobbies/{lobby_id}", response_class=HTMLResponse)
    def lobby_page(request: Request, lobby_id: str) -> Response:
        names = house_names(online.loaded)
        content = {"houses": {house: {"name": name} for house, name in names.items()}}
        return online.page(request, "online/lobby.html", {"lobby_id": lobby_id, "content": content})

    @app.get("/join", response_class=HTMLResponse)
    def join_page(request: Request) -> Response:
        return online.page(request, "online/join.html", {})

    @app.get("/games/{game_id}/play/{house}", response_class=HTMLResponse)
    def board(request: Request, game_id: str, house: str) -> Response:
        try:
            player = online.player(request)
            session, lobby = online.hub.open_seat(game_id, house, player)
        except (OnlineError, SessionError) as exc:
            return JSONResponse(online_error(exc), status_code=getattr(exc, "status", 403))
        context = pages.board_context(session, house, online.loaded)
        context.update(lobby_id=lobby.id, map_svg=Markup(context["map_svg"]))
        return online.page(request, "online/board.html", context)

    @app.get("/i18n/{lang}.json")
    def catalog(lang: str) -> Response:
        code = normalise(lang)
        if code is None or code not in online.catalogs.languages():
            return JSONResponse({"error": f"no catalog for {lang!r}"}, status_code=404)
        return JSONResponse({"lang": code, "messages": online.catalogs.messages(code)})


# ---------------------------------------------------------------------------------- sockets

NOT_SAVED = "the server could not store or read this just now: nothing happened, send it again"
MAX_CHAT_MESSAGE = 4096


async def _refuse(websocket: WebSocket, exc: Exception, code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json(online_error(exc))
        await websocket.close(code=code)


async def _unavailable(websocket: WebSocket, exc: Exception) -> None:
    """A socket that cannot even open (the database or Redis did not answer): told so, and
    closed with 1013 (try again later)."""
    log.warning("a socket could not open: %s", exc)
    await _refuse(
        websocket,
        Unavailable(UNAVAILABLE),
        CLOSE_TRY_LATER,
    )


def _not_saved(exc: Exception, in_reply_to: Any) -> dict[str, Any]:
    """The answer to a socket message that a database or Redis failure stopped."""
    log.warning("a socket message was not handled: %s", exc)
    return online_error(NotSaved(NOT_SAVED), in_reply_to)


async def _served(
    websocket: WebSocket, online: Online, serve: Callable[[], Awaitable[None]]
) -> None:
    """Accept ``websocket`` and run ``serve`` while it counts against its address's and key's
    socket limits (refused with CLOSE_TOO_MANY past them)."""
    await websocket.accept()
    try:
        with online.holding(websocket):
            await serve()
    except TooManySockets as exc:
        await _refuse(websocket, exc, CLOSE_TOO_MANY)


def _chat_data(raw: str | bytes | None) -> dict[str, Any] | None:
    """The message if it is a ``chat`` message, else None (the session parses the rest);
    MalformedMessage for one that mentions chat but is not JSON that can be read (too deep,
    for one)."""
    if (
        raw is None
        or len(raw) > MAX_CHAT_MESSAGE
        or b'"chat"' not in (raw if isinstance(raw, bytes) else raw.encode())
    ):
        return None
    data = load_message(raw)
    return data if isinstance(data, dict) and data.get("type") == "chat" else None


async def _chat_or_none(raw: str | bytes | None, conn: Conn, hub: OnlineHub, out: Outbox) -> bool:
    """Handle ``raw`` if it is a chat message (True), else False."""
    try:
        chat = _chat_data(raw)
    except SessionError as exc:
        out.deliver(online_error(exc))
        return True
    if chat is None:
        return False
    await _chat(conn, chat, hub)
    return True


def _voice_data(raw: str | bytes | None) -> dict[str, Any] | None:
    """The message if it is a ``voice`` message, else None (MalformedMessage for one that
    mentions voice but is not JSON that can be read: too large, too deep)."""
    if raw is None or b'"voice"' not in (raw if isinstance(raw, bytes) else raw.encode()):
        return None
    data = load_message(raw)
    return data if isinstance(data, dict) and data.get("type") == "voice" else None


async def _voice_or_none(raw: str | bytes | None, conn: Conn, hub: OnlineHub, out: Outbox) -> bool:
    """Handle ``raw`` if it is a voice message (True), else False; a refusal is answered
    with its ``voice/...`` (or seat) error, nothing changed."""
    try:
        data = _voice_data(raw)
    except SessionError as exc:
        out.deliver(online_error(exc))
        return True
    if data is None:
        return False
    try:
        await asyncio.to_thread(hub.voice.handle, conn, data)
    except OnlineError as exc:
        out.deliver(online_error(exc, data.get("id")))
    except OUTAGES as exc:
        out.deliver(_not_saved(exc, data.get("id")))
    return True


def _sockets(app: FastAPI, online: Online) -> None:
    hub = online.hub
    limits = online.limits

    @app.websocket("/ws/games/{game_id}/seats/{house}")
    async def seat(websocket: WebSocket, game_id: str, house: str) -> None:
        await _served(websocket, online, lambda: _seat(websocket, game_id, house))

    async def _seat(websocket: WebSocket, game_id: str, house: str) -> None:
        try:
            player = await asyncio.to_thread(online.player, websocket)
            session, lobby = await asyncio.to_thread(hub.open_seat, game_id, house, player)
        except (OnlineError, SessionError, StoreError) as exc:
            code = CLOSE_NO_GAME if getattr(exc, "status", 0) == 404 else CLOSE_REFUSED
            await _refuse(websocket, exc, code)
            return
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
            return
        out = Outbox(websocket, limits)
        conn = Conn(
            lobby.id,
            house,
            out.deliver,
            player,
            board=True,
            close=out.close,
            address=client_address(websocket),
        )
        narrate = Narrator(
            session.state.rules, online.catalogs.translations(online.language(websocket))
        )
        detach = await asyncio.to_thread(session.attach, house, out.deliver, narrate)
        try:
            await asyncio.to_thread(hub.connect, conn)
            async for raw in incoming(websocket, out):
                if await _voice_or_none(raw, conn, hub, out):
                    continue
                if await _chat_or_none(raw, conn, hub, out):
                    continue
                try:
                    out.deliver(await asyncio.to_thread(session.handle, house, raw, player.id))
                except OUTAGES as exc:
                    out.deliver(_not_saved(exc, reply_id(raw)))
        except WebSocketDisconnect:
            pass
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
        finally:
            detach()
            _in_background(hub.disconnect, conn)
            _in_background(online.catchup.left, lobby, house, player, session)
            await out.finish()

    @app.websocket("/ws/games/{game_id}/watch")
    async def watch(websocket: WebSocket, game_id: str) -> None:
        await _served(websocket, online, lambda: _watch(websocket, game_id))

    async def _watch(websocket: WebSocket, game_id: str) -> None:
        try:
            session, lobby = await asyncio.to_thread(hub.session, game_id)
        except (OnlineError, StoreError) as exc:
            await _refuse(websocket, exc, CLOSE_NO_GAME)
            return
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
            return
        out = Outbox(websocket, limits)
        conn = Conn(
            lobby.id, None, out.deliver, None, board=True, address=client_address(websocket)
        )
        narrate = Narrator(
            session.state.rules, online.catalogs.translations(online.language(websocket))
        )
        detach = await asyncio.to_thread(session.watch, out.deliver, narrate)
        try:
            await asyncio.to_thread(hub.connect, conn)  # the public chat comes here too
            async for raw in incoming(websocket, out):
                if await _voice_or_none(raw, conn, hub, out):
                    continue
                if await _chat_or_none(raw, conn, hub, out):
                    continue
                out.deliver(
                    online_error(SpectatorCannotAct("spectators watch: they cannot act or ask"))
                )
        except WebSocketDisconnect:
            pass
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
        finally:
            detach()
            _in_background(hub.disconnect, conn)
            await out.finish()

    @app.websocket("/ws/lobbies/{lobby_id}")
    async def lobby_socket(websocket: WebSocket, lobby_id: str) -> None:
        await _served(websocket, online, lambda: _lobby(websocket, lobby_id))

    async def _lobby(websocket: WebSocket, lobby_id: str) -> None:
        try:
            lobby = await asyncio.to_thread(online.online.lobby, lobby_id)
            player = await asyncio.to_thread(online.maybe_player, websocket)
        except OnlineError as exc:
            await _refuse(websocket, exc, CLOSE_NO_GAME)
            return
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
            return
        seat = lobby.seat_of(player.id) if player is not None else None
        house = seat.house if seat is not None else None
        out = Outbox(websocket, limits)
        live = AfterHistory(out.deliver)
        conn = Conn(lobby.id, house, live, player, board=False, address=client_address(websocket))
        try:
            await asyncio.to_thread(hub.connect, conn)
            out.deliver(await asyncio.to_thread(hub.roster, lobby.id))
            history = hub.moderation.readable  # without the lines of those they blocked
            lines = await asyncio.to_thread(history, online.online, lobby.id, house, player)
            live.release([line.message() for line in lines])
            async for raw in incoming(websocket, out):
                if not await _chat_or_none(raw, conn, hub, out):
                    out.deliver(online_error(OnlineError("this socket takes chat messages only")))
        except WebSocketDisconnect:
            pass
        except OUTAGES as exc:
            await _unavailable(websocket, exc)
        finally:
            _in_background(hub.disconnect, conn)
            await out.finish()


def _in_background(func: Callable[..., Any], *args: Any) -> None:
    """Run ``func`` in a worker thread without waiting: clean-up that must happen even when
    the socket's task is being cancelled (server shutdown, a dropped client)."""
    asyncio.get_running_loop().run_in_executor(None, func, *args)


async def _chat(conn: Conn, data: dict[str, Any], hub: OnlineHub) -> None:
    try:
        await asyncio.to_thread(hub.chat, conn, data)
    except OnlineError as exc:
        conn.deliver(online_error(exc, data.get("id")))
    except OUTAGES as exc:
        conn.deliver(_not_saved(exc, data.get("id")))
