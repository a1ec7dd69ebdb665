"""Ratings and reliability of online players (issue 40; docs/online-ratings.md).

**Ratings.** A finished *ranked* game moves the ratings of its people with OpenSkill's
Plackett-Luce model (``openskill``): a free-for-all in which each person's place is their
house's place in the final standings the engine gives (``westeros.engine.result``, RULES.md
9.1 and 9.2: the winner first, then by castles, land areas, supply, power and the Iron Throne).
A game is ranked when its host chose "ranked" (the lobby setting ``ranked``), no seat was the
AI's when it started, and every seat is held by a person when it ends; any other finished game
is recorded as unranked (with the reason) and moves no rating. A seat the AI decided for while
its person was away (the grace period, the turn clock, a missed deadline) is still that
person's seat.

**Reliability.** Per player: the online games they finished (held a seat when the game ended),
the running games they left (the host kicked them or handed their seat back, and they did not
hold a seat again at the end) and the deadlines they missed in games played by turns
(``record_missed_deadline``). The measure a lobby may require (``min_reliability``, a
percentage; 0: none) is finished ÷ (finished + left); a player with neither has no
reliability yet and is refused by any minimum. The host is never refused at their own table.

**Once per game.** Every worker that follows a game sees it end and calls ``game_over``;
the game's row in ``rated_games`` (its game id the primary key, inserted first with
``ON CONFLICT DO NOTHING``) decides which call records it, on SQLite and PostgreSQL alike,
and the others change nothing. The ratings of a game's people are read under a row lock
(PostgreSQL; on SQLite the transaction holds the database's write lock from its first insert),
so two games that end at once with the same people each see the other's result."""

from __future__ import annotations

import collections
import dataclasses
import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Protocol

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from westeros.engine import State, result
from westeros.store.models import AI, Seat, as_utc, utcnow
from westeros.store.online import FINISHED, RUNNING, OnlineLobby, OnlinePlayer, OnlineSeat
from westeros.store.ratings import GameLeft, MissedDeadlines, PlayerRating, RatedGame, RatedPlace

from . import anonymity
from .errors import BelowReliability, PlayerNotFound
from .records import LobbyInfo, PlayerInfo

log = logging.getLogger("westeros.online")

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett-Luce with its default parameters."""

RANKED = "ranked"
"""The lobby setting: the host chose a ranked game."""
MIN_RELIABILITY = "min_reliability"
"""The lobby setting: the reliability (percent) a person needs to take a seat; 0: none."""

NOT_CHOSEN = "unranked"
AI_SEAT = "ai-seat"
EMPTY_SEAT = "empty-seat"
REASONS = (NOT_CHOSEN, AI_SEAT, EMPTY_SEAT)
"""Why a recorded game moved no rating: the host did not choose "ranked", the AI held a seat
when it started, a seat had no person when it ended."""

HISTORY = 100
"""How many of a player's latest games their profile lists."""


class HasEngine(Protocol):
    """A store on the game database (``OnlineStore``, ``GameStore``)."""

    @property
    def engine(self) -> Engine: ...


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: OpenSkill's mu and sigma, the rating shown (``ordinal``, the
    library's conservative estimate) and how many ranked games made it."""

    mu: float
    sigma: float
    ordinal: float
    games: int

    def public(self) -> dict[str, Any]:
        """As JSON."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True, slots=True)
class Reliability:
    """Online games a player finished and left, and the deadlines they missed."""

    finished: int
    left: int
    missed_deadlines: int

    @property
    def percent(self) -> int | None:
        """Finished ÷ (finished + left), in whole percent rounded down; None: no game yet."""
        played = self.finished + self.left
        return self.finished * 100 // played if played else None

    def meets(self, minimum: int) -> bool:
        """Does this reach ``minimum`` percent (0: always)?"""
        played = self.finished + self.left
        return minimum <= 0 or (played > 0 and self.finished * 100 >= minimum * played)

    def public(self) -> dict[str, Any]:
        """As JSON."""
        return {**dataclasses.asdict(self), "percent": self.percent}


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """One finished game of a player's history: the place (1: the winner) of ``players`` they
    took with ``house``; for a ranked game their rating before and after it."""

    game_id: str
    lobby_id: str
    name: str
    finished_at: datetime
    house: str
    place: int
    players: int
    ranked: bool
    reason: str
    before: float | None
    after: float | None

    def public(self) -> dict[str, Any]:
        """As JSON."""
        return {**dataclasses.asdict(self), "finished_at": self.finished_at.isoformat()}


@dataclasses.dataclass(frozen=True, slots=True)
class Left:
    """A game the player left (listed once it is over, so a running table's seats stay as
    its players see them)."""

    lobby_id: str
    name: str
    house: str
    left_at: datetime

    def public(self) -> dict[str, Any]:
        """As JSON."""
        return {**dataclasses.asdict(self), "left_at": self.left_at.isoformat()}


@dataclasses.dataclass(frozen=True, slots=True)
class Profile:
    """What a player's profile shows: rating (None: no ranked game yet), reliability, the
    latest finished games and the games left."""

    player: PlayerInfo
    rating: Rating | None
    reliability: Reliability
    history: tuple[Played, ...]
    left: tuple[Left, ...]

    def public(self) -> dict[str, Any]:
        """As JSON (``GET /api/players/{id}/profile``)."""
        return {
            "player": {"id": self.player.id, "name": self.player.name},
            "rating": self.rating.public() if self.rating else None,
            "reliability": self.reliability.public(),
            "history": [game.public() for game in self.history],
            "left": [game.public() for game in self.left],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Leader:
    """A line of the leaderboard."""

    place: int
    player: PlayerInfo
    rating: Rating
    reliability: Reliability

    def public(self) -> dict[str, Any]:
        """As JSON (``GET /api/leaderboard``)."""
        return {
            "place": self.place,
            "id": self.player.id,
            "name": self.player.name,
            "rating": self.rating.public(),
            "reliability": self.reliability.public(),
        }


@contextmanager
def _transaction(store: HasEngine) -> Iterator[Session]:
    with Session(store.engine, expire_on_commit=False) as session, session.begin():
        yield session


def _insert(session: Session, table: Any) -> Any:
    """``INSERT`` into ``table`` in the dialect of ``session`` (both know ``ON CONFLICT``), to
    run on ``session.connection()`` (a Core statement, not the ORM's bulk insert)."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def _rating(row: PlayerRating) -> Rating:
    return Rating(row.mu, row.sigma, row.ordinal, row.games)


# ---------------------------------------------------------------------------------- recording


def placings(standings: Sequence[str], houses: Iterable[str]) -> dict[str, int]:
    """The place of each of ``houses`` (1: the first) in ``standings``, houses best first; a
    house the standings leave out (one that may not win) shares the place after the last."""
    last = len(standings) + 1
    return {house: standings.index(house) + 1 if house in standings else last for house in houses}


def unranked_reason(
    settings: Mapping[str, Any], started: Iterable[str], holders: Mapping[str, str | None]
) -> str:
    """Why a finished game with lobby ``settings``, its seats' kinds at the start
    (``started``: ``human``/``ai``) and its seats' holders at the end moves no rating ("":
    it does)."""
    if not settings.get(RANKED):
        return NOT_CHOSEN
    if AI in started:
        return AI_SEAT
    if not holders or None in holders.values():
        return EMPTY_SEAT
    return ""


def game_over(store: HasEngine, lobby_id: str, game_id: str, state: State) -> bool:
    """The game ``game_id`` of lobby ``lobby_id`` ended as ``state`` (the hub calls this on
    every worker that sees it end): record it once (``record_game``). False when the database
    failed, so that the caller tries again later; any other failure is a fault of the ratings
    that trying again cannot mend: logged, and True. No failure reaches the game."""
    standings = result(state)
    if standings is None:
        return True
    try:
        record_game(store, lobby_id, game_id, standings)
    except SQLAlchemyError:
        log.exception("the ratings could not record game %s (tried again later)", game_id)
        return False
    except Exception:
        log.exception("the ratings could not record game %s", game_id)
    return True


def record_game(store: HasEngine, lobby_id: str, game_id: str, standings: Sequence[str]) -> bool:
    """Record the finished game ``game_id`` of lobby ``lobby_id`` whose final standings are
    ``standings`` (houses best first): each person holding a seat now finished it, in their
    house's place; if it is ranked their ratings move. False (and nothing changes) when the
    game was recorded already."""
    with _transaction(store) as session:
        claimed = session.connection().execute(
            _insert(session, RatedGame)
            .values(game_id=game_id, lobby_id=lobby_id, ranked=False, reason="", players=0)
            .values(finished_at=utcnow())
            .on_conflict_do_nothing(index_elements=["game_id"])
            .returning(col(RatedGame.game_id))
        )
        if claimed.first() is None:  # recorded already (or by a worker at the same time)
            return False
        lobby = session.get(OnlineLobby, lobby_id)
        seats = session.exec(select(OnlineSeat).where(OnlineSeat.lobby_id == lobby_id)).all()
        started = session.exec(select(Seat.kind).where(Seat.game_id == game_id)).all()
        holders = {seat.house: seat.player_id for seat in seats}
        people = {house: player for house, player in holders.items() if player is not None}
        places = placings(standings, holders)
        reason = unranked_reason(lobby.settings if lobby else {}, started, holders)
        after = _rate(session, people, places) if not reason else {}
        session.execute(
            update(RatedGame)
            .where(col(RatedGame.game_id) == game_id)
            .values(ranked=not reason, reason=reason, players=len(holders))
        )
        for house, player in people.items():
            before, now = after.get(player, (None, None))
            session.add(
                RatedPlace(
                    game_id=game_id,
                    player_id=player,
                    house=house,
                    place=places[house],
                    mu_before=before.mu if before else None,
                    sigma_before=before.sigma if before else None,
                    mu_after=now.mu if now else None,
                    sigma_after=now.sigma if now else None,
                )
            )
        if people:  # who holds a seat at the end finished the game, whatever happened before
            session.execute(
                delete(GameLeft).where(
                    col(GameLeft.lobby_id) == lobby_id,
                    col(GameLeft.player_id).in_(list(people.values())),
                )
            )
    return True


def _rate(
    session: Session, people: Mapping[str, str], places: Mapping[str, int]
) -> dict[str, tuple[Rating, Rating]]:
    """Move the ratings of ``people`` (house: player) who took ``places`` (house: place) with
    the model; each player's rating before and after."""
    ids = sorted(people.values())
    start = MODEL.rating()
    session.connection().execute(
        _insert(session, PlayerRating)
        .values(
            [
                {
                    "player_id": player,
                    "mu": start.mu,
                    "sigma": start.sigma,
                    "ordinal": start.ordinal(),
                    "games": 0,
                    "updated_at": utcnow(),
                }
                for player in ids
            ]
        )
        .on_conflict_do_nothing(index_elements=["player_id"])
    )
    rows = session.exec(
        select(PlayerRating)
        .where(col(PlayerRating.player_id).in_(ids))
        .order_by(col(PlayerRating.player_id))
        .with_for_update()
    ).all()
    current = {row.player_id: row for row in rows}
    houses = sorted(people)
    teams = [
        [MODEL.rating(mu=current[people[h]].mu, sigma=current[people[h]].sigma)] for h in houses
    ]
    rated = MODEL.rate(teams, ranks=[places[h] for h in houses])
    changes: dict[str, tuple[Rating, Rating]] = {}
    for house, [new] in zip(houses, rated, strict=True):
        row = current[people[house]]
        before = _rating(row)
        row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal()
        row.games += 1
        row.updated_at = utcnow()
        changes[row.player_id] = (before, _rating(row))
    return changes


def record_left(store: HasEngine, lobby: LobbyInfo, house: str) -> LobbyInfo:
    """The person holding ``house`` of ``lobby`` (as read just before) loses that seat: if the
    game is running, they left it (once per game, whatever happens after; holding a seat at
    its end takes it back). Returns ``lobby``."""
    seat = lobby.seat(house)
    if lobby.status == RUNNING and seat is not None and seat.player_id is not None:
        with _transaction(store) as session:
            session.connection().execute(
                _insert(session, GameLeft)
                .values(lobby_id=lobby.id, player_id=seat.player_id, house=house)
                .values(left_at=utcnow())
                .on_conflict_do_nothing(index_elements=["lobby_id", "player_id"])
            )
    return lobby


def record_missed_deadline(store: HasEngine, lobby_id: str, player_id: str) -> None:
    """``player_id`` let a deadline of the game by turns of ``lobby_id`` pass (the AI decided
    for them): one more missed deadline on their record."""
    with _transaction(store) as session:
        statement = _insert(session, MissedDeadlines).values(
            lobby_id=lobby_id, player_id=player_id, count=1, last_at=utcnow()
        )
        session.connection().execute(
            statement.on_conflict_do_update(
                index_elements=["lobby_id", "player_id"],
                set_={"count": col(MissedDeadlines.count) + 1, "last_at": utcnow()},
            )
        )


# ---------------------------------------------------------------------------------- reading


def _reliabilities(
    session: Session, ids: Sequence[str], *, public: bool = True
) -> dict[str, Reliability]:
    """The reliability of each of ``ids`` (three queries however many). ``public`` (what
    profiles and the leaderboard show): a game left at an anonymous table counts only once
    that game is over, so nobody can tell who left its seat while its names are hidden
    (issue 40, ``anonymity``)."""

    def counted(column: Any) -> dict[str, int]:
        rows = session.exec(
            select(column, func.count()).where(column.in_(ids)).group_by(column)
        ).all()
        return {player: int(count) for player, count in rows}

    finished = counted(col(RatedPlace.player_id))
    gone = session.exec(
        select(GameLeft.player_id, OnlineLobby.settings, OnlineLobby.status)
        .join(OnlineLobby, col(OnlineLobby.id) == col(GameLeft.lobby_id), isouter=True)
        .where(col(GameLeft.player_id).in_(ids))
    ).all()
    left = collections.Counter(
        player
        for player, settings, status in gone
        if not (public and anonymity.hidden(settings or {}, status or ""))
    )
    late = session.exec(
        select(
            MissedDeadlines.player_id,
            MissedDeadlines.count,
            OnlineLobby.settings,
            OnlineLobby.status,
        )
        .join(OnlineLobby, col(OnlineLobby.id) == col(MissedDeadlines.lobby_id))
        .where(col(MissedDeadlines.player_id).in_(ids))
    ).all()
    missed: collections.Counter[str] = collections.Counter()
    for player, count, settings, status in late:
        if not (public and anonymity.hidden(settings or {}, status or "")):
            missed[player] += count
    return {p: Reliability(finished.get(p, 0), left.get(p, 0), missed.get(p, 0)) for p in ids}


def check_seat(store: HasEngine, lobby_id: str | None, player: PlayerInfo) -> None:
    """May ``player`` take a seat of lobby ``lobby_id``? BelowReliability when the lobby asks
    for a minimum reliability they do not reach (never for its host, nor for a player who
    holds one of its seats already or held one while its game ran)."""
    if lobby_id is None:
        return
    with _transaction(store) as session:
        lobby = session.get(OnlineLobby, lobby_id)
        minimum = int((lobby.settings.get(MIN_RELIABILITY) or 0) if lobby else 0)
        if lobby is None or minimum <= 0 or lobby.host_id == player.id:
            return
        seated = session.exec(
            select(OnlineSeat.house).where(
                OnlineSeat.lobby_id == lobby_id, OnlineSeat.player_id == player.id
            )
        ).first() or session.get(GameLeft, (lobby_id, player.id))
        found = _reliabilities(session, [player.id], public=False)[player.id]
    if seated is None and not found.meets(minimum):
        yours = (
            f"yours is {found.percent} %"
            if found.percent is not None
            else "you have not finished an online game here yet"
        )
        raise BelowReliability(
            f"this table asks for a reliability of at least {minimum} % "
            f"(games finished of games finished or left): {yours}"
        )


def profile(store: HasEngine, player_id: str) -> Profile:
    """``player_id``'s profile (PlayerNotFound)."""
    with _transaction(store) as session:
        player = session.get(OnlinePlayer, player_id)
        if player is None:
            raise PlayerNotFound("there is no such player")
        row = session.get(PlayerRating, player_id)
        played = session.exec(
            select(RatedPlace, RatedGame, OnlineLobby)
            .join(RatedGame, col(RatedGame.game_id) == col(RatedPlace.game_id))
            .join(OnlineLobby, col(OnlineLobby.id) == col(RatedGame.lobby_id))
            .where(RatedPlace.player_id == player_id)
            .order_by(col(RatedGame.finished_at).desc())
            .limit(HISTORY)
        ).all()
        left = session.exec(
            select(GameLeft, OnlineLobby.name)
            .join(OnlineLobby, col(OnlineLobby.id) == col(GameLeft.lobby_id))
            .where(GameLeft.player_id == player_id, OnlineLobby.status == FINISHED)
            .order_by(col(GameLeft.left_at).desc())
            .limit(HISTORY)
        ).all()
        return Profile(
            player=PlayerInfo(player.id, player.name),
            rating=_rating(row) if row is not None else None,
            reliability=_reliabilities(session, [player_id])[player_id],
            history=tuple(
                _played(place, game, lobby.name)
                for place, game, lobby in played
                if not anonymity.hidden(lobby.settings, lobby.status)  # issue 40
            ),
            left=tuple(
                Left(gone.lobby_id, name, gone.house, as_utc(gone.left_at)) for gone, name in left
            ),
        )


def _ordinal(mu: float | None, sigma: float | None) -> float | None:
    return None if mu is None or sigma is None else MODEL.rating(mu=mu, sigma=sigma).ordinal()


def _played(place: RatedPlace, game: RatedGame, name: str) -> Played:
    return Played(
        game_id=game.game_id,
        lobby_id=game.lobby_id,
        name=name,
        finished_at=as_utc(game.finished_at),
        house=place.house,
        place=place.place,
        players=game.players,
        ranked=game.ranked,
        reason=game.reason,
        before=_ordinal(place.mu_before, place.sigma_before),
        after=_ordinal(place.mu_after, place.sigma_after),
    )


def leaderboard(store: HasEngine, limit: int = 100) -> list[Leader]:
    """The ``limit`` best rated players, by the rating shown (``Rating.ordinal``)."""
    with _transaction(store) as session:
        rows = session.exec(
            select(PlayerRating, OnlinePlayer.name)
            .join(OnlinePlayer, col(OnlinePlayer.id) == col(PlayerRating.player_id))
            .order_by(col(PlayerRating.ordinal).desc(), col(PlayerRating.player_id))
            .limit(limit)
        ).all()
        found = _reliabilities(session, [row.player_id for row, _ in rows])
        return [
            Leader(place, PlayerInfo(row.player_id, name), _rating(row), found[row.player_id])
            for place, (row, name) in enumerate(rows, start=1)
        ]
