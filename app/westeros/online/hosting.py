"""Host an online game from the app (docs/online.md "Hosting from the app").

The start screen's "Host an online game" (``GET /online/host`` on the local core, behind its
launch token as every local route) chooses the settings and the network interface. Posting
the form starts the online server of this app — the same ``create_online_app`` as a
dedicated ``westeros server``, on the same game database — listening on the chosen interface
and port (by default only on this computer, 127.0.0.1: listening on a network lets every
machine there reach it, so the page warns before), creates the lobby with the host in a
seat, and shows one invite link per open seat. The local core keeps its own 127.0.0.1
address, launch token and Origin checks; the online server is a separate listener with its
own (key-based) rules, so nothing of the local core is reachable through it.

The host's own browser opens the lobby through ``/join#key=…``: the key is in the fragment,
which is never sent to a server nor in a Referer, and the page posts it for its cookie.

One authority (issue 35 finding 6): a hosted game is served only by this online server; the
local core refuses every seat of it (``server.games.HostedOnline``), and the host plays their
own seat through the online server with their key, like any guest.

The listener's own checks (finding 7; ``HostedGuard``): a request whose Host header is not
one of the addresses it listens on (or the share address of the invite links) is refused —
a DNS-rebinding page names its own host; a seat is taken only with an invite (only the
lobby's host may take a seat without one), and no other lobby is created on the host's
machine.

Resume hosting (finding 2): each hosted lobby is remembered (``hosted_games``); after the app
restarts, ``GET /online/host/lobbies/{id}`` offers to host it again and ``POST …/resume``
starts the listener again on the same interface and port (a fresh port only if asked), with
the same lobby, keys and invites and the game from its last accepted action; the guests'
pages reconnect by themselves (``socket.js``, ``api.js``).

Pace, ranking, anonymity, minimum reliability (issue 40; docs/online.md "Two paces: live and
by turns"): the form offers what the online server's own create form offers
(``partials/pace_fields.html``), turned into the fields ``POST /api/lobbies`` takes as
``lobbies.js`` turns them (``pace_fields``) and checked by the online server's own checks
(``lobby_settings.pace``, ``lobby_settings.min_reliability``) before anything listens."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import math
import os
import re
import socket
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.datastructures import FormData, Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from westeros.server import pages
from westeros.server.core import Core
from westeros.server.games import BALANCED_ID, DEFAULT_AI_LEVEL
from westeros.server.i18n import N_
from westeros.server.routes.pages import form_options
from westeros.server.security import split_host
from westeros.store.online import FINISHED

from .errors import LobbyNotFound, OnlineError
from .hosted_games import Hosted, page_url, recorded, remember, still_open
from .keys import new_key
from .lobby_settings import BadSetting, house_names, min_reliability, pace
from .pace import BY_TURNS, LIVE, Pace, PaceError, zone
from .records import LobbyInfo

LOCAL = "127.0.0.1"
EVERYWHERE = "0.0.0.0"
DEFAULT_PORT = 8765
STARTUP_S = 20.0
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
TAKE_PATH = re.compile(r"^/api/lobbies/(?P<lobby>[^/]+)/take$")
POLICY_VIOLATION = 1008
HOUR = 3600
FIELD_LABELS = {
    "pace": N_("Pace"),
    "clock_seconds": N_("Turn clock per player (minutes, 0: none)"),
    "deadline_seconds": N_("Deadline per decision (hours)"),
    "deadline_hours": N_("Deadline per decision (hours)"),
    "time_zone": N_("Time zone of the weekends"),
    "vacation_days": N_("Vacation days each player may take"),
    "max_missed": N_("Missed deadlines in a row before the seat changes hands"),
    "after_missed": N_("Then the seat is"),
    "min_reliability": N_("Minimum reliability to take a seat (percent; 0: none)"),
}
"""The host form's label of each field the online server's checks may refuse (their messages
quote the field's name, e.g. ``'deadline_seconds' is 1 to …``)."""
QUOTED_FIELD = re.compile(r"'(\w+)'")


class HostError(OnlineError):
    """The online server cannot listen as asked (address, port)."""

    code = "online/cannot-host"


class SettingRefused(BadSetting):
    """A setting of the host form that the online server's checks refuse; ``label``: the
    form's label of that field (a msgid, ``FIELD_LABELS``), None if not known."""

    def __init__(self, message: str, label: str | None) -> None:
        super().__init__(message)
        self.label = label

    @classmethod
    def of(cls, refused: BadSetting) -> SettingRefused:
        """``refused`` with the label of the field its message quotes."""
        quoted = QUOTED_FIELD.search(refused.message)
        return cls(refused.message, FIELD_LABELS.get(quoted[1]) if quoted else None)


@dataclasses.dataclass(frozen=True, slots=True)
class TableSettings:
    """The host form's turn clock, pace, ranking, anonymity and minimum reliability, as the
    online server checked them (``OnlineHub.create_lobby``'s arguments)."""

    clock_seconds: int
    pace: dict[str, Any]
    ranked: bool
    anonymous: bool
    min_reliability: int


def local_zone() -> str | None:
    """This computer's time zone as zoneinfo names it (``TZ``, then /etc/timezone, then the
    zone /etc/localtime links to), or None when none of them names one (e.g. on Windows)."""
    found = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError, UnicodeDecodeError):
        found.append(Path("/etc/timezone").read_text(encoding="utf-8"))
    found.append(os.path.realpath("/etc/localtime"))
    for text in found:
        name = text.rpartition("zoneinfo/")[2].strip()
        if not name:
            continue
        with contextlib.suppress(PaceError):
            zone(name)
            return name
    return None


def hours_text(seconds: int) -> str:
    """``seconds`` in hours as the form shows them (``24``, ``1.5``)."""
    return f"{seconds / HOUR:g}"


def pace_fields(form: FormData) -> dict[str, Any]:
    """The host form's pace as ``POST /api/lobbies`` sends it (``lobbies.js`` ``paceSettings``):
    the clock in minutes to ``clock_seconds``, the deadline in hours to ``deadline_seconds``
    (not raised to 1 second as ``lobbies.js`` does: 0 hours is refused), ticks to true or
    false; an empty field is left to its default. ValueError for a clock that is not a whole
    number; SettingRefused for hours that are not a number."""

    def given(name: str) -> str | None:
        return str(form.get(name) or "").strip() or None

    data: dict[str, Any] = {
        "pace": given("pace") or LIVE,
        "clock_seconds": int(given("clock") or 0) * 60,
    }
    if data["pace"] != BY_TURNS:
        return data
    hours = given("deadline_hours")
    if hours is not None:
        try:
            seconds = float(hours) * HOUR
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds):
            raise SettingRefused(
                f"'deadline_hours' is a number of hours, not {hours[:20]!r}",
                FIELD_LABELS["deadline_hours"],
            )
        data["deadline_seconds"] = round(seconds)
    return data | {
        "skip_weekends": form.get("skip_weekends") is not None,
        "time_zone": given("time_zone"),
        "vacation_days": given("vacation_days"),
        "max_missed": given("max_missed"),
        "after_missed": given("after_missed"),
    }


def table_settings(form: FormData) -> TableSettings:
    """The host form's pace, ranking, anonymity and minimum reliability through the online
    server's own checks (``lobby_settings.pace``, ``lobby_settings.min_reliability``);
    SettingRefused names the field refused. A game by turns has no turn clock."""
    data = pace_fields(form)
    data["min_reliability"] = str(form.get("min_reliability") or "").strip() or None
    try:
        paced = pace(data)
        needed = min_reliability(data)
    except BadSetting as exc:
        raise SettingRefused.of(exc) from exc
    return TableSettings(
        clock_seconds=int(data["clock_seconds"]),
        pace=paced,
        ranked=form.get("ranked") is not None,
        anonymous=form.get("anonymous") is not None,
        min_reliability=needed,
    )


def check_interface(text: str) -> str:
    """An IP address to listen on (HostError otherwise)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError as exc:
        raise HostError(f"{text!r} is not an IP address of this computer") from exc


def url_host(address: str) -> str:
    """``address`` as the host part of a URL (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address


def share_address(interface: str) -> str:
    """The address other machines use to reach ``interface`` (for the invite links)."""
    if not ipaddress.ip_address(interface).is_unspecified:
        return interface
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
            return str(probe.getsockname()[0])
        except OSError:
            return LOCAL


def machine_addresses() -> set[str]:
    """The addresses this machine's name resolves to (none if it does not resolve)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        return set()
    return {str(info[4][0]) for info in found}


def allowed_hosts(interface: str, port: int, share: str) -> frozenset[tuple[str, int | None]]:
    """The (host name, port) pairs a request's Host header may name on a listener bound to
    ``interface``:``port`` whose invite links name ``share``: that interface, the share
    address, this machine's own names for a loopback or every-network listener — never a
    name another site chose (DNS rebinding)."""
    listened = ipaddress.ip_address(interface)
    names = {url_host(share)}
    if listened.is_loopback or listened.is_unspecified:
        names |= set(LOOPBACK_NAMES)
    if listened.is_unspecified:
        names |= {url_host(a) for a in machine_addresses()}
    else:
        names.add(url_host(interface))
    return frozenset((name, port) for name in names)


def host_allowed(host: str | None, hosts: frozenset[tuple[str, int | None]]) -> bool:
    """Does a Host header name one of ``hosts`` (``allowed_hosts``), port included?"""
    return host is not None and split_host(host) in hosts


class HostedGuard:
    """ASGI middleware of the hosting listener (issue 35 finding 7): the Host header must be
    one of ``hosts`` (400 ``online/wrong-host``, a WebSocket closed 1008 before it opens); a
    seat is taken only with an invite — ``POST /api/lobbies/{id}/take`` is the lobby host's
    alone — and no lobby is created through it (403 ``online/invite-only``)."""

    def __init__(self, app: Any, hosts: Iterable[tuple[str, int | None]]) -> None:
        self.app: ASGIApp = app
        self.online = app.state.online
        self.hosts = frozenset(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")
        if not host_allowed(host, self.hosts):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": POLICY_VIOLATION})
                return
            names = ", ".join(sorted(f"{n}:{p}" for n, p in self.hosts))
            message = f"this game server answers only as {names}, not as {host!r}"
            refused = JSONResponse({"error": message, "code": "online/wrong-host"}, 400)
            await refused(scope, receive, send)
            return
        if scope["type"] == "http" and scope.get("method") == "POST":
            reason = await self._seat_refusal(scope, str(scope.get("path", "")))
            if reason is not None:
                refused = JSONResponse({"error": reason, "code": "online/invite-only"}, 403)
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _seat_refusal(self, scope: Scope, path: str) -> str | None:
        """Why this POST may not change seats or lobbies here, or None."""
        if path.rstrip("/") == "/api/lobbies":
            return "this game server hosts its host's games only: no other game can be created"
        taking = TAKE_PATH.match(path)
        if taking is None:
            return None
        online = self.online
        player = await asyncio.to_thread(online.maybe_player, Request(scope))
        try:
            lobby = await asyncio.to_thread(online.online.lobby, taking["lobby"])
        except LobbyNotFound:
            return None  # the route answers that there is no such lobby
        if player is not None and player.id == lobby.host_id:
            return None
        return "in a hosted game a seat is taken with its invite link only"


def probe_port(interface: str, port: int) -> None:
    """HostError unless ``interface``:``port`` can be listened on now (with the address
    reuse uvicorn sets, so that the connections of a listener that just stopped do not
    keep its port)."""
    family = socket.AF_INET6 if ":" in interface else socket.AF_INET
    try:
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((interface, port))
    except OSError as exc:
        raise HostError(f"cannot listen on {interface}:{port} ({exc.strerror})") from exc


class HostedServer:
    """The online server this app runs (at most one), in a thread of the app's process."""

    def __init__(self, store_url: str) -> None:
        self.store_url = store_url
        self.app: Any = None
        self.interface = ""
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.started

    def listens(self, interface: str, port: int) -> bool:
        """Is the listener running on ``interface``:``port``?"""
        return self.running and (interface, port) == (self.interface, self.port)

    def start(self, interface: str, port: int) -> None:
        """Listen on ``interface``:``port`` (no-op if already listening there; HostError,
        with the listener left as it was, if that port cannot be listened on)."""
        import uvicorn

        from .app import create_online_app
        from .transport import PROTOCOL
        from .turn import IceConfig

        if self.listens(interface, port):
            return
        if not self.running or port != self.port:
            probe_port(interface, port)  # refused before the running listener is touched
        self.stop()
        self.app = create_online_app(store_url=self.store_url, ice=IceConfig.from_env(os.environ))
        guarded = HostedGuard(self.app, allowed_hosts(interface, port, share_address(interface)))
        config = uvicorn.Config(
            guarded, host=interface, port=port, log_level="warning", ws=PROTOCOL
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="westeros-host", daemon=True)
        thread.start()
        deadline = time.monotonic() + STARTUP_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                raise HostError(f"the online server did not start on {interface}:{port}")
            time.sleep(0.05)
        self._server, self._thread = server, thread
        self.interface, self.port = interface, port

    def stop(self) -> None:
        """Stop listening (and wait for the listener to let its port go)."""
        if self._server is not None:
            self._server.should_exit = True
            if self._thread is not None:
                self._thread.join(STARTUP_S)
            self._server = self._thread = None


def opens_windows(request: Request) -> bool:
    """Does this app open remote pages in windows of their own (the desktop app)?"""
    return getattr(request.app.state, "open_remote", None) is not None


def hosted_context(
    lobby: LobbyInfo, hosted: Hosted, windows: bool, names: dict[str, str]
) -> dict[str, Any]:
    """The context of ``online/hosted.html``: the host's own link (their key in the fragment;
    ``windows``: the desktop app opens it in its own window) and the invite links of the seats
    nobody has taken yet, with each house's name (``names``: ``house_names``)."""
    address = share_address(hosted.interface)
    base = f"http://{url_host(address)}:{hosted.port}"
    local = ipaddress.ip_address(hosted.interface)
    own_host = LOCAL if local.is_unspecified or local.is_loopback else url_host(address)
    own = f"http://{own_host}:{hosted.port}"
    return {
        "lobby": lobby.public(),
        "interface": hosted.interface,
        "lobby_url": f"{own}/join#key={hosted.key}&lobby={lobby.id}",
        "windows": windows,
        "invites": {h: f"{base}/join#invite={t}" for h, t in still_open(lobby, hosted).items()},
        "house_names": names,
    }


def router(core: Core) -> APIRouter:
    """``GET /online/host`` (the form), ``POST /online/host`` (start hosting), ``GET
    /online/host/lobbies/{id}`` (a hosted game: resume hosting, open the host's seat) and
    ``POST /online/host/lobbies/{id}/resume``."""
    routes = APIRouter()
    hosted = HostedServer(core.store.engine.url.render_as_string(hide_password=False))
    core.games.on_close(hosted.stop)

    def form_context(
        error: str | None, sent: FormData | None = None, field: str | None = None
    ) -> dict[str, Any]:
        """The form's context: the player counts and options of the new-game screen
        (``pages.start_context``) and each field's value: its default, or what the person
        ``sent`` when the form comes back refused (issue 37 point 4), with the label of the
        ``field`` refused. The time zone defaults to this computer's (``local_zone``; the
        page asks the browser when the app cannot name it)."""
        start = pages.start_context(core.loaded, [])
        paced, here = Pace(), local_zone()
        values = {
            "name": "",
            "game": "",
            "players": str(max(start["setups"])),
            "open": "3",
            "clock": "0",
            "grace": "60",
            "interface": LOCAL,
            "interface_address": "",
            "listen_port": str(DEFAULT_PORT),
            "ai_level": DEFAULT_AI_LEVEL,
            "ai_personality": BALANCED_ID,
            "spectators_hear": "",
            "pace": paced.mode,
            "deadline_hours": hours_text(paced.deadline_seconds),
            "skip_weekends": "",
            "time_zone": here or paced.time_zone,
            "vacation_days": str(paced.vacation_days),
            "max_missed": str(paced.max_missed),
            "after_missed": paced.after_missed,
            "ranked": "",
            "anonymous": "",
            "min_reliability": "0",
        }
        plugins_on = {p["id"] for p in start["plugins"] if p["default"]}
        options_on = {o["id"] for o in start["options"] if o["default"]}
        if sent is not None:
            values |= {k: str(sent.get(k) or "") for k in values if sent.get(k) is not None}
            plugins_on = {str(p) for p in sent.getlist("plugin")}
            options_on = {o["id"] for o in start["options"] if sent.get(o["id"]) is not None}
        return {
            "error": error,
            "error_field": field,
            "guess_zone": here is None and sent is None,
            "values": values,
            "plugins_on": plugins_on,
            "options_on": options_on,
            "player_counts": start["player_counts"],
            "options": start["options"],
            "plugins": start["plugins"],
            "hosting": core.hosting(),
            **pages.ai_choices(core.loaded, values["ai_level"]),
            "default_personality": values["ai_personality"],
        }

    def shown(lobby: LobbyInfo, record: Hosted, request: Request) -> dict[str, Any]:
        """``hosted_context`` for ``request`` with the installed houses' names."""
        return hosted_context(lobby, record, opens_windows(request), house_names(core.loaded))

    @routes.get("/online/host", response_class=HTMLResponse)
    def host_form(request: Request) -> Response:
        return core.page(request, "online/host.html", form_context(None))

    @routes.post("/online/host", response_class=HTMLResponse)
    async def host(request: Request) -> Response:
        from .hub import RANDOM, clean_name  # the online server's own, loaded once it is hosted

        form = await request.form()
        try:
            chosen = str(form.get("interface_address") or "").strip()
            interface = check_interface(chosen or str(form.get("interface") or LOCAL))
            port = int(str(form.get("listen_port") or DEFAULT_PORT))
            players = int(str(form.get("players") or 6))
            seats = int(str(form.get("open") or players))
            name = clean_name(str(form.get("name") or ""))
            options, disable = form_options(form, core)
            table = table_settings(form)
            await asyncio.to_thread(hosted.start, interface, port)
            online = hosted.app.state.online
            key = new_key()
            host_player, key = await asyncio.to_thread(online.online.register, name, key)
            lobby, invites = await asyncio.to_thread(
                online.hub.create_lobby,
                host_player,
                name=str(form.get("game") or ""),  # the hub names it (hiding an anonymous host)
                players=players,
                options=options,
                disable=disable,
                ai_level=str(form.get("ai_level") or DEFAULT_AI_LEVEL),
                ai_personality=str(form.get("ai_personality") or BALANCED_ID),
                host_house=RANDOM,
                grace_seconds=int(str(form.get("grace") or 60)),
                spectators_hear=form.get("spectators_hear") is not None,
                **dataclasses.asdict(table),
            )
            for house in list(invites)[max(0, seats - 1) :]:
                lobby = await asyncio.to_thread(online.hub.kick, lobby.id, host_player, house)
                invites.pop(house)
        except (OnlineError, ValueError) as exc:
            message = getattr(exc, "message", str(exc))
            context = form_context(message, form, getattr(exc, "label", None))
            return core.page(request, "online/host.html", context, status=400)
        record = Hosted(lobby.id, key, interface, port, dict(invites))
        await asyncio.to_thread(remember, core.store, record)
        return core.page(request, "online/hosted.html", shown(lobby, record, request))

    def game_page(
        request: Request, lobby_id: str, error: str | None = None, status: int = 200
    ) -> Response:
        """The page of hosted lobby ``lobby_id`` (404 if this app did not host it)."""
        record = recorded(core.store).get(lobby_id)
        lobby = None
        with contextlib.suppress(LobbyNotFound):
            lobby = core.games.online.lobby(lobby_id)
        if record is None or lobby is None:
            return core.page(request, "online/host_game.html", {"lobby": None}, status=404)
        running = hosted.listens(record.interface, record.port)
        context = {
            "lobby": lobby.public(),
            "over": lobby.status == FINISHED,
            "running": running,
            "interface": record.interface,
            "listen_port": record.port,
            "resume_url": f"{page_url(lobby_id)}/resume",
            "error": error,
            **({"hosted": shown(lobby, record, request)} if running else {}),
        }
        return core.page(request, "online/host_game.html", context, status=status)

    @routes.get("/online/host/lobbies/{lobby_id}", response_class=HTMLResponse)
    def hosted_game(request: Request, lobby_id: str) -> Response:
        return game_page(request, lobby_id)

    @routes.post("/online/host/lobbies/{lobby_id}/resume", response_class=HTMLResponse)
    async def resume(request: Request, lobby_id: str) -> Response:
        form = await request.form()
        record = recorded(core.store).get(lobby_id)
        if record is None:
            return game_page(request, lobby_id)
        try:
            interface = check_interface(str(form.get("interface") or record.interface))
            port = int(str(form.get("listen_port") or record.port))
            lobby = await asyncio.to_thread(core.games.online.lobby, lobby_id)
            if lobby.status == FINISHED:
                raise HostError("this game is over: its replay is on the start screen")
            await asyncio.to_thread(hosted.start, interface, port)
            await asyncio.to_thread(hosted.app.state.online.online.player, record.key)
        except (OnlineError, ValueError) as exc:
            message = getattr(exc, "message", str(exc))
            return game_page(request, lobby_id, message, status=400)
        record = Hosted(lobby_id, record.key, interface, port, record.invites)
        await asyncio.to_thread(remember, core.store, record)
        return core.page(request, "online/hosted.html", shown(lobby, record, request))

    return routes
