"""The online tables (DESIGN §5, docs/online.md): players, lobbies, their seats and chat.

A player is a display name and the SHA-256 hash of a secret key (``keys.py``); the key itself
is never stored. A lobby is an online game before and after it starts: its settings, host,
turn clock and AI grace period; once started it names the stored game (``games.id``). A
lobby seat is one house: the person in it (or none: the AI at the lobby's level plays it),
whether that person is ready and connected, and what is left of their time bank. A chat
message is public (``to_house`` NULL) or a raven from one house to another, stamped with the
round and phase it was written in (RULES.md 0.4.4: private ravens reach only their houses).

The tables derive from the store's ``StoreModel``, so the same Alembic history tracks them
(revision ``0005_online``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, Column, DateTime
from sqlmodel import Field

from westeros.store.models import JSONDocument, StoreModel, utcnow

OPEN = "open"
RUNNING = "running"
FINISHED = "finished"
LOBBY_STATUSES = (OPEN, RUNNING, FINISHED)


def _time() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class OnlinePlayer(StoreModel, table=True):
    """A person who plays online: a display name and the hash of their secret key."""

    __tablename__ = "online_players"

    id: str = Field(primary_key=True, max_length=36)
    name: str = Field(max_length=40)
    key_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = _time()


class OnlineLobby(StoreModel, table=True):
    """An online game: settings (players, options, disabled plugins, AI level), host, turn
    clock (seconds per player, 0: none) and grace period before the AI takes a dropped seat."""

    __tablename__ = "online_lobbies"
    __table_args__ = (CheckConstraint("status IN ('open', 'running', 'finished')", name="status"),)

    id: str = Field(primary_key=True, max_length=36)
    name: str = Field(default="", max_length=80)
    host_id: str = Field(foreign_key="online_players.id", max_length=36)
    status: str = Field(default=OPEN, max_length=20, index=True)
    players: int
    settings: dict[str, Any] = Field(sa_column=Column(JSONDocument(), nullable=False))
    clock_seconds: int = 0
    grace_seconds: int = 60
    game_id: str | None = Field(
        default=None, foreign_key="games.id", ondelete="SET NULL", max_length=36
    )
    created_at: datetime = _time()


class OnlineSeat(StoreModel, table=True):
    """One house of a lobby. ``player_id`` None: the AI plays it. ``invite_hash`` is the hash
    of the seat's invite token (one link per open seat), cleared once the seat is taken."""

    __tablename__ = "online_seats"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    house: str = Field(primary_key=True, max_length=60)
    player_id: str | None = Field(
        default=None, foreign_key="online_players.id", ondelete="SET NULL", max_length=36
    )
    open: bool = True
    ready: bool = False
    connected: bool = False
    invite_hash: str | None = Field(default=None, max_length=64, index=True)
    clock_left: float = 0.0


class ChatMessage(StoreModel, table=True):
    """A chat line: public (``to_house`` None) or a raven between two houses; ``house`` None
    is a spectator or the lobby before houses are taken (public only)."""

    __tablename__ = "chat_messages"

    id: int | None = Field(default=None, primary_key=True)
    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", max_length=36, index=True
    )
    player_name: str = Field(max_length=40)
    house: str | None = Field(default=None, max_length=60)
    to_house: str | None = Field(default=None, max_length=60)
    text: str = Field(max_length=500)
    round: int = 0
    phase: str = Field(default="", max_length=40)
    created_at: datetime = _time()
