"""The tables of turn notices outside the game (issue 40; docs/online-notices.md).

- ``notice_settings``: one row per player who set notices up: the language of their messages,
  their e-mail address (``email_verified`` once its link was followed; the pending link's token
  only as its SHA-256 hash, with when it was sent), their webhook URL, one switch per channel,
  and the address of the server their links lead to when no public URL is configured.
- ``push_subscriptions``: a browser's Web Push subscription (its endpoint and the keys the
  payload is encrypted for, RFC 8291), per player.
- ``notice_game_webhooks``: the webhook a lobby's host set for the whole game, with the
  language of its messages and the address of the server its links lead to.
- ``notice_decisions``: per game and house, the decision last announced (a digest of what it
  asks): the one row that decides, on every worker, that a decision is announced once.
- ``notice_keys``: the server's own keys, made at first start and shared by every worker: the
  VAPID pair of Web Push and the secret that signs unsubscribe links.
- ``notice_inbox``: per player, one row per decision announced to them (the game, its lobby
  and name, the seat's house, the kind of decision, the round; never a person's name), read by
  the desktop app (``GET /api/notices/inbox``) and rendered in the reader's language then;
  each player keeps their latest 100 rows of the last 14 days (``online.notices.records``).

Revisions ``0009_notices`` and ``0014_notice_inbox`` (the inbox)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, DateTime, Text
from sqlmodel import Field

from westeros.store.models import StoreModel, utcnow


def _time() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class NoticeSettings(StoreModel, table=True):
    """One player's notice channels and the language of their messages."""

    __tablename__ = "notice_settings"

    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    language: str = Field(default="en", max_length=20)
    site: str = Field(default="", max_length=200)
    email: str | None = Field(default=None, max_length=254)
    email_verified: bool = False
    email_on: bool = True
    email_token_hash: str | None = Field(default=None, max_length=64, index=True)
    email_token_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    push_on: bool = True
    webhook_url: str | None = Field(default=None, max_length=500)
    webhook_on: bool = True
    updated_at: datetime = _time()


class PushSubscription(StoreModel, table=True):
    """A browser's push subscription: where to send (``endpoint``) and the keys of RFC 8291."""

    __tablename__ = "push_subscriptions"

    id: int | None = Field(default=None, primary_key=True)
    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", max_length=36, index=True
    )
    endpoint: str = Field(max_length=1000, unique=True)
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)
    created_at: datetime = _time()


class GameWebhook(StoreModel, table=True):
    """The webhook the host set for a whole game (one message per new decision)."""

    __tablename__ = "notice_game_webhooks"

    lobby_id: str = Field(
        foreign_key="online_lobbies.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    url: str = Field(max_length=500)
    language: str = Field(default="en", max_length=20)
    site: str = Field(default="", max_length=200)
    updated_at: datetime = _time()


class AnnouncedDecision(StoreModel, table=True):
    """The decision of ``house`` last announced in ``game_id`` (``decision``: its digest)."""

    __tablename__ = "notice_decisions"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    house: str = Field(primary_key=True, max_length=60)
    decision: str = Field(max_length=64)
    updated_at: datetime = _time()


class NoticeKey(StoreModel, table=True):
    """A key of the server's own (``vapid``: the PEM of the VAPID private key; ``unsubscribe``:
    the secret of unsubscribe links), written once by whichever worker starts first."""

    __tablename__ = "notice_keys"

    name: str = Field(primary_key=True, max_length=40)
    value: str = Field(sa_column=Column(Text(), nullable=False))
    created_at: datetime = _time()


class InboxItem(StoreModel, table=True):
    """A decision announced to ``player_id``: what the desktop app's notification tells
    (``id``: the order in which they were announced, what the app asks ``after``)."""

    __tablename__ = "notice_inbox"

    id: int | None = Field(default=None, primary_key=True)
    player_id: str = Field(
        foreign_key="online_players.id", ondelete="CASCADE", max_length=36, index=True
    )
    game_id: str = Field(foreign_key="games.id", ondelete="CASCADE", max_length=36)
    lobby_id: str = Field(foreign_key="online_lobbies.id", ondelete="CASCADE", max_length=36)
    lobby_name: str = Field(default="", max_length=80)
    house: str = Field(max_length=60)
    kind: str = Field(max_length=60)
    round: int
    created_at: datetime = _time()
