"""The table of games played by turns (issue 40; docs/online-pace.md): one row per seat of an
online game whose pace is ``by_turns``, beside its ``online_seats`` row.

A row counts for one person (``player_id``; a new person in the seat starts a fresh row): the
decision they are asked now (``asked_serial``: the state serial it was asked at, NULL: none
open) and its ``deadline_at``; whether that deadline passed and the AI decides it (``lapsed``);
the missed deadlines in a row (``missed``); whether the AI keeps the seat after too many
(``away``); the invite token of a seat offered to a new person (``offer_token``: kept in clear
on purpose, an offered seat is public in the lobby list); and the vacation: seconds of the
allowance left, since when the person is away on vacation, and what was left of the deadline
it paused (``paused_left``, in counted seconds). Revision ``0010_pace``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime
from sqlmodel import Field

from westeros.store.models import StoreModel


def _moment() -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class SeatPace(StoreModel, table=True):
    """The deadlines, misses and vacation of one person's seat in a game by turns."""

    __tablename__ = "online_seat_paces"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    house: str = Field(primary_key=True, max_length=60)
    player_id: str | None = Field(
        default=None, foreign_key="online_players.id", ondelete="SET NULL", max_length=36
    )
    asked_serial: int | None = None
    deadline_at: datetime | None = _moment()
    lapsed: bool = False
    missed: int = 0
    away: bool = False
    offer_token: str | None = Field(default=None, max_length=64)
    vacation_left: float = 0.0
    vacation_since: datetime | None = _moment()
    paused_left: float | None = None
