"""The start screen, a new game, a seat's board, a game's content and the script catalogs.

An online game is not played on this core's board (issue 35 finding 6: the online server is
its one authority): the host's own seat leads to the page of the hosted game (``GET
/online/host/lobbies/{id}``: resume hosting, open the seat through the online server), every
other seat is refused (403) with a page that shows nothing of it."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from starlette.datastructures import FormData, QueryParams
from starlette.responses import Response

from westeros.engine import EngineError
from westeros.engine.setup import PLAYER_HOUSES, players_with
from westeros.online import transcript
from westeros.online.hosted_games import page_url
from westeros.store import StoreError

from .. import pages
from ..core import Core, seat_refusal
from ..games import DEFAULT_AI_LEVEL, RANDOM, HostedOnline, SetupError, parse_seed
from ..i18n import normalise


def form_options(form: FormData | QueryParams, core: Core) -> tuple[dict[str, Any], list[str]]:
    """Game options (checkboxes named after each option) and plugins switched off. An option
    that requires another one stays at its default while that one is off."""
    options: dict[str, Any] = {}
    known = core.loaded.ruleset.options
    for option in known.values():
        value = form.get(option.id)
        if isinstance(option.default, bool):
            options[option.id] = value is not None and value not in ("", "0", "off", "false")
        elif value is not None:
            options[option.id] = (
                type(option.default)(value) if option.default is not None else value
            )
    for option in known.values():
        needed = option.requires
        if needed is not None and not (needed in known and options.get(needed)):
            options[option.id] = option.default
    enabled = set(form.getlist("plugin"))
    disable = [p["id"] for p in pages.toggleable_plugins(core.loaded) if p["id"] not in enabled]
    return options, disable


def chosen_players(
    options: dict[str, Any], disable: list[str], players: int, house: str
) -> dict[str, Any]:
    """The option naming the houses the players take (``PLAYER_HOUSES``), when a person picks
    a house the count's usual players do not hold in a game with vassals (RULES.md 11.2.5):
    the AIs keep the other usual houses (``setup.players_with``). Empty when not needed."""
    if house == RANDOM:
        return {}
    rules = pages.ruleset_of(options, disable)
    setup = rules.setups.get(players) if rules is not None else None
    if rules is None or setup is None or not setup.players or house in setup.players:
        return {}
    return {PLAYER_HOUSES: ",".join(players_with(rules, players, house))}


PERSONALITY_FIELD = "personality_"
"""The start form names each house's personality select ``personality_<house>``."""


def form_personalities(form: FormData) -> dict[str, str]:
    """The personality chosen for each house (a personality id or ``any``), by house."""
    return {
        key.removeprefix(PERSONALITY_FIELD): str(value)
        for key, value in form.multi_items()
        if key.startswith(PERSONALITY_FIELD) and str(value)
    }


def router(core: Core) -> APIRouter:
    """``GET /``, ``POST /games``, ``GET /new-game/choices`` (the player counts and houses
    the options in its query offer: ``pages.playable_setups``), ``GET /games/{id}/play/{house}``,
    ``GET /games/{id}/content.json``, ``GET /map.css`` and ``GET /i18n/{lang}.json``."""
    api = APIRouter()
    games = core.games

    @api.get("/", response_class=HTMLResponse)
    def start(request: Request) -> Response:
        return core.start_page(request)

    @api.post("/games")
    async def new_game(request: Request) -> Response:
        form = await request.form()
        try:
            players_text = str(form.get("players", ""))
            if not players_text.isdigit():
                raise SetupError("choose how many houses play")
            options, disable = form_options(form, core)
            players = int(players_text)  # Games.create refuses a count the options cannot set up
            house = str(form.get("house") or RANDOM)
            options |= chosen_players(options, disable, players, house)
            seed = parse_seed(str(form.get("seed") or ""))
            session = await asyncio.to_thread(
                games.create,
                players=players,
                human=house,
                seed=seed,
                options=options,
                disable=disable,
                ai_level=str(form.get("ai_level") or DEFAULT_AI_LEVEL),
                personalities=form_personalities(form),
                name=str(form.get("name") or ""),
            )
        except (SetupError, ValueError, StoreError, EngineError) as exc:
            return core.start_page(request, error=str(exc), status=400)
        human = next(h for h in session.players if not session.is_ai(h))
        return RedirectResponse(f"/games/{session.game_id}/play/{human}", status_code=303)

    @api.get(pages.CHOICES_URL)
    def choices(request: Request) -> Response:
        options, disable = form_options(request.query_params, core)
        return JSONResponse({"setups": pages.playable_setups(options, disable)})

    @api.get("/games/{game_id}/play/{house}", response_class=HTMLResponse)
    def board(request: Request, game_id: str, house: str) -> Response:
        lobby = core.games.hosted(game_id)
        if lobby is not None:
            if house == transcript.host_house(lobby):
                return RedirectResponse(page_url(lobby.id), status_code=303)
            context = {"house": house, "lobby": lobby.public(), "url": page_url(lobby.id)}
            return core.page(request, "online/host_refused.html", context, status=403)
        session = core.session(game_id, request)
        if isinstance(session, Response):
            return session
        if house not in session.players:
            return PlainTextResponse(f"{house!r} does not play in this game", status_code=404)
        refusal = seat_refusal(session, house)
        if refusal is not None:
            return PlainTextResponse(refusal, status_code=403)
        return core.page(request, "board.html", pages.board_context(session, house, core.loaded))

    @api.get("/games/{game_id}/content.json")
    def content(request: Request, game_id: str) -> Response:
        if core.games.hosted(game_id) is not None:
            return PlainTextResponse(HostedOnline.MESSAGE, status_code=403)
        session = core.session(game_id, request)
        if isinstance(session, Response):
            return session
        seats = {h: ("ai" if session.is_ai(h) else "human") for h in session.players}
        return JSONResponse(pages.content_of(session.state.rules, seats))

    @api.get("/map.css")
    def map_css() -> Response:
        return Response(pages.map_css(core.loaded), media_type="text/css")

    @api.get("/i18n/{lang}.json")
    def catalog(lang: str) -> Response:
        code = normalise(lang)
        if code is None or code not in core.catalogs.languages():
            return JSONResponse({"error": f"no catalog for {lang!r}"}, status_code=404)
        return JSONResponse({"lang": code, "messages": core.catalogs.messages(code)})

    return api
