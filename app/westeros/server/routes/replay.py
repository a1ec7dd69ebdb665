"""Replays: a seat's, the full one of a finished game, and one step as JSON
(``replays.check_viewer`` says who may see which). An online game hosted by this app is
replayed as its host may see it: their own seat while it runs, and only the chat they may
read (``transcript``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.responses import Response

from westeros.online import transcript
from westeros.online.records import LobbyInfo
from westeros.store import StoreError, archive
from westeros.store.errors import GameNotFound

from .. import pages
from ..core import Core
from ..narrate import Narrator
from ..replays import ReplayRefused, check_viewer, step_message


def who_asks(core: Core, game_id: str) -> tuple[LobbyInfo | None, set[str] | None, str | None]:
    """The game's lobby (None: a local game), the houses the person at this app plays in it
    (None: every human seat, a local game) and the house they read the chat as (the host's,
    for an online game)."""
    lobby = core.replays.lobby(game_id)
    if lobby is None:
        return None, None, None
    house = transcript.host_house(lobby)
    return lobby, ({house} if house else set()), house


def export_text(core: Core, game_id: str) -> str:
    """The game's file as the person at this app may have it: with the chat they may read
    (an online game's; ``archive.with_chat``)."""
    lobby, _, asker = who_asks(core, game_id)
    lines = [line.entry() for line in transcript.readable(core.replays.online, lobby, asker)]
    return archive.to_text(archive.with_chat(core.store.export_game(game_id), lines))


def replay_page(core: Core, request: Request, game_id: str, viewer: str | None) -> Response:
    """The replay page of ``viewer`` (None: the full replay), or why it is refused."""
    try:
        info, timeline = core.replays.timeline(game_id)
        check_viewer(info, viewer, who_asks(core, game_id)[1])
    except ReplayRefused as exc:
        return PlainTextResponse(exc.message, status_code=exc.status)
    except GameNotFound:
        return PlainTextResponse("There is no such game.", status_code=404)
    except StoreError as exc:
        return PlainTextResponse(f"This game cannot be replayed: {exc}", status_code=500)
    context = pages.replay_context(info, timeline.final.rules, viewer, core.loaded)
    return core.page(request, "replay.html", context)


def router(core: Core) -> APIRouter:
    """``GET /games/{id}/replay``, ``GET /games/{id}/replay/{house}`` and
    ``GET /games/{id}/replay/step/{seq}?house=``."""
    api = APIRouter()

    @api.get("/games/{game_id}/replay", response_class=HTMLResponse)
    def full_replay(request: Request, game_id: str) -> Response:
        return replay_page(core, request, game_id, None)

    @api.get("/games/{game_id}/replay/step/{seq}")
    def replay_step(request: Request, game_id: str, seq: int, house: str | None = None) -> Response:
        try:
            info, timeline = core.replays.timeline(game_id)
            narrate = Narrator(
                timeline.final.rules, core.catalogs.translations(core.language(request))
            )
            lobby, own, asker = who_asks(core, game_id)
            chat = transcript.readable(core.replays.online, lobby, asker, house or None)
            message = step_message(info, timeline, seq, house or None, narrate, own=own, chat=chat)
            return JSONResponse(message)
        except ReplayRefused as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except GameNotFound:
            return JSONResponse({"error": "There is no such game."}, status_code=404)
        except StoreError as exc:
            return JSONResponse({"error": f"This game cannot be replayed: {exc}"}, 500)

    @api.get("/games/{game_id}/replay/{house}", response_class=HTMLResponse)
    def seat_replay(request: Request, game_id: str, house: str) -> Response:
        return replay_page(core, request, game_id, house)

    return api
