"""The local core's listener while the core is being built (issue 37 point 5).

The desktop app serves this ASGI app from the start: the window's first requests need not
wait on the socket for the whole core. Until :meth:`Gate.open` hands it the built core, the
gate answers only what a kept start screen (``start_snapshot``) can answer exactly as the core
would — ``GET /`` in the snapshot's language and the static files — behind the same
``security.LocalOnly`` checks (Host, launch token, Origin); every other request waits for the
core and is then served by it, as are all requests once it is open. If the core cannot be
built (:meth:`Gate.fail`), waiting and later requests get 503 with the reason.

The lifespan: startup completes at once (the core's own lifespan has no startup work); at
shutdown the core's lifespan is run through, which closes its games and database."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Mount, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .start_snapshot import Snapshot, language_of

Guard = Callable[[ASGIApp], ASGIApp]
"""Wraps an ASGI app in the core's front door (``security.LocalOnly`` with the launch token)."""


class Gate:
    """The ASGI app the local core listens with: a kept start screen until the core is open."""

    def __init__(self, guard: Guard, snapshot: Snapshot | None) -> None:
        self.snapshot = snapshot
        self.core: ASGIApp | None = None
        self.failure: str | None = None
        self.language: tuple[str, str] | None = None
        """The language headers of the last start screen asked for (the one to keep)."""
        self._ready: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._early: ASGIApp | None = None
        if snapshot is not None:
            static = Router(
                routes=[
                    Mount(f"/static/{prefix}" if prefix else "/static", StaticFiles(directory=d))
                    for prefix, d in snapshot.static
                    if Path(d).is_dir()  # as the core mounts them
                ]
            )
            self._early = guard(self._kept(snapshot.html, static))

    # ------------------------------------------------------------------ from the build thread
    def open(self, core: ASGIApp) -> None:
        """The core is built: serve everything with it from now on."""
        self.core = core
        self._wake()

    def fail(self, reason: str) -> None:
        """The core could not be built: answer 503 with ``reason``."""
        self.failure = reason
        self._wake()

    def _wake(self) -> None:
        loop, ready = self._loop, self._ready
        if loop is not None and ready is not None:
            loop.call_soon_threadsafe(ready.set)

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == "/":
            headers = Headers(scope=scope)
            self.language = language_of(headers, cookie_parser(headers.get("cookie", "")))
        if self.core is None and self._early is not None and self._answers_early(scope):
            await self._early(scope, receive, send)
            return
        if self.core is None and self.failure is None:
            assert self._ready is not None  # set at startup, before any request
            await self._ready.wait()
        if self.core is None:
            await PlainTextResponse(self.failure or "", status_code=503)(scope, receive, send)
            return
        await self.core(scope, receive, send)

    def _answers_early(self, scope: Scope) -> bool:
        """Whether the kept start screen answers ``scope`` exactly as the core would: a GET of
        the start screen in the snapshot's language (or the launch token's redirect to it,
        which the guard makes), or a static file."""
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            return False
        path = scope["path"]
        if path.startswith("/static/"):
            return True
        if path != "/" or scope["method"] != "GET":
            return False
        query = scope.get("query_string", b"")
        return query.startswith(b"token=") or (not query and self.language == self.kept_language)

    @property
    def kept_language(self) -> tuple[str, str] | None:
        return None if self.snapshot is None else self.snapshot.language

    @staticmethod
    def _kept(html: str, static: ASGIApp) -> ASGIApp:
        async def kept(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["path"] == "/":
                await HTMLResponse(html)(scope, receive, send)
            else:
                await static(scope, receive, send)

        return kept

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._ready = asyncio.Event()
                self._loop = asyncio.get_running_loop()
                if self.core is not None or self.failure is not None:
                    self._ready.set()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                core = self.core
                lifespan = getattr(getattr(core, "router", None), "lifespan_context", None)
                if lifespan is not None:
                    async with lifespan(core):
                        pass
                await send({"type": "lifespan.shutdown.complete"})
                return
