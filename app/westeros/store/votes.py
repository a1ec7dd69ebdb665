"""The votes of online tables (issue 40; docs/online-votes.md).

- ``online_votes``: one row per vote a seated person called: its kind (``pause``, ``resume``,
  ``extend``, ``replace``, ``end``, ``cancel``) and arguments (``house``, ``by``,
  ``minutes``), who called it (player and house), the electorate fixed at the call
  (``voters``: player ids), how many yes votes pass it (``needed``), until when it is open,
  and its outcome (``status``: ``open``, ``passed``, ``failed``; ``result``: what it did).
  ``open_lobby`` is the lobby's id while the vote is open and NULL afterwards: its unique
  constraint keeps one open vote per lobby, on SQLite and PostgreSQL alike. A passed
  ``pause`` vote holds the game paused until ``lifted_at`` is set (a ``resume`` vote).
- ``online_ballots``: one per voter and vote (the primary key: a replayed ballot counts
  once).

Revision ``0013_votes``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime
from sqlmodel import Field

from westeros.store.models import JSONDocument, StoreModel, utcnow


def _time(nullable: bool = False) -> Any:
    if nullable:
        return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class TableVote(StoreModel, table=True):
    """One vote of a table (see the module docstring)."""

    __tablename__ = "online_votes"

    id: str = Field(primary_key=True, max_length=36)
    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", max_length=36, index=True
    )
    open_lobby: str | None = Field(default=None, max_length=36, unique=True)
    kind: str = Field(max_length=20)
    house: str | None = Field(default=None, max_length=60)
    by: str | None = Field(default=None, max_length=20)
    minutes: int | None = None
    caller_id: str = Field(foreign_key="online_players.id", ondelete="CASCADE", max_length=36)
    caller_house: str = Field(max_length=60)
    voters: list[str] = Field(
        default_factory=list, sa_column=Column(JSONDocument(), nullable=False)
    )
    needed: int
    status: str = Field(default="open", max_length=20)
    result: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSONDocument(), nullable=False)
    )
    created_at: datetime = _time()
    closes_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    closed_at: datetime | None = _time(nullable=True)
    lifted_at: datetime | None = _time(nullable=True)


class TableBallot(StoreModel, table=True):
    """``player_id``'s ballot on vote ``vote_id``: yes or no."""

    __tablename__ = "online_ballots"

    vote_id: str = Field(
        foreign_key="online_votes.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    house: str = Field(max_length=60)
    yes: bool
    created_at: datetime = _time()
