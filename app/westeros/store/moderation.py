"""The moderation tables of online play (issue 40; docs/online-moderation.md).

- ``chat_senders``: which player wrote a chat line (the line itself keeps only the name it
  was written under), so that a block can hide every line of one player and a report names
  its writer. Lines stored before revision ``0011_moderation`` have none.
- ``chat_blocks``: a player no longer reads another's chat (public lines and ravens), for
  themselves only; ``label`` is the name the blocker saw when blocking (on an anonymous
  table, the seat's shown name, never the real one).
- ``chat_reports``: a player reported a chat line, with a reason (one report per person and
  line).
- ``player_sanctions``: an operator muted (no chat) or banned (no seat, chat, lobby or
  action) a player.

The tables derive from the store's ``StoreModel``, so the same Alembic history tracks them
(revision ``0011_moderation``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, UniqueConstraint
from sqlmodel import Field

from westeros.store.models import StoreModel, utcnow

MAX_REASON = 500
MAX_LABEL = 80


def _time() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class ChatSender(StoreModel, table=True):
    """The player who wrote chat line ``message_id``."""

    __tablename__ = "chat_senders"

    message_id: int = Field(foreign_key="chat_messages.id", ondelete="CASCADE", primary_key=True)
    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", max_length=36, index=True
    )


class ChatBlock(StoreModel, table=True):
    """``blocker_id`` reads nothing ``blocked_id`` writes in the chat."""

    __tablename__ = "chat_blocks"
    __table_args__ = (UniqueConstraint("blocker_id", "blocked_id"),)

    id: str = Field(primary_key=True, max_length=36)
    blocker_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", max_length=36, index=True
    )
    blocked_id: str = Field(foreign_key="online_players.id", ondelete="CASCADE", max_length=36)
    label: str = Field(max_length=MAX_LABEL)
    created_at: datetime = _time()


class ChatReport(StoreModel, table=True):
    """``reporter_id`` reported chat line ``message_id`` for ``reason``."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id"),)

    id: int | None = Field(default=None, primary_key=True)
    message_id: int = Field(foreign_key="chat_messages.id", ondelete="CASCADE", index=True)
    reporter_id: str = Field(foreign_key="online_players.id", ondelete="CASCADE", max_length=36)
    reason: str = Field(max_length=MAX_REASON)
    created_at: datetime = _time()


class PlayerSanction(StoreModel, table=True):
    """What an operator decided about a player: ``muted`` (may not chat), ``banned`` (may not
    sit, chat, create a lobby or act), with the operator's reason."""

    __tablename__ = "player_sanctions"

    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    muted: bool = False
    banned: bool = False
    reason: str = Field(default="", max_length=MAX_REASON)
    updated_at: datetime = _time()
