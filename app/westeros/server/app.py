"""The local core's ASGI app (DESIGN §4; routes in docs/protocol.md and the UI contract).

- ``GET /`` the start screen (new game, "Continue" and "Load game" lists, import),
  ``POST /games`` a new game (303 to its board),
  ``GET /games/{id}/play/{house}`` the board with the map inlined,
  ``GET /games/{id}/content.json`` the game's content for scripts,
- ``GET /games/{id}/export`` the game as one JSON file (download), ``POST /games/import``
  (multipart ``file``) a game file, fully validated (303 to the game; 400 and the start screen
  with the reason otherwise, the database untouched),
- ``GET /games/{id}/delete`` the confirmation page, ``POST /games/{id}/delete`` deletes only
  with the form field ``confirm`` equal to the game id (400 otherwise),
- ``GET /games/{id}/replay/{house}`` a seat's replay, ``GET /games/{id}/replay`` the full
  replay of a finished game, ``GET /games/{id}/replay/step/{seq}?house=`` one step as JSON
  (``replays.step_message``; no ``house``: the full view, finished games only),
- ``GET /settings.json`` the player's board preferences (sound, notifications, AI pace),
  ``PUT /settings.json`` a change to some of them (400 with the reason, nothing changed, for
  any bad field; ``routes.settings``),
- ``GET /static/...`` the frontend's and the plugins' static files,
- ``GET /i18n/{lang}.json`` the script catalog of a language,
- ``GET /help`` "How to play", ``GET /help/body?game=`` its part the board's overlay loads,
- ``WS /ws/games/{id}/seats/{house}`` one seat: its own view and log pushed after every
  accepted action; its actions, hints and pings in (every message through the GameSession).
- ``GET /games/{id}/deals/{house}``, ``POST .../proposals``, ``POST .../replies`` one seat's
  deals: its own offers and deals only, an offer to another house, an answer to an offer
  (``routes.deals``; the book is ``westeros.deals.table``).

Who may open a seat (RULES.md 0.4.4: the server filters, the client is never trusted): a
seat's view holds its prompt and what it alone has seen (a looked-at wildling card, its Tides
of Battle draw), so while the game runs the board and the socket open only a house played by a
person; a house played by the computer is refused — the board with 403 and a plain message,
the socket with an ``error`` message (``WrongSeat``, the reason in words) and then close code
4403. Once the game is over any seat opens. These are the replay rules (``replays.py``:
``check_viewer``). An unknown game or house is 404 (socket: ``error``, close code 4404).

Everything sits behind ``security.LocalOnly`` (Host header, launch token, Origin). The routes
are grouped in ``routes`` (pages, saves, replay, seats, settings), sharing one ``core.Core``."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from fastapi import FastAPI
from jinja2 import FileSystemBytecodeCache
from starlette.staticfiles import StaticFiles

from westeros.plugins import LoadedPlugins, load
from westeros.saves import open_store

from ..session import AiFactory
from . import pages
from .core import Core
from .games import Games
from .i18n import Catalogs, Templates
from .routes import routers
from .security import LocalOnly

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compiled_in(folder: Path | None) -> FileSystemBytecodeCache | None:
    """Jinja's cache of compiled templates in ``folder``; None (compile on every start) without
    one or when it cannot be made, which is logged."""
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        log.warning("templates are compiled afresh: no cache folder %s", folder, exc_info=True)
        return None
    return FileSystemBytecodeCache(str(folder))


def create_app(
    *,
    token: str,
    store_url: str | None = None,
    ai_delay: float = 0.0,
    port: int | None = None,
    ai_factory: AiFactory | None = None,
    ai_budget: float = 1.0,
    plugins: LoadedPlugins | None = None,
    locale_dirs: Iterable[str | Path] = (),
    template_cache: Path | None = None,
) -> FastAPI:
    """The local core. ``token`` is the per-launch secret; ``port`` (when known) must appear
    in the Host header; ``store_url`` picks the database (default: the user's SQLite file);
    ``ai_delay`` paces AI moves for a person to follow; ``ai_factory`` makes AI seats
    (default: the game's own AI, with the plugins' AI personalities); ``template_cache`` is a
    folder where compiled templates are kept for the next start (the desktop app's)."""
    loaded = plugins if plugins is not None else load()
    store = open_store(store_url)
    games = Games(
        store,
        ai_factory=ai_factory,
        ai_delay=ai_delay,
        ai_budget=ai_budget,
        personalities=loaded.ai_personalities,
    )
    catalogs = Catalogs([LOCALE_DIR, *locale_dirs, *loaded.translations])
    templates = Templates(pages.template_folders(loaded), catalogs, compiled_in(template_cache))
    core = Core(loaded, store, games, catalogs, templates)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        games.close()
        store.close()

    app = FastAPI(
        title="Westeros local core",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=lifespan,
    )
    app.state.core = core
    app.state.games = games
    for router in routers(core):
        app.include_router(router)
    for prefix, folder in pages.static_folders(loaded):
        path = f"/static/{prefix}" if prefix else "/static"
        if Path(folder).is_dir():
            app.mount(path, StaticFiles(directory=folder), name=f"static:{prefix or 'base'}")
    app.add_middleware(LocalOnly, token=token, port=port)
    return app
