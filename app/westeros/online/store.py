"""The online store: players, lobbies, seats and chat in the game database (SQLite by
default, PostgreSQL by URL), each method one committed transaction (as ``GameStore``).

Players are found by the hash of their key only (``keys.key_hash``); invite tokens likewise.
Seat and invite changes and the start of a game are each one conditional ``UPDATE … WHERE``
(a seat ``player_id IS NULL``, an invite still unused, a lobby still ``open``) whose row count
says whether it won, inside a transaction that first locks the lobby row on PostgreSQL
(``SELECT … FOR UPDATE``); on SQLite the writes of two transactions never overlap and each
``UPDATE`` sees what the other committed. So a seat or an invite is given once, and a lobby
starts one game, on both databases, however many workers ask at once (issue 35 finding 13)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from westeros.store.models import as_utc
from westeros.store.moderation import ChatSender
from westeros.store.online import (
    FINISHED,
    OPEN,
    RUNNING,
    ChatMessage,
    OnlineLobby,
    OnlinePlayer,
    OnlineSeat,
)

from .anonymity import shown_name
from .errors import BadInvite, LobbyNotFound, LobbyState, NotHost, UnknownPlayer
from .keys import key_hash, new_key
from .quotas import TooMany, over
from .records import ChatLine, LobbyInfo, PlayerInfo, SeatInfo


def _seat(seat: OnlineSeat, names: Mapping[str, str], lobby: OnlineLobby) -> SeatInfo:
    """``seat``, its player named as ``shown_name`` lets it show (issue 40: anonymous
    tables)."""
    name = names.get(seat.player_id) if seat.player_id else None
    return SeatInfo(
        house=seat.house,
        player_id=seat.player_id,
        player_name=shown_name(lobby.settings, lobby.status, seat.house, name),
        open=seat.open,
        ready=seat.ready,
        connected=seat.connected,
        clock_left=seat.clock_left,
    )


def _lobby_info(
    lobby: OnlineLobby, seats: Sequence[OnlineSeat], names: Mapping[str, str]
) -> LobbyInfo:
    """``lobby`` with ``seats`` in the order of its houses, their players named by ``names``."""
    order = list(lobby.settings.get("houses", []))
    ranked = sorted(seats, key=lambda s: order.index(s.house) if s.house in order else 99)
    return LobbyInfo(
        id=lobby.id,
        name=lobby.name,
        host_id=lobby.host_id,
        status=lobby.status,
        players=lobby.players,
        settings=dict(lobby.settings),
        clock_seconds=lobby.clock_seconds,
        grace_seconds=lobby.grace_seconds,
        game_id=lobby.game_id,
        seats=tuple(_seat(s, names, lobby) for s in ranked),
        created_at=as_utc(lobby.created_at),
    )


def _line(row: ChatMessage, lobby: OnlineLobby) -> ChatLine:
    """``row`` of ``lobby``, its writer named as ``shown_name`` lets it show (issue 40)."""
    assert row.id is not None
    return ChatLine(
        id=row.id,
        lobby_id=row.lobby_id,
        player_name=shown_name(lobby.settings, lobby.status, row.house, row.player_name) or "",
        house=row.house,
        to_house=row.to_house,
        text=row.text,
        round=row.round,
        phase=row.phase,
        created_at=as_utc(row.created_at),
    )


class OnlineStore:
    """Players, lobbies, seats and chat on ``engine`` (migrated by ``GameStore.open``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    # ------------------------------------------------------------------ players
    def register(self, name: str, key: str | None = None) -> tuple[PlayerInfo, str]:
        """The player with ``key`` (renamed to ``name``), or a new player with a new key when
        ``key`` is None. Returns the player and the key (to hand to the client once)."""
        key = key or new_key()
        digest = key_hash(key)
        try:
            with self._transaction() as session:
                row = session.exec(
                    select(OnlinePlayer).where(OnlinePlayer.key_hash == digest)
                ).first()
                if row is None:
                    row = OnlinePlayer(id=str(uuid.uuid4()), name=name, key_hash=digest)
                    session.add(row)
                else:
                    row.name = name
                return PlayerInfo(row.id, row.name), key
        except IntegrityError:  # the same new key registered at the same time elsewhere
            return self.register(name, key)

    def player(self, key: str | None) -> PlayerInfo:
        """The player whose key is ``key`` (UnknownPlayer otherwise)."""
        if not key:
            raise UnknownPlayer("this needs your player key (join or register first)")
        with self._transaction() as session:
            row = session.exec(
                select(OnlinePlayer).where(OnlinePlayer.key_hash == key_hash(key))
            ).first()
            if row is None:
                raise UnknownPlayer("this player key is not known here")
            return PlayerInfo(row.id, row.name)

    # ------------------------------------------------------------------ lobbies
    def _lobby_row(self, session: Session, lobby_id: str, *, lock: bool = False) -> OnlineLobby:
        query = select(OnlineLobby).where(OnlineLobby.id == lobby_id)
        row = session.exec(query.with_for_update() if lock else query).first()
        if row is None:
            raise LobbyNotFound(f"there is no online game {lobby_id!r}")
        return row

    def _info(self, session: Session, lobby: OnlineLobby) -> LobbyInfo:
        return self._infos(session, [lobby])[0]

    def _infos(self, session: Session, lobbies: Sequence[OnlineLobby]) -> list[LobbyInfo]:
        """The ``LobbyInfo`` of each of ``lobbies``: their seats and players read in two
        queries however many lobbies there are."""
        if not lobbies:
            return []
        seats = session.exec(
            select(OnlineSeat).where(col(OnlineSeat.lobby_id).in_([r.id for r in lobbies]))
        ).all()
        ids = {s.player_id for s in seats if s.player_id}
        players = session.exec(select(OnlinePlayer).where(col(OnlinePlayer.id).in_(ids))).all()
        names = {p.id: p.name for p in players}
        by_lobby: dict[str, list[OnlineSeat]] = {r.id: [] for r in lobbies}
        for seat in seats:
            by_lobby[seat.lobby_id].append(seat)
        return [_lobby_info(lobby, by_lobby[lobby.id], names) for lobby in lobbies]

    def _seat_row(self, session: Session, lobby_id: str, house: str) -> OnlineSeat:
        seat = session.get(OnlineSeat, (lobby_id, house))
        if seat is None:
            raise LobbyNotFound(f"{house!r} is not a seat of this game")
        return seat

    def create_lobby(
        self,
        host: PlayerInfo,
        *,
        name: str,
        players: int,
        houses: Sequence[str],
        open_houses: Iterable[str],
        settings: Mapping[str, Any],
        clock_seconds: int = 0,
        grace_seconds: int = 60,
        max_open: int = 0,
    ) -> tuple[LobbyInfo, dict[str, str]]:
        """A new open lobby with a seat per house; every house in ``open_houses`` gets an
        invite token (returned once, by house; only their hashes are kept). TooMany when the
        host would then host more than ``max_open`` open lobbies (0: no limit), counted
        after the insert under the host's row lock, so concurrent creations count each other."""
        lobby_id = str(uuid.uuid4())
        invites = {h: new_key() for h in houses if h in set(open_houses)}
        with self._transaction() as session:
            self._lock_player(session, host.id)
            lobby = OnlineLobby(
                id=lobby_id,
                name=name,
                host_id=host.id,
                players=players,
                settings={**settings, "houses": list(houses)},
                clock_seconds=clock_seconds,
                grace_seconds=grace_seconds,
            )
            session.add(lobby)
            session.flush()
            session.add_all(
                OnlineSeat(
                    lobby_id=lobby_id,
                    house=h,
                    open=h in invites,
                    invite_hash=key_hash(invites[h]) if h in invites else None,
                    clock_left=float(clock_seconds),
                )
                for h in houses
            )
            session.flush()
            hosted = self._count_hosted(session, host.id, OPEN)
            if over(max_open, hosted):
                raise TooMany(f"one player may host at most {max_open} open lobbies")
            return self._info(session, lobby), invites

    @staticmethod
    def _lock_player(session: Session, player_id: str) -> None:
        """Lock the player's row until the transaction ends (PostgreSQL; on SQLite the
        transaction's first write takes the database's write lock)."""
        session.exec(
            select(OnlinePlayer.id).where(OnlinePlayer.id == player_id).with_for_update()
        ).first()

    @staticmethod
    def _count_hosted(session: Session, host_id: str, status: str, *, ai_only: bool = False) -> int:
        """How many lobbies in ``status`` ``host_id`` hosts (``ai_only``: without a person)."""
        query = select(func.count()).where(
            OnlineLobby.host_id == host_id, OnlineLobby.status == status
        )
        if ai_only:
            people = select(OnlineSeat.lobby_id).where(
                OnlineSeat.lobby_id == OnlineLobby.id, col(OnlineSeat.player_id).is_not(None)
            )
            query = query.where(~people.exists())
        return int(session.exec(query).one())

    def lobby(self, lobby_id: str) -> LobbyInfo:
        """The lobby ``lobby_id`` (LobbyNotFound)."""
        with self._transaction() as session:
            return self._info(session, self._lobby_row(session, lobby_id))

    def lobbies_by_id(self, lobby_ids: Sequence[str]) -> dict[str, LobbyInfo]:
        """Those of the lobbies ``lobby_ids`` that exist, read together (three queries)."""
        with self._transaction() as session:
            rows = session.exec(select(OnlineLobby).where(col(OnlineLobby.id).in_(lobby_ids))).all()
            return {info.id: info for info in self._infos(session, rows)}

    def lobby_of_game(self, game_id: str) -> LobbyInfo | None:
        """The lobby that started ``game_id`` (None: not an online game)."""
        with self._transaction() as session:
            row = session.exec(select(OnlineLobby).where(OnlineLobby.game_id == game_id)).first()
            return self._info(session, row) if row is not None else None

    def lobbies(
        self, statuses: Sequence[str] = (OPEN, RUNNING), limit: int = 100
    ) -> list[LobbyInfo]:
        """Lobbies in ``statuses``, newest first."""
        with self._transaction() as session:
            rows = session.exec(
                select(OnlineLobby)
                .where(col(OnlineLobby.status).in_(statuses))
                .order_by(col(OnlineLobby.created_at).desc())
                .limit(limit)
            ).all()
            return self._infos(session, rows)

    def running_games(self, limit: int = 1000) -> list[str]:
        """The game ids of running lobbies, newest first (one query)."""
        with self._transaction() as session:
            rows = session.exec(
                select(OnlineLobby.game_id)
                .where(OnlineLobby.status == RUNNING, col(OnlineLobby.game_id).is_not(None))
                .order_by(col(OnlineLobby.created_at).desc())
                .limit(limit)
            ).all()
            return [r for r in rows if r is not None]

    def take_seat(self, lobby_id: str, player: PlayerInfo, house: str) -> LobbyInfo:
        """``player`` takes the open, free seat ``house`` (leaving any other seat of theirs):
        one ``UPDATE … WHERE player_id IS NULL``, so of players taking it at once one wins."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id, lock=True)
            seat = self._seat_row(session, lobby_id, house)
            if seat.player_id == player.id:
                return self._info(session, lobby)
            if lobby.status != OPEN:
                raise LobbyState("the game has started: seats are handed out by invite only")
            claimed = self._claim(
                session, lobby_id, house, player.id, col(OnlineSeat.open).is_(True)
            )
            if not claimed:
                raise LobbyState(f"{house} is not free to take")
            self._leave(session, lobby_id, player.id, keep=house)
            return self._info(session, lobby)

    @staticmethod
    def _claim(
        session: Session, lobby_id: str, house: str, player_id: str, *conditions: Any
    ) -> bool:
        """Give seat ``house`` to ``player_id`` if nobody holds it (and ``conditions`` hold)
        in one ``UPDATE``; did it?"""
        result = session.execute(
            update(OnlineSeat)
            .where(
                col(OnlineSeat.lobby_id) == lobby_id,
                col(OnlineSeat.house) == house,
                col(OnlineSeat.player_id).is_(None),
                *conditions,
            )
            .values(player_id=player_id, ready=False, invite_hash=None, open=True)
            .execution_options(synchronize_session=False)
        )
        session.expire_all()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def lobby_of_invite(self, token: str) -> str | None:
        """The lobby whose seat invite ``token`` opens, if it is still unused."""
        if not token:
            return None
        with self._transaction() as session:
            return session.exec(
                select(OnlineSeat.lobby_id).where(OnlineSeat.invite_hash == key_hash(token))
            ).first()

    def join_by_invite(self, token: str, player: PlayerInfo) -> tuple[LobbyInfo, str]:
        """``player`` takes the seat whose invite is ``token`` (BadInvite otherwise); this
        works in a running game too (a seat handed back). Returns the lobby and the house."""
        digest = key_hash(token) if token else ""
        refused = BadInvite("this invite link is not valid (or its seat is taken)")
        with self._transaction() as session:
            seat = session.exec(select(OnlineSeat).where(OnlineSeat.invite_hash == digest)).first()
            if not token or seat is None:
                raise refused
            lobby_id, house = seat.lobby_id, seat.house
            lobby = self._lobby_row(session, lobby_id, lock=True)
            if lobby.status == FINISHED:
                raise BadInvite("this game is over")
            if not self._claim(
                session, lobby_id, house, player.id, col(OnlineSeat.invite_hash) == digest
            ):
                raise refused
            self._leave(session, lobby_id, player.id, keep=house)
            return self._info(session, lobby), house

    @staticmethod
    def _leave(session: Session, lobby_id: str, player_id: str, *, keep: str) -> None:
        """``player_id`` leaves every seat of the lobby but ``keep``."""
        session.execute(
            update(OnlineSeat)
            .where(
                col(OnlineSeat.lobby_id) == lobby_id,
                col(OnlineSeat.player_id) == player_id,
                col(OnlineSeat.house) != keep,
            )
            .values(player_id=None, ready=False, connected=False)
            .execution_options(synchronize_session=False)
        )
        session.expire_all()

    def set_ready(self, lobby_id: str, player: PlayerInfo, ready: bool) -> LobbyInfo:
        """Mark ``player``'s seat ready (or not)."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id, lock=True)
            seats = session.exec(
                select(OnlineSeat).where(
                    OnlineSeat.lobby_id == lobby_id, OnlineSeat.player_id == player.id
                )
            ).all()
            if not seats:
                raise LobbyState("take a house first")
            for seat in seats:
                seat.ready = ready
            return self._info(session, lobby)

    def release(self, lobby_id: str, house: str, *, reopen: bool) -> tuple[LobbyInfo, str | None]:
        """Take ``house`` from its player (the AI plays it); with ``reopen`` it gets a fresh
        invite token (returned) so a person can have it back."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id, lock=True)
            seat = self._seat_row(session, lobby_id, house)
            seat.player_id, seat.ready, seat.connected = None, False, False
            token = new_key() if reopen else None
            seat.open = reopen
            seat.invite_hash = key_hash(token) if token else None
            return self._info(session, lobby), token

    def claim_start(
        self, lobby_id: str, host: PlayerInfo, *, max_games: int = 0, max_ai_games: int = 0
    ) -> LobbyInfo:
        """The host starts the lobby: it becomes ``running`` (without a game yet) in one
        ``UPDATE … WHERE status = 'open'``, so of hosts starting it at once one wins and
        exactly one game is then created (``mark_running``; ``unclaim_start`` if that
        fails). Refused (nothing changed) when someone is not ready, or when the host would
        then run more than ``max_games`` games, or ``max_ai_games`` games without a person
        (0: no limit). Returns the lobby with the seats the game starts with."""
        with self._transaction() as session:
            self._lock_player(session, host.id)
            lobby = self._lobby_row(session, lobby_id, lock=True)
            if lobby.host_id != host.id:
                raise NotHost("only the host can do this")
            result = session.execute(
                update(OnlineLobby)
                .where(col(OnlineLobby.id) == lobby_id, col(OnlineLobby.status) == OPEN)
                .values(status=RUNNING)
                .execution_options(synchronize_session=False)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise LobbyState("this game has already started")
            session.expire_all()
            info = self._info(session, self._lobby_row(session, lobby_id))
            waiting = [
                s.house for s in info.seats if s.human and not s.ready and s.player_id != host.id
            ]
            if waiting:
                raise LobbyState(f"not everyone is ready yet: {', '.join(waiting)}")
            if over(max_games, self._count_hosted(session, host.id, RUNNING)):
                raise TooMany(f"one player may run at most {max_games} games at a time")
            if over(max_ai_games, self._count_hosted(session, host.id, RUNNING, ai_only=True)):
                raise TooMany(
                    f"one player may run at most {max_ai_games} games without people at a time"
                )
            return info

    def mark_running(self, lobby_id: str, game_id: str) -> LobbyInfo:
        """The lobby claimed by ``claim_start`` has started as ``game_id``."""
        with self._transaction() as session:
            result = session.execute(
                update(OnlineLobby)
                .where(
                    col(OnlineLobby.id) == lobby_id,
                    col(OnlineLobby.status) == RUNNING,
                    col(OnlineLobby.game_id).is_(None),
                )
                .values(game_id=game_id)
                .execution_options(synchronize_session=False)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise LobbyState("this game has already started")
            return self._info(session, self._lobby_row(session, lobby_id))

    def unclaim_start(self, lobby_id: str) -> None:
        """The game of a lobby claimed by ``claim_start`` could not be created: open again."""
        with self._transaction() as session:
            session.execute(
                update(OnlineLobby)
                .where(
                    col(OnlineLobby.id) == lobby_id,
                    col(OnlineLobby.status) == RUNNING,
                    col(OnlineLobby.game_id).is_(None),
                )
                .values(status=OPEN)
                .execution_options(synchronize_session=False)
            )

    def stop(self, lobby_id: str) -> LobbyInfo:
        """End the running lobby's game where it stands (nobody plays it any more); a lobby
        not running is refused (LobbyState)."""
        with self._transaction() as session:
            result = session.execute(
                update(OnlineLobby)
                .where(col(OnlineLobby.id) == lobby_id, col(OnlineLobby.status) == RUNNING)
                .values(status=FINISHED)
                .execution_options(synchronize_session=False)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                self._lobby_row(session, lobby_id)  # LobbyNotFound
                raise LobbyState("this game is not running")
            return self._info(session, self._lobby_row(session, lobby_id))

    def mark_finished(self, lobby_id: str) -> None:
        """The lobby's game is over."""
        with self._transaction() as session:
            self._lobby_row(session, lobby_id, lock=True).status = FINISHED

    def set_connected(self, lobby_id: str, house: str, connected: bool) -> LobbyInfo:
        """Record whether the person in ``house`` has a socket open."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id)
            self._seat_row(session, lobby_id, house).connected = connected
            return self._info(session, lobby)

    def set_clock(self, lobby_id: str, house: str, left: float) -> None:
        """What is left of ``house``'s time bank, in seconds."""
        self.set_clocks({(lobby_id, house): left})

    def set_clocks(self, banks: Mapping[tuple[str, str], float]) -> None:
        """What is left of each (lobby, house) time bank, in seconds: one transaction."""
        if not banks:
            return
        with self._transaction() as session:
            for (lobby_id, house), left in banks.items():
                session.execute(
                    update(OnlineSeat)
                    .where(col(OnlineSeat.lobby_id) == lobby_id, col(OnlineSeat.house) == house)
                    .values(clock_left=max(0.0, left))
                    .execution_options(synchronize_session=False)
                )

    def clocks(self, lobby_id: str) -> dict[str, float]:
        """What is left of each house's time bank, as stored now."""
        with self._transaction() as session:
            rows = session.exec(
                select(OnlineSeat.house, OnlineSeat.clock_left).where(
                    OnlineSeat.lobby_id == lobby_id
                )
            ).all()
            return {house: left for house, left in rows}

    def holders(self, lobby_id: str) -> dict[str, str | None]:
        """Who holds each house's seat now (None: nobody, the AI), read from the store."""
        with self._transaction() as session:
            rows = session.exec(
                select(OnlineSeat.house, OnlineSeat.player_id).where(
                    OnlineSeat.lobby_id == lobby_id
                )
            ).all()
            return {house: player for house, player in rows}

    # ------------------------------------------------------------------ chat
    def add_chat(
        self,
        lobby_id: str,
        *,
        player_name: str,
        house: str | None,
        to_house: str | None,
        text: str,
        round_number: int,
        phase: str,
        player_id: str | None = None,
    ) -> ChatLine:
        """Store one (already checked) chat line, and who wrote it (``player_id``; None: a
        spectator without a key) for blocks and reports (issue 40)."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id)
            row = ChatMessage(
                lobby_id=lobby_id,
                player_name=player_name,
                house=house,
                to_house=to_house,
                text=text,
                round=round_number,
                phase=phase,
            )
            session.add(row)
            session.flush()
            line = _line(row, lobby)
            if player_id is not None:
                session.add(ChatSender(message_id=line.id, player_id=player_id))
            return line

    def chat(self, lobby_id: str, viewer: str | None, *, after: int = 0) -> list[ChatLine]:
        """The lobby's chat that ``viewer`` (a house; None: a spectator) may read, oldest
        first, after message id ``after``."""
        with self._transaction() as session:
            rows = session.exec(
                select(ChatMessage)
                .where(ChatMessage.lobby_id == lobby_id, col(ChatMessage.id) > after)
                .order_by(col(ChatMessage.id))
            ).all()
            lobby = session.get(OnlineLobby, lobby_id)
            lines = [_line(row, lobby) for row in rows] if lobby is not None else []
            return [line for line in lines if line.visible_to(viewer)]

    def chat_line(self, lobby_id: str, line_id: int) -> ChatLine | None:
        """The stored line ``line_id`` of ``lobby_id`` (whoever may read it: callers filter
        with ``ChatLine.visible_to``)."""
        with self._transaction() as session:
            row = session.get(ChatMessage, line_id)
            if row is None or row.lobby_id != lobby_id:
                return None
            return _line(row, self._lobby_row(session, lobby_id))
