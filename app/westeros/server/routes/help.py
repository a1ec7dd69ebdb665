"""The in-app "How to play": the page (start screen) and the part the board shows in its
overlay (``help_topics`` holds what is explained; RULES.md 1.4-1.11, 3-5, 7, 9)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros.engine import Ruleset

from .. import help_topics
from ..core import Core


def help_context(rules: Ruleset, *, on_board: bool, back: str = "/") -> dict[str, Any]:
    """The context of ``help.html`` / ``help_body.html``: the sections, the card reference,
    whether "Show on board" buttons are offered (the board's overlay) and where "Back" goes."""
    return {
        "sections": help_topics.sections(rules),
        "cards": help_topics.card_reference(rules),
        "on_board": on_board,
        "back": back,
    }


def rules_of(core: Core, game: str | None) -> Ruleset:
    """A running game's content when ``game`` names one, else the installed content."""
    if game:
        session = core.session(game)
        if not isinstance(session, Response):
            return session.state.rules
    return core.loaded.ruleset


def router(core: Core) -> APIRouter:
    """``GET /help`` (the page) and ``GET /help/body?game=`` (the board's overlay)."""
    api = APIRouter()

    @api.get("/help", response_class=HTMLResponse)
    def help_page(request: Request) -> Response:
        return core.page(request, "help.html", help_context(core.loaded.ruleset, on_board=False))

    @api.get("/help/body", response_class=HTMLResponse)
    def help_body(request: Request, game: str | None = None) -> Response:
        return core.page(
            request, "help_body.html", help_context(rules_of(core, game), on_board=True)
        )

    return api
