"""The tables of ratings and reliability of online players (issue 40; docs/online-ratings.md).

``rated_games`` holds one row per finished online game, its game id the primary key, so a
game is recorded once however many workers see it end; ``rated_places`` the place each person
who held a seat at the end took (RULES.md 9.2) and, for a ranked game, their rating before and
after it. ``player_ratings`` is each player's current OpenSkill rating (mu, sigma);
``games_left`` one row per running game a person lost their seat in (kicked or handed back);
``missed_deadlines`` how many deadlines of a game played by turns each player let pass.

The tables derive from the store's ``StoreModel``, so the same Alembic history tracks them
(revision ``0008_ratings``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime
from sqlmodel import Field

from westeros.store.models import StoreModel, utcnow


def _time() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class RatedGame(StoreModel, table=True):
    """A finished online game as the ratings recorded it: ``ranked`` if it moved ratings,
    else ``reason`` says why not (``unranked``: the host did not choose it; ``ai-seat``: the
    AI held a seat at the start; ``empty-seat``: a seat had no person at the end)."""

    __tablename__ = "rated_games"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", max_length=36, index=True
    )
    ranked: bool = False
    reason: str = Field(default="", max_length=20)
    players: int = 0
    finished_at: datetime = _time()


class RatedPlace(StoreModel, table=True):
    """The place (1: the winner) one person took in a recorded game and the house they held
    at its end; for a ranked game also their rating (mu, sigma) before and after it."""

    __tablename__ = "rated_places"

    game_id: str = Field(
        foreign_key="rated_games.game_id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    player_id: str = Field(
        foreign_key="online_players.id",
        ondelete="CASCADE",
        primary_key=True,
        max_length=36,
        index=True,
    )
    house: str = Field(max_length=60)
    place: int
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None


class PlayerRating(StoreModel, table=True):
    """A player's current rating (OpenSkill's mu and sigma), the rating shown and ordered by
    (``ordinal``: OpenSkill's conservative estimate, worked out by the library) and how many
    ranked games made it."""

    __tablename__ = "player_ratings"

    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    mu: float
    sigma: float
    ordinal: float = Field(index=True)
    games: int = 0
    updated_at: datetime = _time()


class GameLeft(StoreModel, table=True):
    """A running game whose seat ``player_id`` lost (the host kicked them or handed the seat
    back) and did not hold again at its end."""

    __tablename__ = "games_left"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    player_id: str = Field(
        foreign_key="online_players.id",
        ondelete="CASCADE",
        primary_key=True,
        max_length=36,
        index=True,
    )
    house: str = Field(max_length=60)
    left_at: datetime = _time()


class MissedDeadlines(StoreModel, table=True):
    """How many deadlines of the game by turns of lobby ``lobby_id`` ``player_id`` let pass
    (per game, so that a running anonymous table's misses stay off the profile: ``ratings``)."""

    __tablename__ = "missed_deadlines"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    player_id: str = Field(
        foreign_key="online_players.id",
        ondelete="CASCADE",
        primary_key=True,
        max_length=36,
        index=True,
    )
    count: int = 0
    last_at: datetime = _time()
