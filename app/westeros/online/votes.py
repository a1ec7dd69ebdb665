"""Votes of a table (issue 40; docs/online-votes.md): the people seated at a running game
decide together to pause it, resume it, extend its clocks or deadlines, replace an absent
player (by the AI or a new person), end it now (standings by RULES.md 9.2) or cancel it.

Who votes, and when a vote passes: the **electorate** is fixed when the vote is called: the
people holding a seat then (read from the store), except, for ``replace``, the person of the
seat the vote is about (they neither vote nor call it: ``online/own-replacement``). The
caller's ballot is a yes. The vote **passes** as soon as its yes ballots are more than half
the electorate (``needed = len(voters) // 2 + 1``: with four people a ``pause`` needs 3 of
the 4, the caller's included — i.e. 2 of the 3 others —, a ``replace`` 2 of the 3 others,
the caller's included; a tie fails). It **fails** as soon as that majority cannot be reached
any more, or when its time is up (``Votes.live_seconds``, default 2 min, or
``Votes.turns_seconds``, default 24 h, for a game by turns; ``WESTEROS_VOTE_SECONDS_LIVE`` and
``WESTEROS_VOTE_SECONDS_TURNS``). A ballot cannot be changed; the same ballot sent again
counts once (the primary key of ``online_ballots``). One vote is open per table at a time
(the unique ``open_lobby``). A voter who no longer holds a seat when casting is refused.

Every vote, ballot and result is a system line (no writer, no name: houses only, so an
anonymous table stays anonymous) of the table's public chat: what the chat, replays and game
files show. Every seat, spectator and lobby page of the table, on every worker, gets a
``vote`` message (the bus's ``vote`` message) with the vote and whether the game is paused.

Closing a vote is a conditional ``UPDATE`` (still open): of the workers that tally it at once
exactly one applies it. What a passed vote does:

- ``pause``: no action is taken (``online/paused-by-vote``, checked under the game's writer
  lock), no AI decides, no time bank or grace period runs, no deadline passes, until a
  ``resume`` vote passes; then every running deadline of a game by turns is moved by the
  length of the pause.
- ``extend`` (``minutes``): adds them to every time bank of a live game with a clock, or to
  every running deadline (and the paused rest of a vacation's deadline) of a game by turns.
- ``replace`` (``house``, ``by``): ``ai``: the seat is taken from its person as a host's kick
  does (a game left on their record); ``person``: as a kick, and the seat gets a fresh invite
  (a game by turns: offered as after too many missed deadlines; a live game: the invite link
  is in the vote's result, public to the table).
- ``end``: the game stops now; the standings are the engine's at that moment (RULES.md 9.2,
  ``westeros.engine.victory.ranking``; the winner first if there is one) and are recorded for
  ratings as a finished game (ranked if the lobby is, as for any game: ``ratings``).
- ``cancel``: the game stops with no result; no rating or reliability moves."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select
from starlette.responses import Response

from westeros.engine import result
from westeros.engine.victory import ranking
from westeros.session import GamePaused
from westeros.store.models import as_utc, utcnow
from westeros.store.online import RUNNING, OnlineLobby
from westeros.store.pace import SeatPace
from westeros.store.votes import TableBallot, TableVote

from . import ratings, vote_lines
from .chat import sender_key
from .errors import (
    AlreadyVoted,
    LobbyNotFound,
    NotAVoter,
    OwnReplacement,
    PausedByVote,
    VoteClosed,
    VoteOpen,
    VoteRefused,
)
from .pace import Pace
from .records import LobbyInfo, PlayerInfo

if TYPE_CHECKING:
    from .app import Online
    from .hub import OnlineHub

log = logging.getLogger("westeros.online")

KINDS = ("pause", "resume", "extend", "replace", "end", "cancel")
BY = ("ai", "person")
OPEN, PASSED, FAILED = "open", "passed", "failed"
MAX_MINUTES = 7 * 24 * 60
ENV_LIVE = "WESTEROS_VOTE_SECONDS_LIVE"
ENV_TURNS = "WESTEROS_VOTE_SECONDS_TURNS"
DEFAULT_LIVE = 120.0
DEFAULT_TURNS = 24 * 3600.0


@dataclasses.dataclass(frozen=True, slots=True)
class VoteInfo:
    """A vote as the table sees it (no player id: houses only)."""

    id: str
    lobby_id: str
    kind: str
    house: str | None
    by: str | None
    minutes: int | None
    caller: str
    voters: int
    needed: int
    ballots: dict[str, bool]
    status: str
    result: dict[str, Any]
    created_at: datetime
    closes_at: datetime
    closed_at: datetime | None

    def public(self) -> dict[str, Any]:
        """As the API and the ``vote`` message show it."""
        yes = sum(self.ballots.values())
        return {
            "id": self.id,
            "kind": self.kind,
            "house": self.house,
            "by": self.by,
            "minutes": self.minutes,
            "caller": self.caller,
            "voters": self.voters,
            "needed": self.needed,
            "yes": yes,
            "no": len(self.ballots) - yes,
            "ballots": self.ballots,
            "status": self.status,
            "result": self.result,
            "created_at": as_utc(self.created_at).isoformat(),
            "closes_at": as_utc(self.closes_at).isoformat(),
            "closed_at": as_utc(self.closed_at).isoformat() if self.closed_at else None,
        }


def _not_now(kind: str, lobby: LobbyInfo, paused: bool) -> str | None:
    """Why a vote of ``kind`` cannot be called at ``lobby``'s table now (``paused``: by a
    vote), or None: resume only while paused, pause only while not, extend only a game with a
    clock or deadlines. The one source of these rules: the call is checked with it and the
    panel offers the kinds it allows (``kinds``)."""
    if kind == "pause" and paused:
        return "the game is paused already"
    if kind == "resume" and not paused:
        return "the game is not paused by a vote"
    if kind == "extend" and not lobby.clock_seconds and not Pace.of(lobby.settings).by_turns:
        return "this game has no clock and no deadlines to extend"
    return None


def kinds(lobby: LobbyInfo, paused: bool) -> list[str]:
    """The kinds of vote ``lobby``'s table may call now (``_not_now``), in ``KINDS`` order."""
    return [kind for kind in KINDS if _not_now(kind, lobby, paused) is None]


def _info(row: TableVote, ballots: Iterable[TableBallot]) -> VoteInfo:
    return VoteInfo(
        row.id,
        row.lobby_id,
        row.kind,
        row.house,
        row.by,
        row.minutes,
        row.caller_house,
        len(row.voters),
        row.needed,
        {b.house: b.yes for b in sorted(ballots, key=lambda b: b.created_at)},
        row.status,
        dict(row.result),
        row.created_at,
        row.closes_at,
        row.closed_at,
    )


def _seconds(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


class Votes:
    """The votes of ``hub``'s tables (see the module docstring); ``held``: the games this
    worker knows to be paused by a vote (read at every scan, changed at once by a vote here
    or on another worker)."""

    def __init__(self, hub: OnlineHub) -> None:
        self.hub = hub
        self.engine = hub.online.engine
        self.live_seconds = _seconds(ENV_LIVE, DEFAULT_LIVE)
        self.turns_seconds = _seconds(ENV_TURNS, DEFAULT_TURNS)
        self.held: set[str] = set()

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    # ------------------------------------------------------------------ reading
    def votes(self, lobby_id: str) -> list[VoteInfo]:
        """The votes of ``lobby_id``, oldest first (an open one whose time is up fails first)."""
        self.hub.lobby(lobby_id)  # LobbyNotFound
        self.expire(lobby_id)
        with self._session() as session:
            rows = session.exec(
                select(TableVote)
                .where(TableVote.lobby_id == lobby_id)
                .order_by(col(TableVote.created_at), col(TableVote.id))
            ).all()
            ballots = session.exec(
                select(TableBallot).where(col(TableBallot.vote_id).in_([r.id for r in rows]))
            ).all()
        return [_info(row, [b for b in ballots if b.vote_id == row.id]) for row in rows]

    def table(self, lobby_id: str) -> dict[str, Any]:
        """What the votes panel of ``lobby_id``'s table shows: its votes (``votes``), whether
        a vote paused its game and the kinds that may be called now (``kinds``)."""
        found = self.votes(lobby_id)
        paused = self.paused(lobby_id)
        lobby = self.hub.lobby(lobby_id)  # its clock and pace are set before the game starts
        return {
            "votes": [v.public() for v in found],
            "paused": paused,
            "kinds": kinds(lobby, paused),
        }

    def vote(self, vote_id: str) -> VoteInfo:
        """Vote ``vote_id`` (LobbyNotFound)."""
        with self._session() as session:
            row = session.get(TableVote, vote_id)
            if row is None:
                raise LobbyNotFound("no such vote")
            ballots = session.exec(select(TableBallot).where(TableBallot.vote_id == vote_id)).all()
        return _info(row, ballots)

    def paused(self, lobby_id: str) -> bool:
        """Is ``lobby_id``'s game paused by a vote now (read from the store)?"""
        return bool(self.paused_among([lobby_id]))

    def paused_among(self, lobby_ids: Iterable[str]) -> set[str]:
        """Those of ``lobby_ids`` whose game a vote paused (one query)."""
        ids = list(lobby_ids)
        if not ids:
            return set()
        with self._session() as session:
            rows = session.exec(
                select(TableVote.lobby_id).where(
                    col(TableVote.lobby_id).in_(ids),
                    TableVote.kind == "pause",
                    TableVote.status == PASSED,
                    col(TableVote.lifted_at).is_(None),
                )
            ).all()
        return set(rows)

    def check_action(self, lobby_id: str) -> None:
        """Under the game's writer lock, before a person's action: refused while a vote
        holds the game paused (GamePaused ``online/paused-by-vote``)."""
        if self.paused(lobby_id):
            raise GamePaused(
                "the table voted to pause this game: no action until it votes to resume",
                PausedByVote.code,
            )

    # ------------------------------------------------------------------ calling and voting
    def call(self, lobby_id: str, player: PlayerInfo, data: Mapping[str, Any]) -> VoteInfo:
        """``player``, seated at ``lobby_id``'s running game, calls a vote (``data``: ``kind``,
        ``house``, ``by``, ``minutes``); their ballot is a yes. It may pass at once."""
        lobby = self.hub.online.lobby(lobby_id)
        if lobby.status != RUNNING or lobby.game_id is None:
            raise VoteRefused("votes are taken in a running game only")
        holders = self.hub.online.holders(lobby_id)
        mine = next((h for h, p in holders.items() if p == player.id), None)
        if mine is None:
            raise NotAVoter("only a person seated at this table may call a vote")
        kind, house, by, minutes = self._arguments(lobby, holders, mine, data)
        voters = [p for h, p in holders.items() if p is not None and h != house]
        self.expire(lobby_id)
        now = utcnow()
        row = TableVote(
            id=uuid.uuid4().hex,
            lobby_id=lobby_id,
            open_lobby=lobby_id,
            kind=kind,
            house=house,
            by=by,
            minutes=minutes,
            caller_id=player.id,
            caller_house=mine,
            voters=voters,
            needed=len(voters) // 2 + 1,
            created_at=now,
            closes_at=now + timedelta(seconds=self._timeout(lobby)),
        )
        try:
            with self._session() as session, session.begin():
                session.add(row)
                session.flush()
                session.add(TableBallot(vote_id=row.id, player_id=player.id, house=mine, yes=True))
        except IntegrityError as exc:
            raise VoteOpen("another vote of this table is open: one at a time") from exc
        proposal = {"vote": kind, "house": house, "by": by, "minutes": minutes}
        self._log(lobby, {"line": "call", "caller": mine, **proposal})
        yes = {"voter": mine, "yes": True, "needed": row.needed, "voters": len(voters)}
        self._log(lobby, {"line": "ballot", **yes})
        return self._tally(lobby, row.id)

    def _arguments(
        self,
        lobby: LobbyInfo,
        holders: Mapping[str, str | None],
        mine: str,
        data: Mapping[str, Any],
    ) -> tuple[str, str | None, str | None, int | None]:
        kind = data.get("kind")
        if kind not in KINDS:
            raise VoteRefused(f"a vote's kind is one of {', '.join(KINDS)}")
        refusal = _not_now(kind, lobby, self.paused(lobby.id))
        if refusal is not None:
            raise VoteRefused(refusal)
        if kind == "extend":
            minutes = data.get("minutes")
            if not isinstance(minutes, int) or isinstance(minutes, bool):
                raise VoteRefused(f"'minutes' is a whole number from 1 to {MAX_MINUTES}")
            if not 1 <= minutes <= MAX_MINUTES:
                raise VoteRefused(f"'minutes' is a whole number from 1 to {MAX_MINUTES}")
            return kind, None, None, minutes
        if kind == "replace":
            house, by = data.get("house"), data.get("by")
            if by not in BY:
                raise VoteRefused(f"'by' is one of {', '.join(BY)}")
            if house == mine:
                raise OwnReplacement("nobody calls a vote on their own replacement")
            if not isinstance(house, str) or holders.get(house) is None:
                raise VoteRefused("a replacement is voted on for a seat a person holds")
            return kind, house, by, None
        return kind, None, None, None

    def _timeout(self, lobby: LobbyInfo) -> float:
        return self.turns_seconds if Pace.of(lobby.settings).by_turns else self.live_seconds

    def ballot(self, lobby_id: str, vote_id: str, player: PlayerInfo, yes: bool) -> VoteInfo:
        """``player`` votes ``yes`` (or no) on ``vote_id``. The same ballot again is taken
        once (the vote as it stands); a different one is AlreadyVoted."""
        lobby = self.hub.online.lobby(lobby_id)
        vote = self.vote(vote_id)
        if vote.lobby_id != lobby_id:
            raise LobbyNotFound("no such vote at this table")
        with self._session() as session:
            row = session.get(TableVote, vote_id)
            mine = session.get(TableBallot, (vote_id, player.id))
        assert row is not None
        if mine is not None:
            if mine.yes != yes:
                raise AlreadyVoted("your ballot on this vote is cast: it cannot be changed")
            return vote
        house = next(
            (h for h, p in self.hub.online.holders(lobby_id).items() if p == player.id), None
        )
        if row.kind == "replace" and house == row.house:
            raise OwnReplacement("nobody votes on their own replacement")
        if house is None or player.id not in row.voters:
            raise NotAVoter("only the people seated when the vote was called vote on it")
        self.expire(lobby_id)
        if self.vote(vote_id).status != OPEN:
            raise VoteClosed("this vote is closed")
        try:
            with self._session() as session, session.begin():
                session.add(TableBallot(vote_id=vote_id, player_id=player.id, house=house, yes=yes))
        except IntegrityError:  # the same player's ballot, at the same time
            return self.ballot(lobby_id, vote_id, player, yes)
        ballot = {"voter": house, "yes": yes, "needed": None, "voters": None}
        self._log(lobby, {"line": "ballot", **ballot})
        return self._tally(lobby, vote_id)

    # ------------------------------------------------------------------ closing
    def _tally(self, lobby: LobbyInfo, vote_id: str) -> VoteInfo:
        """Close ``vote_id`` if its ballots (as committed) decide it; apply it if it passed."""
        vote = self.vote(vote_id)
        if vote.status != OPEN:
            self._tell(lobby, vote)
            return vote
        yes = sum(vote.ballots.values())
        left = vote.voters - len(vote.ballots)
        if yes >= vote.needed:
            return self._close(lobby, vote, PASSED, {})
        if yes + left < vote.needed:
            return self._close(lobby, vote, FAILED, {"reason": "majority"})
        self._tell(lobby, vote)
        return vote

    def _close(
        self, lobby: LobbyInfo, vote: VoteInfo, status: str, outcome: dict[str, Any]
    ) -> VoteInfo:
        """Close ``vote`` as ``status`` if it is still open (exactly one caller does), apply
        it if it passed, log the result and tell the table."""
        with self._session() as session, session.begin():
            closed = session.execute(
                update(TableVote)
                .where(col(TableVote.id) == vote.id, col(TableVote.status) == OPEN)
                .values(status=status, open_lobby=None, closed_at=utcnow(), result=outcome)
                .execution_options(synchronize_session=False)
            )
        if closed.rowcount != 1:  # type: ignore[attr-defined]
            return self.vote(vote.id)
        proposal = {"vote": vote.kind, "house": vote.house, "by": vote.by, "minutes": vote.minutes}
        if status == PASSED:
            outcome = self._apply(lobby, vote)
            with self._session() as session, session.begin():
                session.execute(
                    update(TableVote).where(col(TableVote.id) == vote.id).values(result=outcome)
                )
            standings = list(outcome.get("standings") or [])
            self._log(lobby, {"line": "passed", "standings": standings, **proposal}, final=True)
        else:
            reason = outcome.get("reason", "majority")
            self._log(lobby, {"line": "failed", "reason": reason, **proposal}, final=True)
        closed_vote = self.vote(vote.id)
        self._tell(lobby, closed_vote)
        return closed_vote

    def expire(self, lobby_id: str | None = None) -> None:
        """Fail the open votes (of ``lobby_id``, or all) whose time is up."""
        query = select(TableVote).where(
            TableVote.status == OPEN, col(TableVote.closes_at) <= utcnow()
        )
        if lobby_id is not None:
            query = query.where(TableVote.lobby_id == lobby_id)
        with self._session() as session:
            due = session.exec(query).all()
        for row in due:
            lobby = self.hub.online.lobby(row.lobby_id)
            self._close(lobby, self.vote(row.id), FAILED, {"reason": "timeout"})

    def scan(self) -> None:
        """The seat thread's scan: fail the votes whose time is up; read which running games
        a vote holds paused."""
        self.expire()
        with self._session() as session:
            rows = session.exec(
                select(OnlineLobby.game_id)
                .join(TableVote, col(TableVote.lobby_id) == col(OnlineLobby.id))
                .where(
                    OnlineLobby.status == RUNNING,
                    TableVote.kind == "pause",
                    TableVote.status == PASSED,
                    col(TableVote.lifted_at).is_(None),
                )
            ).all()
        self.held = {g for g in rows if g}

    def heard(self, message: Mapping[str, Any]) -> None:
        """Another worker's vote changed (the bus's ``vote`` message): tell this worker's
        sockets of that table."""
        lobby_id, paused = str(message["lobby"]), bool(message.get("paused"))
        self._hold(str(message.get("game") or ""), paused)
        vote = self.vote(str(message["vote"]))
        self.hub.tell(lobby_id, self._message(self.hub.lobby(lobby_id), vote, paused))

    @staticmethod
    def _message(lobby: LobbyInfo, vote: VoteInfo, paused: bool) -> dict[str, Any]:
        """The ``vote`` message of ``vote`` at ``lobby``'s table: the vote, whether the game
        is paused by a vote and the kinds that may be called now."""
        return {
            "type": "vote",
            "vote": vote.public(),
            "paused": paused,
            "kinds": kinds(lobby, paused),
        }

    def _hold(self, game_id: str, paused: bool) -> None:
        if paused:
            self.held.add(game_id)
        else:
            self.held.discard(game_id)

    def _tell(self, lobby: LobbyInfo, vote: VoteInfo) -> None:
        """Tell every socket of ``lobby``'s table, on every worker, how ``vote`` stands."""
        paused = self.paused(lobby.id)
        game_id = lobby.game_id or ""
        self._hold(game_id, paused)
        self.hub.bus.publish(
            lobby.id,
            {"kind": "vote", "lobby": lobby.id, "game": game_id, "vote": vote.id, "paused": paused},
        )
        self.hub.tell(lobby.id, self._message(lobby, vote, paused))

    def _log(self, lobby: LobbyInfo, system: dict[str, Any], *, final: bool = False) -> None:
        """A system line of the table's public chat (what the chat, replays and game files
        show): stored in English, read back as ``system`` for each page's language
        (``vote_lines``); ``final``: the result (the game may have stopped)."""
        try:
            self.hub.announce(lobby.id, vote_lines.english(system))
        except Exception:
            if not final:
                raise
            log.exception("the result of a vote of lobby %s could not be logged", lobby.id)

    # ------------------------------------------------------------------ what a vote does
    def _apply(self, lobby: LobbyInfo, vote: VoteInfo) -> dict[str, Any]:
        """Do what passed ``vote`` decided; what it did (the vote's ``result``)."""
        pace = Pace.of(lobby.settings)
        if vote.kind == "pause":
            self._hold(lobby.game_id or "", True)
            self.hub.vote_paused(lobby.id)
            return {"paused": True}
        if vote.kind == "resume":
            return self._resume(lobby, pace)
        if vote.kind == "extend":
            seconds = float((vote.minutes or 0) * 60)
            if pace.by_turns:
                return {"deadlines": self._shift_deadlines(lobby.id, pace, seconds)}
            self.hub.extend_clocks(lobby.id, seconds)
            return {"seconds": seconds}
        if vote.kind == "replace":
            token = self.hub.replace_seat(lobby.id, vote.house or "", vote.by == "person")
            return {"invite": f"/join#invite={token}"} if token else {}
        game_id = lobby.game_id or ""
        if vote.kind == "end":
            session, _ = self.hub.session(game_id)
            state = session.state
            standings = result(state) or ranking(state)
            self.hub.stop(lobby.id)
            ratings.record_game(self.hub.online, lobby.id, game_id, standings)
            return {"standings": standings}
        self.hub.stop(lobby.id)  # cancel: no result, nothing recorded for ratings
        return {"cancelled": True}

    def _resume(self, lobby: LobbyInfo, pace: Pace) -> dict[str, Any]:
        now = utcnow()
        with self._session() as session, session.begin():
            pauses = session.exec(
                select(TableVote).where(
                    TableVote.lobby_id == lobby.id,
                    TableVote.kind == "pause",
                    TableVote.status == PASSED,
                    col(TableVote.lifted_at).is_(None),
                )
            ).all()
            since = min((as_utc(p.closed_at or now) for p in pauses), default=now)
            for row in pauses:
                row.lifted_at = now
                session.add(row)
        self._hold(lobby.game_id or "", False)
        paused_for = (now - since).total_seconds()
        if pace.by_turns:
            self._shift_deadlines(lobby.id, pace, paused_for)
        self.hub.vote_paused(lobby.id)
        return {"paused_seconds": round(paused_for, 1)}

    def _shift_deadlines(self, lobby_id: str, pace: Pace, seconds: float) -> int:
        """Move every running deadline of ``lobby_id`` (a game by turns) ``seconds`` of
        deadline time later (weekends left out when the pace skips them), and the paused rest
        of a deadline during a vacation; how many deadlines moved."""
        moved = 0
        with self._session() as session, session.begin():
            rows = session.exec(select(SeatPace).where(SeatPace.lobby_id == lobby_id)).all()
            for row in rows:
                if row.asked_serial is None or row.lapsed:
                    continue
                if row.deadline_at is not None:
                    row.deadline_at = pace.deadline(as_utc(row.deadline_at), seconds)
                elif row.paused_left is not None:
                    row.paused_left += seconds
                else:
                    continue
                session.add(row)
                moved += 1
        return moved


def mount(app: FastAPI, online: Online) -> None:
    """The table's vote routes: ``GET /api/lobbies/{id}/votes`` (``{"votes": [...],
    "paused": bool, "kinds": [...]}``: ``Votes.table``), ``POST /api/lobbies/{id}/votes``
    (``{"kind", "house"?, "by"?, "minutes"?}``: call one) and ``POST
    /api/lobbies/{id}/votes/{vote}/ballots`` (``{"yes": bool}``)."""
    from .app import _body, _refusing  # here: the app imports this module

    votes = online.hub.votes

    @app.get("/api/lobbies/{lobby_id}/votes")
    @_refusing
    async def listed(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(votes.table, request.path_params["lobby_id"]))

    @app.post("/api/lobbies/{lobby_id}/votes")
    @_refusing
    async def call(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        data = await _body(request)
        lobby_id = request.path_params["lobby_id"]
        # a vote writes chat lines: it counts in its caller's chat allowance
        await asyncio.to_thread(online.hub.rate.check, sender_key(player, None, lobby_id))
        found = await asyncio.to_thread(votes.call, lobby_id, player, data)
        return JSONResponse({"vote": found.public()})

    @app.post("/api/lobbies/{lobby_id}/votes/{vote_id}/ballots")
    @_refusing
    async def ballot(request: Request) -> Response:
        player = await asyncio.to_thread(online.player, request)
        data = await _body(request)
        if not isinstance(data.get("yes"), bool):
            raise VoteRefused('a ballot is {"yes": true} or {"yes": false}')
        found = await asyncio.to_thread(
            votes.ballot,
            request.path_params["lobby_id"],
            request.path_params["vote_id"],
            player,
            data["yes"],
        )
        return JSONResponse({"vote": found.public()})
