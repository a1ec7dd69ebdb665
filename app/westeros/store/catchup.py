"""The table of the catch-up (issue 40; docs/online-catchup.md): how far each person has seen
their seat's game, so that "Since your last turn" lists only what came after.

One row per person and seat of an online game (``player_id``: a new person in the seat has
rows of their own): ``seq``, the log step up to which they have seen the game (their board was
open until then, or they closed the panel there), and ``chat``, the id of the last chat line
that reached them by then. Both only grow. Revision ``0012_catchup``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, DateTime
from sqlmodel import Field

from westeros.store.models import StoreModel, utcnow


class CatchUpSeen(StoreModel, table=True):
    """How far one person has seen the game of one seat (the catch-up starts after it)."""

    __tablename__ = "online_catchup_seen"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    house: str = Field(primary_key=True, max_length=60)
    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    seq: int = 0
    chat: int = 0
    updated_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
