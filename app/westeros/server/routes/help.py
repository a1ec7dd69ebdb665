"""The in-app "How to play": the page (start screen) and the part the board shows in its
overlay (``help_topics`` holds what is explained; RULES.md 1.4-1.11, 3-5, 7, 9; the plugins'
sections, ``register_help_sections``, e.g. an expansion's rules)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.responses import Response

from westeros.engine import Ruleset
from westeros.engine.state import State

from .. import help_topics
from ..core import Core


def help_context(
    core: Core, rules: Ruleset, state: State | None, *, on_board: bool
) -> dict[str, Any]:
    """The context of ``help.html`` / ``help_body.html`` for the content of ``rules``: the
    sections and the card reference of the game ``state`` (its options and houses; None: the
    installed content, every plugin section and the plugins' other cards) and whether "Show
    on board" buttons are offered (the board's overlay)."""
    loaded = core.loaded
    extra = loaded.help_sections_for(rules)
    decks = [d for s in extra for d in s.decks]
    options = houses = None
    if state is not None:
        options = {o: rules.option(state.options, o) for o in rules.options}
        houses = state.houses
    return {
        "sections": help_topics.sections(rules, extra, options, houses),
        "cards": help_topics.card_reference(
            rules, loaded.reference_cards_for(rules, options), decks, options
        ),
        "plugin_decks": help_topics.plugin_decks(extra) if state is None else {},
        "on_board": on_board,
        "back": "/",
    }


def game_context(core: Core, game: str | None) -> dict[str, Any]:
    """The overlay's context: a running game's content (its plugins, its options) when
    ``game`` names one, else the installed content."""
    if game:
        session = core.session(game)
        if not isinstance(session, Response):
            return help_context(core, session.state.rules, session.state, on_board=True)
    return help_context(core, core.loaded.ruleset, None, on_board=True)


def router(core: Core) -> APIRouter:
    """``GET /help`` (the page) and ``GET /help/body?game=`` (the board's overlay)."""
    api = APIRouter()

    @api.get("/help", response_class=HTMLResponse)
    def help_page(request: Request) -> Response:
        context = help_context(core, core.loaded.ruleset, None, on_board=False)
        return core.page(request, "help.html", context)

    @api.get("/help/body", response_class=HTMLResponse)
    def help_body(request: Request, game: str | None = None) -> Response:
        return core.page(request, "help_body.html", game_context(core, game))

    return api
