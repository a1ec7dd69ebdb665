"""Replays and game files of online games on the online server (docs/online.md "Replays
and files"), as the local core serves them (``westeros.server.replays``) but for the player
whose key asks: while a game runs, only the seat that player holds; once it is over, any
seat's view, the full view and the file. The chat comes filtered for that player
(``transcript.readable``): the public table for everyone, a raven only for its sender and
the house it went to — never for a spectator or another house, also after the game — and
never the lines of those the player blocked (issue 40, ``moderation``); at an anonymous table
its names are hidden until the game ends (``anonymity``). Local games in the same database
are not reachable here (404).

Who may see what is checked first, from the game's record alone; only then is the game
re-run (issue 35 finding 16), and each player key (or, without one, address) has at most
``Limits.replays_per_asker`` replays worked out at once (429 ``online/replay-busy``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from markupsafe import Markup
from sqlalchemy.exc import SQLAlchemyError
from starlette.responses import Response

from westeros.server import pages
from westeros.server.narrate import Narrator
from westeros.server.replays import ReplayRefused, Replays, check_viewer, finished, step_message
from westeros.server.routes.saves import EXPORT_REFUSED, export_name
from westeros.store import StoreError, archive
from westeros.store.errors import GameNotFound

from . import transcript
from .limits import Gate, ReplayBusy
from .records import ChatLine, LobbyInfo
from .sockets import client_address

if TYPE_CHECKING:
    from .app import Online

NOT_ONLINE = "There is no such online game."
UNAVAILABLE = "The game's database did not answer: try again in a moment."
ADDRESS = "address:"
"""How ``asker`` marks who asks without a player key (their network address)."""


def mount(app: FastAPI, online: Online) -> None:
    """``GET /games/{id}/replay``, ``/games/{id}/replay/{house}``,
    ``/games/{id}/replay/step/{seq}?house=``, ``/games/{id}/export`` and ``/map.css``."""
    replays = Replays(online.store)
    gate = Gate(online.limits.replays_per_asker)

    def asker(request: Request, game_id: str) -> tuple[LobbyInfo, str | None, str]:
        """The game's lobby, the house the requesting player holds in it (None: a
        spectator or someone else) and who asks (their player id, else their address)."""
        lobby = online.online.lobby_of_game(game_id)
        if lobby is None:
            raise ReplayRefused(NOT_ONLINE, 404)
        player = online.maybe_player(request)
        seat = lobby.seat_of(player.id) if player is not None else None
        who = player.id if player is not None else f"{ADDRESS}{client_address(request)}"
        return lobby, seat.house if seat is not None else None, who

    def chat(
        lobby: LobbyInfo, own: str | None, who: str, house: str | None = None
    ) -> list[ChatLine]:
        """``transcript.readable`` without the lines of those ``who`` blocked (issue 40)."""
        lines = transcript.readable(online.online, lobby, own, house)
        blocker = None if who.startswith(ADDRESS) else who
        return online.hub.moderation.unblocked(lines, blocker)

    def allowed(
        request: Request, game_id: str, house: str | None
    ) -> tuple[LobbyInfo, str | None, str]:
        """``asker``, once the game's record says they may see ``house``'s replay
        (ReplayRefused otherwise): nothing is re-run for a refusal."""
        lobby, own, who = asker(request, game_id)
        check_viewer(online.store.game(game_id), house, {own} if own else set())
        return lobby, own, who

    def step(request: Request, game_id: str, seq: int, house: str | None) -> dict[str, Any]:
        lobby, own, who = allowed(request, game_id, house)
        with gate.enter(who):
            info, timeline = replays.timeline(game_id)
        narrate = Narrator(
            timeline.final.rules, online.catalogs.translations(online.language(request))
        )
        owned = {own} if own else set()
        lines = chat(lobby, own, who, house)
        return step_message(info, timeline, seq, house, narrate, own=owned, chat=lines)

    def page(request: Request, game_id: str, house: str | None) -> Response:
        try:
            allowed(request, game_id, house)
            info = online.store.game(game_id)
            rules = online.store.first_state(info).rules
        except ReplayRefused as exc:
            return PlainTextResponse(exc.message, status_code=exc.status)
        except GameNotFound:
            return PlainTextResponse(NOT_ONLINE, status_code=404)
        except StoreError as exc:
            return PlainTextResponse(f"This game cannot be replayed: {exc}", status_code=500)
        except SQLAlchemyError:
            return PlainTextResponse(UNAVAILABLE, status_code=503)
        context = pages.replay_context(info, rules, house, online.loaded)
        context["map_svg"] = Markup(context["map_svg"])
        return online.page(request, "replay.html", context)

    def export(request: Request, game_id: str) -> Response:
        try:
            lobby, own, who = asker(request, game_id)
            info = online.store.game(game_id)
            if not finished(info):
                return PlainTextResponse(EXPORT_REFUSED, status_code=403)
            lines = [line.entry() for line in chat(lobby, own, who)]
            with gate.enter(who):
                text = archive.to_text(archive.with_chat(online.store.export_game(game_id), lines))
        except ReplayBusy as exc:
            return PlainTextResponse(exc.message, status_code=exc.status)
        except ReplayRefused as exc:
            return PlainTextResponse(exc.message, status_code=exc.status)
        except GameNotFound:
            return PlainTextResponse(NOT_ONLINE, status_code=404)
        except StoreError as exc:
            return PlainTextResponse(f"This game cannot be exported: {exc}", status_code=500)
        except SQLAlchemyError:
            return PlainTextResponse(UNAVAILABLE, status_code=503)
        filename = export_name(info.setup.name, info.id, info.round)
        return Response(
            text,
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="{filename}"',
                "Cache-Control": "no-store",
            },
        )

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse)
    async def full_replay(request: Request, game_id: str) -> Response:
        return await asyncio.to_thread(page, request, game_id, None)

    @app.get("/games/{game_id}/replay/step/{seq}")
    async def replay_step(
        request: Request, game_id: str, seq: int, house: str | None = None
    ) -> Response:
        try:
            message = await asyncio.to_thread(step, request, game_id, seq, house or None)
        except ReplayBusy as exc:
            return JSONResponse({"error": exc.message, "code": exc.code}, status_code=exc.status)
        except ReplayRefused as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except GameNotFound:
            return JSONResponse({"error": NOT_ONLINE}, status_code=404)
        except StoreError as exc:
            return JSONResponse({"error": f"This game cannot be replayed: {exc}"}, 500)
        except SQLAlchemyError:
            return JSONResponse({"error": UNAVAILABLE}, 503)
        return JSONResponse(message, headers={"Cache-Control": "no-store"})

    @app.get("/games/{game_id}/replay/{house}", response_class=HTMLResponse)
    async def seat_replay(request: Request, game_id: str, house: str) -> Response:
        return await asyncio.to_thread(page, request, game_id, house)

    @app.get("/games/{game_id}/export")
    async def export_game(request: Request, game_id: str) -> Response:
        return await asyncio.to_thread(export, request, game_id)

    @app.get("/map.css")
    def map_css() -> Response:
        return Response(pages.map_css(online.loaded), media_type="text/css")
