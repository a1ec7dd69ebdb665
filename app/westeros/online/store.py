"""The online store: players, lobbies, seats and chat in the game database (SQLite by
default, PostgreSQL by URL), each method one committed transaction (as ``GameStore``).

Players are found by the hash of their key only (``keys.key_hash``); invite tokens likewise.
Seat changes lock the lobby row (``SELECT ... FOR UPDATE`` on PostgreSQL), so two workers
never give one seat to two people."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from westeros.store.models import as_utc
from westeros.store.online import (
    FINISHED,
    OPEN,
    RUNNING,
    ChatMessage,
    OnlineLobby,
    OnlinePlayer,
    OnlineSeat,
)

from .errors import BadInvite, LobbyNotFound, LobbyState, UnknownPlayer
from .keys import key_hash, new_key
from .records import ChatLine, LobbyInfo, PlayerInfo, SeatInfo


def _seat(seat: OnlineSeat, names: Mapping[str, str]) -> SeatInfo:
    return SeatInfo(
        house=seat.house,
        player_id=seat.player_id,
        player_name=names.get(seat.player_id) if seat.player_id else None,
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
        seats=tuple(_seat(s, names) for s in ranked),
        created_at=as_utc(lobby.created_at),
    )


def _line(row: ChatMessage) -> ChatLine:
    assert row.id is not None
    return ChatLine(
        id=row.id,
        lobby_id=row.lobby_id,
        player_name=row.player_name,
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
    ) -> tuple[LobbyInfo, dict[str, str]]:
        """A new open lobby with a seat per house; every house in ``open_houses`` gets an
        invite token (returned once, by house; only their hashes are kept)."""
        lobby_id = str(uuid.uuid4())
        invites = {h: new_key() for h in houses if h in set(open_houses)}
        with self._transaction() as session:
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
            return self._info(session, lobby), invites

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
        """``player`` takes the open, free seat ``house`` (leaving any other seat of theirs)."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id, lock=True)
            seat = self._seat_row(session, lobby_id, house)
            if seat.player_id == player.id:
                return self._info(session, lobby)
            if not seat.open or seat.player_id is not None:
                raise LobbyState(f"{house} is not free to take")
            if lobby.status != OPEN:
                raise LobbyState("the game has started: seats are handed out by invite only")
            self._leave(session, lobby_id, player.id)
            seat.player_id, seat.ready, seat.invite_hash = player.id, False, None
            return self._info(session, lobby)

    def join_by_invite(self, token: str, player: PlayerInfo) -> tuple[LobbyInfo, str]:
        """``player`` takes the seat whose invite is ``token`` (BadInvite otherwise); this
        works in a running game too (a seat handed back). Returns the lobby and the house."""
        digest = key_hash(token) if token else ""
        with self._transaction() as session:
            seat = session.exec(select(OnlineSeat).where(OnlineSeat.invite_hash == digest)).first()
            if not token or seat is None:
                raise BadInvite("this invite link is not valid (or its seat is taken)")
            lobby = self._lobby_row(session, seat.lobby_id, lock=True)
            if lobby.status == FINISHED:
                raise BadInvite("this game is over")
            self._leave(session, lobby.id, player.id)
            seat.player_id, seat.ready, seat.invite_hash, seat.open = player.id, False, None, True
            return self._info(session, lobby), seat.house

    @staticmethod
    def _leave(session: Session, lobby_id: str, player_id: str) -> None:
        for other in session.exec(
            select(OnlineSeat).where(
                OnlineSeat.lobby_id == lobby_id, OnlineSeat.player_id == player_id
            )
        ).all():
            other.player_id, other.ready, other.connected = None, False, False

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

    def mark_running(self, lobby_id: str, game_id: str) -> LobbyInfo:
        """The lobby's game has started as ``game_id``."""
        with self._transaction() as session:
            lobby = self._lobby_row(session, lobby_id, lock=True)
            if lobby.status != OPEN:
                raise LobbyState("this game has already started")
            lobby.status, lobby.game_id = RUNNING, game_id
            return self._info(session, lobby)

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
        with self._transaction() as session:
            self._seat_row(session, lobby_id, house).clock_left = max(0.0, left)

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
    ) -> ChatLine:
        """Store one (already checked) chat line."""
        with self._transaction() as session:
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
            return _line(row)

    def chat(self, lobby_id: str, viewer: str | None, *, after: int = 0) -> list[ChatLine]:
        """The lobby's chat that ``viewer`` (a house; None: a spectator) may read, oldest
        first, after message id ``after``."""
        with self._transaction() as session:
            rows = session.exec(
                select(ChatMessage)
                .where(ChatMessage.lobby_id == lobby_id, col(ChatMessage.id) > after)
                .order_by(col(ChatMessage.id))
            ).all()
            return [line for line in map(_line, rows) if line.visible_to(viewer)]

    def chat_line(self, lobby_id: str, line_id: int) -> ChatLine | None:
        """The stored line ``line_id`` of ``lobby_id`` (whoever may read it: callers filter
        with ``ChatLine.visible_to``)."""
        with self._transaction() as session:
            row = session.get(ChatMessage, line_id)
            return _line(row) if row is not None and row.lobby_id == lobby_id else None
