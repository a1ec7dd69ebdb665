"""Moderation of online play, the minimum (issue 40; docs/online-moderation.md).

- **Blocks**, for oneself: a player blocks the writer of a chat line they read; from then on
  none of that writer's lines — public ones and ravens — reach the blocker's sockets, on any
  worker (``blockers``, asked where a line is delivered), nor the chat history they are
  shown (socket openings, a seat change, ``GET /api/lobbies/{id}/chat``, replays and game
  files: ``unblocked``). Everyone else still reads them. Unblocking shows them again.
- **Reports**: a player reports a chat line they read, with a reason; stored with the line
  and the reporter, listed by the operator's ``westeros server reports``.
- **Mutes and bans**, by the operator (``westeros server mute/unmute/ban/unban``): a muted
  player may play but not chat (``chat/muted``); a banned one may not take or join a seat,
  open one's board (``online/banned``), create a lobby (``online/banned``), chat
  (``chat/banned``) or act (``online/banned``, checked under the game's writer lock with
  the seat's holder, ``holder``). Every check reads the store, never a worker's cache, so a
  ban or mute counts at once on every worker, for sockets already open too; each worker also
  closes its banned players' board sockets at its next presence refresh (every 5 s), so
  that their seats go to the AI after the lobby's grace period."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import unicodedata
import uuid
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select
from starlette.responses import Response

from westeros.session import WrongSeat
from westeros.store.models import as_utc, utcnow
from westeros.store.moderation import (
    MAX_LABEL,
    MAX_REASON,
    ChatBlock,
    ChatReport,
    ChatSender,
    PlayerSanction,
)
from westeros.store.online import RUNNING, ChatMessage, OnlineLobby, OnlinePlayer, OnlineSeat

from .chat import sender_key
from .errors import (
    Banned,
    ChatBanned,
    LobbyNotFound,
    ModerationRefused,
    Muted,
    UnknownPlayer,
)
from .keys import key_hash
from .records import ChatLine, PlayerInfo

if TYPE_CHECKING:
    from .app import Online
    from .store import OnlineStore


@dataclasses.dataclass(frozen=True, slots=True)
class BlockInfo:
    """One of a player's blocks: its id (to unblock) and the name the blocked one showed."""

    id: str
    label: str
    created_at: datetime

    def public(self) -> dict[str, Any]:
        """As the blocker's API shows it (never the blocked player's id)."""
        return {"id": self.id, "name": self.label, "at": self.created_at.isoformat()}


@dataclasses.dataclass(frozen=True, slots=True)
class ReportInfo:
    """A report as the operator reads it: the line (its lobby, seat, recipient, text and the
    name it was written under), its writer's player id (None: not known), who reported it
    and why."""

    id: int
    created_at: datetime
    lobby_id: str
    lobby_name: str
    message_id: int
    house: str | None
    to_house: str | None
    text: str
    sender_id: str | None
    sender_name: str
    reporter_id: str
    reporter_name: str
    reason: str

    def entry(self) -> dict[str, Any]:
        """As JSON (``westeros server reports --json``)."""
        return {
            **dataclasses.asdict(self),
            "created_at": self.created_at.isoformat(),
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Sanction:
    """A player and what the operator decided about them."""

    player_id: str
    name: str
    muted: bool
    banned: bool
    reason: str


def clean_reason(reason: object) -> str:
    """A report's reason: a non-empty text of at most MAX_REASON characters without control
    characters (newlines become spaces); ModerationRefused otherwise."""
    if not isinstance(reason, str) or not reason.strip():
        raise ModerationRefused("say why you report this line")
    text = " ".join(reason.replace("\r", "\n").split("\n")).strip()
    if len(text) > MAX_REASON:
        raise ModerationRefused(f"a reason may have at most {MAX_REASON} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in text):
        raise ModerationRefused("a reason may not hold control characters")
    return text


class Moderation:
    """Blocks, reports, mutes and bans in the game database on ``engine`` (each method one
    committed transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    # ------------------------------------------------------------------ sanctions
    def sanction(self, player_id: str) -> PlayerSanction | None:
        """What the operator decided about ``player_id`` (None: nothing)."""
        with self._session() as session:
            return session.get(PlayerSanction, player_id)

    def check_may_sit(self, player: PlayerInfo) -> None:
        """Banned (``online/banned``) if ``player`` may not sit, open a seat or create a
        lobby."""
        found = self.sanction(player.id)
        if found is not None and found.banned:
            raise Banned("you are banned from this server")

    def check_may_chat(self, player: PlayerInfo | None) -> None:
        """ChatBanned or Muted if ``player`` (None: a spectator without a key) may not chat."""
        found = self.sanction(player.id) if player is not None else None
        if found is not None and found.banned:
            raise ChatBanned("you are banned from this server")
        if found is not None and found.muted:
            raise Muted("you are muted on this server: you may play but not chat")

    def banned_among(self, player_ids: Collection[str]) -> set[str]:
        """Those of ``player_ids`` who are banned now."""
        if not player_ids:
            return set()
        with self._session() as session:
            rows = session.exec(
                select(PlayerSanction.player_id).where(
                    col(PlayerSanction.player_id).in_(player_ids), col(PlayerSanction.banned)
                )
            ).all()
        return set(rows)

    def holder(self, lobby_id: str, house: str) -> str | None:
        """Who holds ``house``'s seat of the running ``lobby_id`` now (as
        ``OnlineStore.holder``, in the same one read), refusing a banned holder's action
        (WrongSeat ``online/banned``): the writer's check of every person's action."""
        query = (
            select(OnlineSeat.player_id, PlayerSanction.banned)
            .join(OnlineLobby, col(OnlineLobby.id) == col(OnlineSeat.lobby_id))
            .outerjoin(PlayerSanction, col(PlayerSanction.player_id) == col(OnlineSeat.player_id))
            .where(
                col(OnlineSeat.lobby_id) == lobby_id,
                col(OnlineSeat.house) == house,
                col(OnlineLobby.status) == RUNNING,
            )
        )
        with self.engine.connect() as db:  # no ORM session: this is on every action's way
            row = db.execute(query).first()
        if row is None:
            return None
        player_id, banned = row
        if banned:
            raise WrongSeat("you are banned from this server", Banned.code)
        return str(player_id) if player_id is not None else None

    # ------------------------------------------------------------------ the operator
    def find_player(self, key_or_id: str) -> PlayerInfo:
        """The player whose id or key is ``key_or_id`` (UnknownPlayer)."""
        with self._session() as session:
            row = (
                session.get(OnlinePlayer, key_or_id)
                or session.exec(
                    select(OnlinePlayer).where(OnlinePlayer.key_hash == key_hash(key_or_id))
                ).first()
            )
        if row is None:
            raise UnknownPlayer(f"no player has the id or key {key_or_id!r}")
        return PlayerInfo(row.id, row.name)

    def set_sanction(
        self,
        player: PlayerInfo,
        *,
        muted: bool | None = None,
        banned: bool | None = None,
        reason: str | None = None,
    ) -> Sanction:
        """Mute or unmute, ban or unban ``player`` (None: left as it is), with the operator's
        ``reason`` (None: kept)."""
        with self._session() as session, session.begin():
            row = session.get(PlayerSanction, player.id, with_for_update=True)
            if row is None:
                row = PlayerSanction(player_id=player.id)
                session.add(row)
            if muted is not None:
                row.muted = muted
            if banned is not None:
                row.banned = banned
            if reason is not None:
                row.reason = reason[:MAX_REASON]
            row.updated_at = utcnow()
            return Sanction(player.id, player.name, row.muted, row.banned, row.reason)

    def reports(self) -> list[ReportInfo]:
        """Every report, oldest first."""
        reporter = aliased(OnlinePlayer)
        query = (
            sa.select(
                ChatReport,
                ChatMessage,
                col(OnlineLobby.name),
                col(ChatSender.player_id),
                col(reporter.name),
            )
            .join(ChatMessage, col(ChatMessage.id) == col(ChatReport.message_id))
            .join(OnlineLobby, col(OnlineLobby.id) == col(ChatMessage.lobby_id))
            .join(reporter, col(reporter.id) == col(ChatReport.reporter_id))
            .outerjoin(ChatSender, col(ChatSender.message_id) == col(ChatMessage.id))
            .order_by(col(ChatReport.id))
        )
        with self._session() as session:
            rows = session.execute(query).all()
        return [
            ReportInfo(
                id=report.id or 0,
                created_at=as_utc(report.created_at),
                lobby_id=line.lobby_id,
                lobby_name=lobby_name,
                message_id=report.message_id,
                house=line.house,
                to_house=line.to_house,
                text=line.text,
                sender_id=sender_id,
                sender_name=line.player_name,
                reporter_id=report.reporter_id,
                reporter_name=reporter_name,
                reason=report.reason,
            )
            for report, line, lobby_name, sender_id, reporter_name in rows
        ]

    # ------------------------------------------------------------------ blocks and reports
    @staticmethod
    def _readable(
        online: OnlineStore, player: PlayerInfo, lobby_id: str, message_id: object
    ) -> ChatLine:
        """Chat line ``message_id`` of ``lobby_id`` if ``player`` may read it (as the seat
        they hold there now); LobbyNotFound otherwise (whether it exists is not told)."""
        if not isinstance(message_id, int) or isinstance(message_id, bool):
            raise ModerationRefused("name the chat line by its id")
        line = online.chat_line(lobby_id, message_id)
        seat = online.lobby(lobby_id).seat_of(player.id)
        if line is None or not line.visible_to(seat.house if seat is not None else None):
            raise LobbyNotFound("there is no such chat line here")
        return line

    def sender(self, message_id: int) -> str | None:
        """The player who wrote chat line ``message_id`` (None: not known)."""
        with self._session() as session:
            row = session.get(ChatSender, message_id)
            return row.player_id if row is not None else None

    def block(
        self, online: OnlineStore, blocker: PlayerInfo, lobby_id: str, message_id: object
    ) -> tuple[BlockInfo, list[int]]:
        """``blocker`` blocks the writer of chat line ``message_id`` of ``lobby_id`` (one they
        may read). Returns the block and the ids of the lobby's lines they no longer read."""
        line = self._readable(online, blocker, lobby_id, message_id)
        blocked = self.sender(line.id)
        if blocked is None:
            raise ModerationRefused("who wrote this line is not known: it cannot be blocked")
        if blocked == blocker.id:
            raise ModerationRefused("this is your own line")
        try:
            with self._session() as session, session.begin():
                row = ChatBlock(
                    id=str(uuid.uuid4()),
                    blocker_id=blocker.id,
                    blocked_id=blocked,
                    label=line.player_name[:MAX_LABEL],
                )
                session.add(row)
        except IntegrityError:  # blocked already (or at the same time)
            with self._session() as session:
                found = session.exec(
                    select(ChatBlock).where(
                        ChatBlock.blocker_id == blocker.id, ChatBlock.blocked_id == blocked
                    )
                ).one()
                row = found
        # the name the line shows now: a block made earlier keeps the name its writer showed
        # then, which at an anonymous table would tell who the seat's player is (issue 40)
        info = BlockInfo(row.id, line.player_name[:MAX_LABEL], as_utc(row.created_at))
        return info, sorted(self.hidden_lines(lobby_id, blocker.id))

    def unblock(self, blocker: PlayerInfo, block_id: str) -> None:
        """``blocker`` lifts their block ``block_id`` (LobbyNotFound: no such block of
        theirs)."""
        with self._session() as session, session.begin():
            result = session.execute(
                delete(ChatBlock).where(
                    col(ChatBlock.id) == block_id, col(ChatBlock.blocker_id) == blocker.id
                )
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise LobbyNotFound("there is no such block of yours")

    def blocks(self, blocker: PlayerInfo) -> list[BlockInfo]:
        """``blocker``'s blocks, oldest first."""
        with self._session() as session:
            rows = session.exec(
                select(ChatBlock)
                .where(ChatBlock.blocker_id == blocker.id)
                .order_by(col(ChatBlock.created_at))
            ).all()
        return [BlockInfo(r.id, r.label, as_utc(r.created_at)) for r in rows]

    def report(
        self,
        online: OnlineStore,
        reporter: PlayerInfo,
        lobby_id: str,
        message_id: object,
        reason: object,
    ) -> int:
        """``reporter`` reports chat line ``message_id`` of ``lobby_id`` (one they may read,
        not their own) for ``reason``; the report's id (a second report of the same line by
        the same person keeps the first)."""
        text = clean_reason(reason)
        line = self._readable(online, reporter, lobby_id, message_id)
        if self.sender(line.id) == reporter.id:
            raise ModerationRefused("this is your own line")
        try:
            with self._session() as session, session.begin():
                row = ChatReport(message_id=line.id, reporter_id=reporter.id, reason=text)
                session.add(row)
                session.flush()
                return row.id or 0
        except IntegrityError:
            with self._session() as session:
                return (
                    session.exec(
                        select(ChatReport.id).where(
                            ChatReport.message_id == line.id,
                            ChatReport.reporter_id == reporter.id,
                        )
                    ).one()
                    or 0
                )

    # ------------------------------------------------------------------ filtering
    def blockers(self, sender_id: str | None, player_ids: Iterable[str]) -> set[str]:
        """Those of ``player_ids`` who blocked ``sender_id`` (None: a line of nobody known)."""
        ids = set(player_ids)
        if sender_id is None or not ids:
            return set()
        with self._session() as session:
            rows = session.exec(
                select(ChatBlock.blocker_id).where(
                    ChatBlock.blocked_id == sender_id, col(ChatBlock.blocker_id).in_(ids)
                )
            ).all()
        return set(rows)

    def hidden_lines(self, lobby_id: str, blocker_id: str) -> set[int]:
        """The ids of ``lobby_id``'s lines whose writers ``blocker_id`` blocked."""
        with self._session() as session:
            rows = session.exec(
                select(ChatSender.message_id)
                .join(ChatMessage, col(ChatMessage.id) == col(ChatSender.message_id))
                .join(ChatBlock, col(ChatBlock.blocked_id) == col(ChatSender.player_id))
                .where(ChatBlock.blocker_id == blocker_id, ChatMessage.lobby_id == lobby_id)
            ).all()
        return set(rows)

    def unblocked(self, lines: Sequence[ChatLine], blocker_id: str | None) -> list[ChatLine]:
        """``lines`` (of one lobby) without those whose writers ``blocker_id`` blocked
        (None: nobody's blocks, a spectator without a key)."""
        if blocker_id is None or not lines:
            return list(lines)
        hidden = self.hidden_lines(lines[0].lobby_id, blocker_id)
        return [line for line in lines if line.id not in hidden]

    def readable(
        self, online: OnlineStore, lobby_id: str, house: str | None, player: PlayerInfo | None
    ) -> list[ChatLine]:
        """The chat history of ``lobby_id`` that seat ``house`` (None: a spectator's reading)
        may read, without the lines of those ``player`` blocked."""
        lines = online.chat(lobby_id, house)
        return self.unblocked(lines, player.id if player is not None else None)


def mount(app: FastAPI, online: Online) -> None:
    """The player's routes: ``POST /api/chat/blocks`` (``{"lobby", "message"}``: block the
    writer of that line; answers the block and ``hidden``, the lobby's line ids no longer
    shown), ``GET /api/chat/blocks``, ``DELETE /api/chat/blocks/{id}`` and
    ``POST /api/chat/reports`` (``{"lobby", "message", "reason"}``)."""
    from .app import _body, _refusing  # here: the app imports this module

    moderation = online.hub.moderation

    def lobby_of(data: dict[str, Any]) -> str:
        lobby_id = data.get("lobby")
        if not isinstance(lobby_id, str) or not lobby_id:
            raise ModerationRefused("name the lobby of the chat line")
        return lobby_id

    @app.post("/api/chat/blocks")
    @_refusing
    async def block(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        data = await _body(request)
        await asyncio.to_thread(online.hub.rate.check, sender_key(player, None, lobby_of(data)))
        found, hidden = await asyncio.to_thread(
            moderation.block, online.online, player, lobby_of(data), data.get("message")
        )
        return JSONResponse({"block": found.public(), "hidden": hidden})

    @app.get("/api/chat/blocks")
    @_refusing
    async def blocks(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        found = await asyncio.to_thread(moderation.blocks, player)
        return JSONResponse({"blocks": [b.public() for b in found]})

    @app.delete("/api/chat/blocks/{block_id}")
    @_refusing
    async def unblock(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        await asyncio.to_thread(moderation.unblock, player, request.path_params["block_id"])
        return JSONResponse({"unblocked": request.path_params["block_id"]})

    @app.post("/api/chat/reports")
    @_refusing
    async def report(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        data = await _body(request)
        await asyncio.to_thread(online.hub.rate.check, sender_key(player, None, lobby_of(data)))
        report_id = await asyncio.to_thread(
            moderation.report,
            online.online,
            player,
            lobby_of(data),
            data.get("message"),
            data.get("reason"),
        )
        return JSONResponse({"report": report_id})


SANCTIONS: dict[str, dict[str, bool]] = {
    "mute": {"muted": True},
    "unmute": {"muted": False},
    "ban": {"banned": True},
    "unban": {"banned": False},
}
"""The operator's commands that change a player's sanction (``westeros server COMMAND``)."""


def operate(
    engine: Engine,
    command: str,
    target: str | None = None,
    *,
    reason: str | None = None,
    as_json: bool = False,
) -> str:
    """What ``westeros server COMMAND`` does on the database of ``engine`` and prints:
    ``reports`` lists every report (as JSON with ``as_json``); ``mute``, ``unmute``, ``ban``
    and ``unban`` change the sanction of the player whose id or key is ``target``
    (UnknownPlayer), with ``reason`` (None: the one stored is kept)."""
    moderation = Moderation(engine)
    if command == "reports":
        found = moderation.reports()
        if as_json:
            return json.dumps([r.entry() for r in found], ensure_ascii=False, indent=2) + "\n"
        return "".join(map(_report_text, found)) or "No reports.\n"
    player = moderation.find_player(target or "")
    done = moderation.set_sanction(player, reason=reason, **SANCTIONS[command])
    state = ", ".join(word for word, on in (("muted", done.muted), ("banned", done.banned)) if on)
    return f"{player.name} (player {player.id}): {state or 'may chat and play'}.\n"


def _report_text(report: ReportInfo) -> str:
    """One report as ``westeros server reports`` prints it."""
    to = f"raven to {report.to_house}" if report.to_house else "to everyone"
    seat = report.house or "no seat"
    writer = f"player {report.sender_id}" if report.sender_id else "writer not known"
    return (
        f"report {report.id}  {report.created_at.isoformat()}  lobby {report.lobby_id}"
        f" ({report.lobby_name!r}), line {report.message_id}\n"
        f"  {report.sender_name} [{writer}] ({seat}, {to}): {report.text!r}\n"
        f"  reported by {report.reporter_name} [player {report.reporter_id}]:"
        f" {report.reason!r}\n"
    )
