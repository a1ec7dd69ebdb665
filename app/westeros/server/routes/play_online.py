"""*Play online* on the local core (docs/online.md "Playing online from the app"):
``GET /online/play`` asks for an invite link, ``POST /online/play`` checks it
(``remote.check_link``: http or https only, a clear error otherwise) and opens it in its
own window — in the desktop app through ``app.state.open_remote`` (``desktop.launch`` sets
it: a separate process, no bridge, no token, no cookie of this core) — or, in the system
browser, offers it as a link that opens without a referrer or a handle on this page."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros.remote import RemoteLinkError, check_link

from ..core import Core


def router(core: Core) -> APIRouter:
    """``GET /online/play`` (the form) and ``POST /online/play`` (open the link)."""
    api = APIRouter()

    @api.get("/online/play", response_class=HTMLResponse)
    def play_form(request: Request) -> Response:
        return core.page(request, "online/play.html", {"error": None, "link": None})

    @api.post("/online/play", response_class=HTMLResponse)
    async def play(request: Request) -> Response:
        form = await request.form()
        try:
            link = check_link(str(form.get("link") or ""))
        except RemoteLinkError as exc:
            typed = str(form.get("link") or "")
            refused = {"error": str(exc), "link": None, "typed": typed}
            return core.page(request, "online/play.html", refused, status=400)
        opener = getattr(request.app.state, "open_remote", None)
        if opener is not None:
            await asyncio.to_thread(opener, link)
        context: dict[str, object] = {"error": None, "link": link, "opened": opener is not None}
        return core.page(request, "online/play.html", context)

    return api
