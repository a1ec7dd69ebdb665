"""*Play online* on the local core (docs/online.md "Playing online from the app"):
``GET /online/play`` asks for an invite link, ``POST /online/play`` checks it
(``remote.check_link``: http or https only, a clear error otherwise) and opens it in its
own window — in the desktop app through ``app.state.open_remote`` (``desktop.launch`` sets
it: a separate process, no bridge, no token, no cookie of this core) — or, in the system
browser, offers it as a link that opens without a referrer or a handle on this page.

The page also lists the servers whose turn notices this app shows (``westeros.turn_watch``;
never the keys), each with a button: ``POST /online/play/notices`` (``origin``, ``notify``
"on" or "off") starts or stops that server's notices. Like every local form it passes the
core's token and Origin rules (``server.security``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros import turn_watch
from westeros.remote import RemoteLinkError, check_link

from ..core import Core

log = logging.getLogger("westeros.server")


def router(core: Core) -> APIRouter:
    """``GET /online/play`` (the form and the servers that notify this app),
    ``POST /online/play`` (open the link) and ``POST /online/play/notices``."""
    api = APIRouter()

    async def servers() -> list[dict[str, Any]]:
        """The servers that notify this app (or did), without their keys."""
        try:
            found = await asyncio.to_thread(turn_watch.accounts, core.store)
        except Exception:  # the page still opens; the log says why the list is missing
            log.exception("could not read the online accounts")
            return []
        return [{"origin": a.origin, "notify": a.notify, "refused": a.refused} for a in found]

    async def page(request: Request, context: dict[str, Any], status: int = 200) -> Response:
        return core.page(
            request, "online/play.html", {**context, "servers": await servers()}, status
        )

    @api.get("/online/play", response_class=HTMLResponse)
    async def play_form(request: Request) -> Response:
        return await page(request, {"error": None, "link": None})

    @api.post("/online/play", response_class=HTMLResponse)
    async def play(request: Request) -> Response:
        form = await request.form()
        try:
            link = check_link(str(form.get("link") or ""))
        except RemoteLinkError as exc:
            typed = str(form.get("link") or "")
            refused = {"error": str(exc), "link": None, "typed": typed}
            return await page(request, refused, status=400)
        opener = getattr(request.app.state, "open_remote", None)
        if opener is not None:
            await asyncio.to_thread(opener, link)
        context: dict[str, object] = {"error": None, "link": link, "opened": opener is not None}
        return await page(request, context)

    @api.post("/online/play/notices", response_class=HTMLResponse)
    async def notices(request: Request) -> Response:
        form = await request.form()
        server, notify = str(form.get("origin") or ""), form.get("notify")
        if notify not in ("on", "off"):
            return await page(request, {"error": None, "link": None}, status=400)
        try:
            known = await asyncio.to_thread(
                turn_watch.set_notify, core.store, server, notify == "on"
            )
        except Exception:
            log.exception("could not change the notices of %s", server)
            known = False
        status = 200 if known else 404
        changed = {"server": server, "notify": notify == "on"} if known else None
        return await page(request, {"error": None, "link": None, "changed": changed}, status)

    return api
