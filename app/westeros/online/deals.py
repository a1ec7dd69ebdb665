"""Deals in an online game (issue 37 point 4): the board's deals panel (``js/deals.js``) asks
the online server the same routes as the local core's (``server.routes.deals``), answered by
the game's ``DealTable`` on this worker:

- ``GET /games/{id}/deals/{house}``: the seat's own proposals and deals, the houses it may
  talk to (``DealTable.message``),
- ``POST /games/{id}/deals/{house}/proposals`` ``{"to", "term"}`` and ``POST
  .../replies`` ``{"proposal", "answer"}``.

Seat authority: a request answers only for the seat its player holds now (the key of its
cookie or header, as the seat's socket); anyone else, a spectator included, is refused and
learns nothing of that seat's deals.

Workers: the proposals, replies and deals are stored with the game, and each request reads
them again under the game's writer lock (``Bus.lock``) before it acts and stores them after,
so every worker of the server works on the same book. The public acts, which tell whether a
deal was kept, each worker's table records from the actions its replica applies (every
replica applies them alike) after rebuilding them from the game's log when it is made."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from westeros.deals.book import Act
from westeros.deals.record import acts
from westeros.deals.table import DealTable
from westeros.engine.state import State
from westeros.store import GameStore
from westeros.store.errors import CorruptGame
from westeros.store.replay import step

from .errors import NotYourSeat
from .hub import OnlineHub
from .records import PlayerInfo
from .session import OnlineSession

Act_on = Callable[[DealTable], dict[str, Any]]
"""A person's proposal or reply, carried out on the table."""


class OnlineDeals:
    """The deal tables of this worker's games (see module docstring)."""

    def __init__(self, hub: OnlineHub) -> None:
        self.hub = hub
        self.store: GameStore = hub.store
        self._tables: dict[str, tuple[OnlineSession, DealTable]] = {}
        self._lock = threading.Lock()
        self._saving = threading.local()

    def answer(
        self, game_id: str, house: str, player: PlayerInfo, act: Act_on | None = None
    ) -> dict[str, Any]:
        """What the deals panel of ``house`` shows, after ``act`` (its result under
        ``done``) when given; NotYourSeat unless ``player`` holds ``house`` now;
        ``DealError`` for a proposal or reply the table refuses."""
        session, lobby = self.hub.session(game_id)
        with self.hub.bus.lock(game_id):
            # The seat's holder as stored now, under the writer lock (as an action's is): a
            # take, kick or hand-back on another worker counts at once.
            if self.hub.online.holders(lobby.id).get(house) != player.id:
                raise NotYourSeat(f"{house} is not your seat (use your own player key)")
            table = self._table(session)
            stored = self.store.deal_book(game_id)
            if stored is not None:
                table.reload(stored)
            done = None
            if act is not None:
                with self._writing():
                    done = act(table)
            message = table.message(house)
        if done is not None:
            message["done"] = done
        return message

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Let this thread's table store the book (only a request, under the writer lock)."""
        self._saving.on = True
        try:
            yield
        finally:
            self._saving.on = False

    def _table(self, session: OnlineSession) -> DealTable:
        """The table of ``session`` (made when first asked, and again for a new replica)."""
        game_id = session.game_id
        with self._lock:
            known = self._tables.get(game_id)
            if known is not None and known[0] is session:
                return known[1]

        def save(book: dict[str, Any]) -> None:
            if getattr(self._saving, "on", False):
                self.store.save_deal_book(game_id, book)

        table = DealTable(
            session,
            session.hub.view,
            save,
            self.store.deal_book(game_id),
            record=lambda state: self._acts(game_id, state),
        )
        with self._lock:
            self._tables[game_id] = (session, table)
        return table

    def _acts(self, game_id: str, upto: State) -> list[Act]:
        """The public acts of ``game_id``'s stored actions up to state ``upto``."""
        info, entries = self.store.game_log(game_id)
        state = self.store.first_state(info)
        out: list[Act] = []
        for entry in entries[: upto.serial]:
            after, events, _ = step(state, entry, CorruptGame)
            out.extend(acts(state, events))
            state = after
        return out
