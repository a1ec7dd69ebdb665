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
which is never sent to a server nor in a Referer, and the page posts it for its cookie."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros.server import pages
from westeros.server.core import Core
from westeros.server.routes.pages import form_options

from .ai_pool import DEFAULT_LEVEL
from .errors import OnlineError
from .hub import RANDOM, clean_name
from .keys import new_key

LOCAL = "127.0.0.1"
EVERYWHERE = "0.0.0.0"
DEFAULT_PORT = 8765
STARTUP_S = 20.0


class HostError(OnlineError):
    """The online server cannot listen as asked (address, port)."""

    code = "online/cannot-host"


def check_interface(text: str) -> str:
    """An IP address to listen on (HostError otherwise)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError as exc:
        raise HostError(f"{text!r} is not an IP address of this computer") from exc


def share_address(interface: str) -> str:
    """The address other machines use to reach ``interface`` (for the invite links)."""
    if interface != EVERYWHERE:
        return interface
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
            return str(probe.getsockname()[0])
        except OSError:
            return LOCAL


class HostedServer:
    """The online server this app runs (at most one), in a thread of the app's process."""

    def __init__(self, store_url: str) -> None:
        self.store_url = store_url
        self.app: Any = None
        self.interface = ""
        self.port = 0
        self._server: Any = None

    @property
    def running(self) -> bool:
        return self._server is not None and self._server.started

    def start(self, interface: str, port: int) -> None:
        """Listen on ``interface``:``port`` (no-op if already listening there)."""
        import uvicorn

        from .app import create_online_app

        if self.running:
            if (interface, port) == (self.interface, self.port):
                return
            self.stop()
        try:
            with socket.socket() as probe:
                probe.bind((interface, port))
        except OSError as exc:
            raise HostError(f"cannot listen on {interface}:{port} ({exc.strerror})") from exc
        self.app = create_online_app(store_url=self.store_url)
        config = uvicorn.Config(self.app, host=interface, port=port, log_level="warning")
        self._server = uvicorn.Server(config)
        thread = threading.Thread(target=self._server.run, name="westeros-host", daemon=True)
        thread.start()
        deadline = time.monotonic() + STARTUP_S
        while not self._server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                self._server = None
                raise HostError(f"the online server did not start on {interface}:{port}")
            time.sleep(0.05)
        self.interface, self.port = interface, port

    def stop(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.should_exit = True
            self._server = None


def router(core: Core) -> APIRouter:
    """``GET /online/host`` (the form) and ``POST /online/host`` (start hosting)."""
    routes = APIRouter()
    hosted = HostedServer(core.store.engine.url.render_as_string(hide_password=False))

    def form_context(error: str | None) -> dict[str, Any]:
        """The form's context: the player counts and options of the new-game screen
        (``pages.start_context``)."""
        start = pages.start_context(core.loaded, [])
        return {
            "error": error,
            "listen_port": DEFAULT_PORT,
            "player_counts": start["player_counts"],
            "default_players": max(start["setups"]),
            "options": start["options"],
            "plugins": start["plugins"],
            **pages.ai_choices(core.loaded, DEFAULT_LEVEL),
        }

    @routes.get("/online/host", response_class=HTMLResponse)
    def host_form(request: Request) -> Response:
        return core.page(request, "online/host.html", form_context(None))

    @routes.post("/online/host", response_class=HTMLResponse)
    async def host(request: Request) -> Response:
        form = await request.form()
        try:
            chosen = str(form.get("interface_address") or "").strip()
            interface = check_interface(chosen or str(form.get("interface") or LOCAL))
            port = int(str(form.get("listen_port") or DEFAULT_PORT))
            players = int(str(form.get("players") or 6))
            seats = int(str(form.get("open") or players))
            name = clean_name(str(form.get("name") or ""))
            options, disable = form_options(form, core)
            await asyncio.to_thread(hosted.start, interface, port)
            online = hosted.app.state.online
            key = new_key()
            host_player, key = await asyncio.to_thread(online.online.register, name, key)
            lobby, invites = await asyncio.to_thread(
                online.hub.create_lobby,
                host_player,
                name=str(form.get("game") or f"{name}'s game"),
                players=players,
                options=options,
                disable=disable,
                ai_level=str(form.get("ai_level") or "normal"),
                ai_personality=str(form.get("ai_personality") or "balanced"),
                host_house=RANDOM,
                clock_seconds=int(str(form.get("clock") or 0)) * 60,
                grace_seconds=int(str(form.get("grace") or 60)),
            )
            for house in list(invites)[max(0, seats - 1) :]:
                await asyncio.to_thread(online.hub.kick, lobby.id, host_player, house)
                invites.pop(house)
        except (OnlineError, ValueError) as exc:
            message = getattr(exc, "message", str(exc))
            return core.page(request, "online/host.html", form_context(message), status=400)
        address = share_address(interface)
        base = f"http://{'[' + address + ']' if ':' in address else address}:{port}"
        own = f"http://{LOCAL if interface in (LOCAL, EVERYWHERE) else address}:{port}"
        context = {
            "lobby": lobby.public(),
            "interface": interface,
            "lobby_url": f"{own}/join#key={key}&lobby={lobby.id}",
            "invites": {h: f"{base}/join#invite={t}" for h, t in invites.items()},
        }
        return core.page(request, "online/hosted.html", context)

    return routes
