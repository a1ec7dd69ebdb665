"""The in-app "How to play": the page (start screen) and the part the board shows in its
overlay (``help_topics`` holds what is explained; RULES.md 1.4-1.11, 3-5, 7, 9)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros.engine import Ruleset
from westeros.engine.content import ReferenceCard

from .. import help_topics
from ..core import Core


def help_context(
    rules: Ruleset, others: Sequence[ReferenceCard], *, on_board: bool
) -> dict[str, Any]:
    """The context of ``help.html`` / ``help_body.html``: the sections, the card reference
    (``others``: the plugins' reference cards) and whether "Show on board" buttons are offered
    (the board's overlay)."""
    return {
        "sections": help_topics.sections(rules),
        "cards": help_topics.card_reference(rules, others),
        "on_board": on_board,
        "back": "/",
    }


def game_context(core: Core, game: str | None) -> dict[str, Any]:
    """The overlay's context: a running game's content (its plugins, its options) when
    ``game`` names one, else the installed content."""
    if game:
        session = core.session(game)
        if not isinstance(session, Response):
            rules = session.state.rules
            others = core.loaded.reference_cards_for(rules, session.state.options)
            return help_context(rules, others, on_board=True)
    rules = core.loaded.ruleset
    return help_context(rules, core.loaded.reference_cards_for(rules), on_board=True)


def router(core: Core) -> APIRouter:
    """``GET /help`` (the page) and ``GET /help/body?game=`` (the board's overlay)."""
    api = APIRouter()

    @api.get("/help", response_class=HTMLResponse)
    def help_page(request: Request) -> Response:
        rules = core.loaded.ruleset
        context = help_context(rules, core.loaded.reference_cards_for(rules), on_board=False)
        return core.page(request, "help.html", context)

    @api.get("/help/body", response_class=HTMLResponse)
    def help_body(request: Request, game: str | None = None) -> Response:
        return core.page(request, "help_body.html", game_context(core, game))

    return api
