"""The catch-up of an online game (issue 40, docs/online-catchup.md): when a person opens their
seat's board, "Since your last turn" lists in plain words what happened since they last had
it open — orders revealed, the Messenger Raven, combats and their results, Westeros and
wildling cards, bids, the areas their house gained or lost, the ravens sent to their house
and the deals offered to it — each item linked to its step in the seat's replay
(``/games/{id}/replay/{house}#step=N``, ``replays``).

Since when: the person's *last visit*, stored per person and seat (``store.catchup``): when
their board's socket closes, they have seen the game up to that step and every chat line
written by then; closing the panel (``POST .../catchup/{house}/seen``) moves the mark to what
the panel showed, so the same items never come back. A person with no mark yet (new to the
seat, or holding it since before revision ``0012_catchup``) starts after their house's last
action in the log.

What the seat may see is decided as the board socket decides it, never a second time here
(RULES.md 0.4.4): the events of the stored log filtered by ``engine.view.visible`` (a private
event only for the houses it went to; orders, bids and house cards exist as events only once
revealed), control as ``player_view`` shows it, ravens by ``ChatLine.visible_to`` (the house
they went to; other houses' ravens never), deals by ``DealBook.seen_by``. The sentences are
the log's own (``server.narrate``, the plugins' event texts) in the reader's language.

Served at ``GET /games/{id}/catchup/{house}`` (the board asks once it is loaded:
``js/online/catchup.js``), for the player who holds the seat only (their key, and the seat's
holder read from the store, as the deals routes check). Ravens come without the lines of
people the reader blocked (``moderation``), as the chat shows them."""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import case, func, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select
from starlette.responses import Response

from westeros.deals.book import DealBook
from westeros.engine import Action, apply, player_view
from westeros.engine.view import visible
from westeros.server.narrate import Narrator, Translations
from westeros.server.replays import Replays
from westeros.store import GameStore, StoreError, Timeline
from westeros.store.catchup import CatchUpSeen
from westeros.store.models import ActionRecord, as_utc, utcnow
from westeros.store.online import ChatMessage

from .errors import LobbyNotFound, NotYourSeat, OnlineError
from .limits import Gate, ReplayBusy
from .records import ChatLine, LobbyInfo, PlayerInfo
from .sockets import refusal

if TYPE_CHECKING:
    from .app import Online
    from .hub import OnlineHub
    from .session import OnlineSession

log = logging.getLogger("westeros.online.catchup")

ORDERS = "orders"
MESSENGER = "messenger_raven"
COMBAT = "combat"
CARDS = "cards"
BIDS = "bids"
CONTROL = "control"
RAVEN = "raven"
DEAL = "deal"
GAME_OVER = "game_over"
EVENT_KINDS: Mapping[str, str] = {
    "orders_revealed": ORDERS,
    "raven_replaced": MESSENGER,
    "raven_unused": MESSENGER,
    "raven_looked": MESSENGER,
    "wildling_card_seen": MESSENGER,
    "combat": COMBAT,
    "house_cards_revealed": COMBAT,
    "combat_won": COMBAT,
    "westeros_revealed": CARDS,
    "wildling_card": CARDS,
    "bids": BIDS,
    "wildling_bids": BIDS,
    "game_over": GAME_OVER,
}
"""The log's events the catch-up tells (the others stay in the board's log), by item kind."""
Mark = Annotated[int, Query(ge=0, le=2**31 - 1)]
"""A step or chat line id the panel was closed at (an integer column on every database)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Since:
    """Where a catch-up starts: after log step ``seq`` and after chat line ``chat`` (None: the
    lines written after step ``seq``'s action, for a person with no mark yet)."""

    seq: int
    chat: int | None


def replay_url(game_id: str, house: str, seq: int) -> str:
    """The seat's replay at step ``seq`` (``replay.js`` reads ``#step=``)."""
    return f"/games/{quote(game_id, safe='')}/replay/{quote(house, safe='')}#step={seq}"


def last_action(timeline: Timeline, house: str) -> int:
    """The log step of ``house``'s last action (0: none yet)."""
    return next(
        (
            seq
            for seq in range(timeline.total, 0, -1)
            if (entry := timeline.entry(seq)) is not None and entry.house == house
        ),
        0,
    )


def compose(
    timeline: Timeline,
    house: str,
    since: Since,
    narrate: Narrator,
    *,
    game_id: str,
    lines: Sequence[ChatLine] = (),
    action_times: Sequence[tuple[int, datetime]] = (),
    book: DealBook | None = None,
) -> dict[str, Any]:
    """The ``catch_up`` message of ``house`` after ``since`` (see module docstring).

    ``lines``: the lobby's chat as ``house`` may read it; ``action_times``: when each stored
    action after ``since.seq`` was stored (and that one), to place a chat line at its step;
    ``book``: the game's deal book."""
    start = min(max(since.seq, 0), timeline.total)
    first_round = timeline.round_of(start)
    items: list[dict[str, Any]] = []

    def add(kind: str, seq: int, text: str, **extra: Any) -> None:
        items.append(
            {
                "kind": kind,
                "seq": seq,
                "round": timeline.round_of(seq),
                "text": text,
                "url": replay_url(game_id, house, seq),
                **extra,
            }
        )

    for seq in range(start + 1, timeline.total + 1):
        for event in timeline.events(seq):
            kind = EVENT_KINDS.get(event.kind)
            if kind is None or not visible(event, house):
                continue
            data = {"kind": event.kind, **event.data}
            details = _order_lines(narrate, data["orders"]) if kind == ORDERS else []
            add(kind, seq, narrate(data), event=event.kind, details=details)
    for seq, text in _control_changes(timeline, house, start, narrate):
        add(CONTROL, seq, text)
    times = [as_utc(moment) for _, moment in action_times]
    after = _chat_after(since, action_times)
    for line in lines:
        if line.to_house != house or line.house is None or not _later(line, since, after):
            continue
        at = bisect.bisect_right(times, as_utc(line.created_at))
        seq = max(start, action_times[at - 1][0]) if at else start
        text = narrate._("Raven from {house}: {text}").format(
            house=narrate.house(line.house), text=line.text
        )
        add(RAVEN, seq, text, id=line.id, sender=line.house)
    if book is not None:
        _deals(book.seen_by(house), house, first_round, timeline, start, add)
    items.sort(key=lambda item: item["seq"])
    chat_ids = [line.id for line in lines]
    return {
        "type": "catch_up",
        "game_id": game_id,
        "house": house,
        "since": start,
        "upto": timeline.total,
        "chat_upto": max([since.chat or 0, *chat_ids]),
        "items": items,
    }


def _order_lines(narrate: Narrator, orders: Mapping[str, Sequence[str]]) -> list[str]:
    """The revealed orders, one line per house: "Lannister: March +1 in Lannisport, …"."""
    by_house: dict[str, list[str]] = {}
    for area, (owner, token) in orders.items():
        by_house.setdefault(owner, []).append(
            narrate._("{order} in {area}").format(
                order=narrate.token(token), area=narrate.area(area)
            )
        )
    return [
        narrate._("{house}: {what}").format(house=narrate.house(owner), what=narrate.join(placed))
        for owner, placed in by_house.items()
    ]


def _control_changes(
    timeline: Timeline, house: str, start: int, narrate: Narrator
) -> list[tuple[int, str]]:
    """The areas ``house`` holds now and did not at step ``start``, and those it held then and
    does not now (1.3, as the seat's view shows control), each at the step of its last change."""
    state = timeline.state(start)
    first = now = dict(player_view(state, house)["control"])
    changed_at: dict[str, int] = {}
    for seq in range(start + 1, timeline.total + 1):
        entry = timeline.entry(seq)
        assert entry is not None
        action = Action.from_json(entry.action, state.rules.action_kinds)
        state, _ = apply(state, entry.house, action)
        later = player_view(state, house)["control"]
        for area in set(now) | set(later):
            if now.get(area) != later.get(area):
                changed_at[area] = seq
        now = later
    out = []
    for area, seq in sorted(changed_at.items(), key=lambda pair: pair[1]):
        was, holder = first.get(area), now.get(area)
        if holder == house and was != house:
            text = narrate._("You now hold {area}.").format(area=narrate.area(area))
        elif was == house and holder != house and holder is not None:
            text = narrate._("You lost {area} to {house}.").format(
                area=narrate.area(area), house=narrate.house(holder)
            )
        elif was == house and holder != house:
            text = narrate._("You no longer hold {area}.").format(area=narrate.area(area))
        else:
            continue
        out.append((seq, text))
    return out


def _chat_after(since: Since, action_times: Sequence[tuple[int, datetime]]) -> datetime | None:
    """For a person with no mark (``since.chat`` None): lines written after this moment (when
    step ``since.seq``'s action was stored; None: every line)."""
    if since.chat is not None:
        return None
    return next((as_utc(at) for seq, at in action_times if seq == since.seq), None)


def _later(line: ChatLine, since: Since, after: datetime | None) -> bool:
    """Did ``line`` come after the catch-up's start?"""
    if since.chat is not None:
        return line.id > since.chat
    return after is None or as_utc(line.created_at) > after


def _deals(
    book: DealBook,
    house: str,
    first_round: int,
    timeline: Timeline,
    start: int,
    add: Callable[..., None],
) -> None:
    """The offers made to ``house`` and the deals it made since round ``first_round`` (a deal
    has a round, not a step: each is placed at the first step of its round, not before
    ``start``). Their words are the deals panel's (``deals.js``)."""
    for proposal in book.proposals.values():
        if proposal.recipient == house and proposal.round >= first_round:
            seq = max(start, timeline.start_of_round(proposal.round))
            add(DEAL, seq, "", proposal=proposal.to_json())
    for deal in book.deals.values():
        if deal.round >= first_round:
            seq = max(start, timeline.start_of_round(deal.round))
            add(DEAL, seq, "", deal=deal.to_json())


class SeenStore:
    """The catch-up marks (``online_catchup_seen``) and the few reads the catch-up needs."""

    def __init__(self, store: GameStore) -> None:
        self.engine = store.engine

    def since(self, lobby_id: str, house: str, player_id: str) -> Since | None:
        """The person's mark for this seat, None if they have none yet."""
        with Session(self.engine) as db:
            row = db.get(CatchUpSeen, (lobby_id, house, player_id))
            return None if row is None else Since(row.seq, row.chat)

    def mark(self, lobby_id: str, house: str, player_id: str, seq: int, chat: int) -> None:
        """The person has seen up to step ``seq`` and chat line ``chat``. A mark only grows:
        one ``UPDATE`` keeps the larger of each value, so writers at once never lower it."""
        key = {"lobby_id": lobby_id, "house": house, "player_id": player_id}
        if self._raise(key, seq, chat):
            return
        try:
            with Session(self.engine) as db, db.begin():
                db.add(
                    CatchUpSeen(
                        lobby_id=lobby_id, house=house, player_id=player_id, seq=seq, chat=chat
                    )
                )
        except IntegrityError:  # another writer added the row first: raise that one
            self._raise(key, seq, chat)

    def _raise(self, key: Mapping[str, str], seq: int, chat: int) -> bool:
        """Raise the stored mark of ``key`` to ``seq`` and ``chat``; was there one?"""
        table = CatchUpSeen.__table__  # type: ignore[attr-defined]
        statement = (
            update(table)
            .where(*(table.c[name] == value for name, value in key.items()))
            .values(
                seq=case((table.c.seq < seq, seq), else_=table.c.seq),
                chat=case((table.c.chat < chat, chat), else_=table.c.chat),
                updated_at=utcnow(),
            )
        )
        with self.engine.begin() as db:
            return bool(db.execute(statement).rowcount)

    def last_chat(self, lobby_id: str) -> int:
        """The id of the lobby's last chat line (0: none)."""
        with Session(self.engine) as db:
            found = db.exec(
                select(func.max(ChatMessage.id)).where(ChatMessage.lobby_id == lobby_id)
            ).one()
            return int(found or 0)

    def action_times(self, game_id: str, first: int) -> list[tuple[int, datetime]]:
        """(step, when it was stored) of the game's actions from step ``first`` on."""
        with Session(self.engine) as db:
            rows = db.exec(
                select(ActionRecord.seq, ActionRecord.created_at)
                .where(ActionRecord.game_id == game_id, col(ActionRecord.seq) >= first)
                .order_by(col(ActionRecord.seq))
            ).all()
            return [(seq, at) for seq, at in rows]


class CatchUp:
    """The catch-up of one server's online games (see module docstring)."""

    def __init__(self, store: GameStore, hub: OnlineHub) -> None:
        self.store = store
        self.hub = hub
        self.seen = SeenStore(store)
        self.replays = Replays(store)

    def message(
        self, lobby: LobbyInfo, house: str, player: PlayerInfo, translations: Translations
    ) -> dict[str, Any]:
        """The ``catch_up`` message of ``house`` for ``player`` (who holds it: checked by the
        caller), read from the store now, in the language of ``translations``."""
        game_id = lobby.game_id
        if game_id is None:
            raise LobbyNotFound("this game has not started")
        _, timeline = self.replays.timeline(game_id)
        since = self.seen.since(lobby.id, house, player.id)
        if since is None:
            since = Since(last_action(timeline, house), None)
        lines = self.hub.moderation.readable(self.hub.online, lobby.id, house, player)
        stored = self.store.deal_book(game_id)
        return compose(
            timeline,
            house,
            since,
            Narrator(timeline.final.rules, translations),
            game_id=game_id,
            lines=lines,
            action_times=self.seen.action_times(game_id, since.seq),
            book=DealBook.from_json(stored["book"]) if stored is not None else None,
        )

    def left(
        self, lobby: LobbyInfo, house: str, player: PlayerInfo, session: OnlineSession
    ) -> None:
        """A board socket of ``house`` closed: its person has seen the game so far (logged
        on failure: a catch-up then starts earlier, nothing else is lost)."""
        try:
            chat = self.seen.last_chat(lobby.id)
            self.seen.mark(lobby.id, house, player.id, session.serial, chat)
        except Exception:
            log.exception("the catch-up mark of %s in lobby %s was not stored", house, lobby.id)


def mount(app: FastAPI, online: Online) -> None:
    """``GET /games/{id}/catchup/{house}`` (the ``catch_up`` message) and ``POST
    /games/{id}/catchup/{house}/seen?seq=&chat=`` (the panel was closed there), for the
    player who holds the seat now (their key's cookie or header; 403 otherwise)."""
    catchup = online.catchup
    gate = Gate(online.limits.replays_per_asker)

    def holder(request: Request, game_id: str, house: str) -> tuple[LobbyInfo, PlayerInfo]:
        player = online.player(request)
        lobby = online.online.lobby_of_game(game_id)
        if lobby is None:
            raise LobbyNotFound("There is no such online game.")
        if online.online.holders(lobby.id).get(house) != player.id:
            raise NotYourSeat(f"{house} is not your seat (use your own player key)")
        return lobby, player

    def read(request: Request, game_id: str, house: str) -> dict[str, Any]:
        lobby, player = holder(request, game_id, house)
        translations = online.catalogs.translations(online.language(request))
        with gate.enter(player.id):
            return catchup.message(lobby, house, player, translations)

    def seen(request: Request, game_id: str, house: str, seq: int, chat: int) -> dict[str, Any]:
        lobby, player = holder(request, game_id, house)
        catchup.seen.mark(lobby.id, house, player.id, seq, chat)
        return {"seen": {"seq": seq, "chat": chat}}

    async def answer(job: Any, *args: Any) -> Response:
        try:
            return JSONResponse(await asyncio.to_thread(job, *args))
        except (OnlineError, ReplayBusy) as exc:
            return JSONResponse(refusal(exc), status_code=exc.status)
        except (StoreError, SQLAlchemyError) as exc:
            log.warning("a catch-up request failed: %s", exc)
            return JSONResponse({"error": "the game's database did not answer"}, 503)

    @app.get("/games/{game_id}/catchup/{house}")
    async def catch_up(request: Request, game_id: str, house: str) -> Response:
        return await answer(read, request, game_id, house)

    @app.post("/games/{game_id}/catchup/{house}/seen")
    async def catch_up_seen(
        request: Request, game_id: str, house: str, seq: Mark, chat: Mark = 0
    ) -> Response:
        return await answer(seen, request, game_id, house, seq, chat)
