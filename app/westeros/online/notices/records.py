"""The notice tables (``westeros.store.notices``) read and written, each method one committed
transaction (issue 40; docs/online-notices.md).

``claim`` is what makes a decision announced once: one conditional ``UPDATE … WHERE decision
<> :new`` or ``INSERT … ON CONFLICT DO NOTHING`` whose row count says whether this caller is
the first to see that decision, on SQLite and PostgreSQL alike, however many workers (or
rescans) see it.

The inbox (``add_inbox``, ``inbox``) keeps, per player, the decisions announced to them, for the
desktop app to read; ids grow in the order rows are committed for each player (their writes
hold the player's row), so an app that asks for the ids after the last one it saw misses
none."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from westeros.store.models import as_utc, utcnow
from westeros.store.notices import (
    AnnouncedDecision,
    GameWebhook,
    InboxItem,
    NoticeKey,
    NoticeSettings,
    PushSubscription,
)
from westeros.store.online import OnlinePlayer

MAX_SUBSCRIPTIONS = 8
"""Push subscriptions kept per player (browsers and devices); older ones are dropped."""
INBOX_KEPT = 100
"""Inbox rows kept per player (the newest); older ones are dropped as new ones come."""
INBOX_DAYS = 14
"""Inbox rows older than this many days are dropped as new ones come."""


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """One player's notice settings (``NoticeSettings``, read)."""

    player_id: str
    language: str = "en"
    site: str = ""
    email: str | None = None
    email_verified: bool = False
    email_on: bool = True
    email_sent_at: datetime | None = None
    push_on: bool = True
    webhook_url: str | None = None
    webhook_on: bool = True

    @property
    def mails(self) -> bool:
        """Does a notice go to this player's address (set, verified and switched on)?"""
        return bool(self.email and self.email_verified and self.email_on)


@dataclasses.dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's push subscription."""

    player_id: str
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As the browser's ``PushSubscription.toJSON()`` gives it (pywebpush's input)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclasses.dataclass(frozen=True, slots=True)
class Inboxed:
    """A decision announced to a player, as their inbox keeps it (``id``: 0 until stored)."""

    player_id: str
    game_id: str
    lobby_id: str
    lobby_name: str
    house: str
    kind: str
    round: int
    id: int = 0


def _settings(row: NoticeSettings) -> Settings:
    return Settings(
        player_id=row.player_id,
        language=row.language,
        site=row.site,
        email=row.email,
        email_verified=row.email_verified,
        email_on=row.email_on,
        email_sent_at=as_utc(row.email_token_at) if row.email_token_at else None,
        push_on=row.push_on,
        webhook_url=row.webhook_url,
        webhook_on=row.webhook_on,
    )


def _insert(session: Session, table: Any) -> Any:
    """``INSERT`` of the session's dialect (which can say ON CONFLICT DO NOTHING)."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


SETTING_FIELDS = ("language", "site", "email_on", "push_on", "webhook_url", "webhook_on")


class NoticeStore:
    """The notice tables of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ settings
    def settings(self, player_id: str) -> Settings:
        """``player_id``'s settings (the defaults if they never saved any)."""
        with Session(self.engine) as session:
            row = session.get(NoticeSettings, player_id)
            return _settings(row) if row is not None else Settings(player_id)

    def settings_of(self, player_ids: Iterable[str]) -> dict[str, Settings]:
        """The saved settings of those of ``player_ids`` who saved any."""
        ids = list(set(player_ids))
        if not ids:
            return {}
        with Session(self.engine) as session:
            rows = session.exec(
                select(NoticeSettings).where(col(NoticeSettings.player_id).in_(ids))
            ).all()
            return {row.player_id: _settings(row) for row in rows}

    def save(self, player_id: str, **changes: Any) -> Settings:
        """Change ``player_id``'s settings (``SETTING_FIELDS``)."""
        unknown = set(changes) - set(SETTING_FIELDS)
        if unknown:
            raise TypeError(f"not a notice setting: {', '.join(sorted(unknown))}")
        return self._change(player_id, lambda row: _assign(row, changes))

    def set_email(self, player_id: str, address: str | None, token_hash: str | None) -> Settings:
        """``player_id``'s address, not verified yet, with the hash of its link's token (None
        for both: no address)."""

        def change(row: NoticeSettings) -> None:
            row.email = address
            row.email_verified = False
            row.email_on = True
            row.email_token_hash = token_hash
            if token_hash:  # cleared, the last link's time stays: the resend wait holds
                row.email_token_at = utcnow()

        return self._change(player_id, change)

    def verify(self, token_hash: str, ttl: timedelta) -> Settings | None:
        """The settings whose pending link has this token (and was sent less than ``ttl``
        ago), now verified; None for an unknown or expired token."""
        with Session(self.engine) as session:
            row = session.exec(
                select(NoticeSettings).where(NoticeSettings.email_token_hash == token_hash)
            ).first()
            if row is None or row.email_token_at is None or row.email is None:
                return None
            if utcnow() - as_utc(row.email_token_at) > ttl:
                return None
            row.email_verified = True
            row.email_on = True
            row.email_token_hash = None
            session.add(row)
            session.commit()
            session.refresh(row)
            return _settings(row)

    def unsubscribe(self, player_id: str, address: str) -> bool:
        """No more e-mail to ``address`` for ``player_id`` (if it is still their address)."""
        with Session(self.engine) as session:
            done = session.exec(
                update(NoticeSettings)
                .where(
                    col(NoticeSettings.player_id) == player_id,
                    col(NoticeSettings.email) == address,
                )
                .values(email_on=False, updated_at=utcnow())
            )
            session.commit()
            return bool(done.rowcount)

    def _change(self, player_id: str, change: Callable[[NoticeSettings], None]) -> Settings:
        with Session(self.engine) as session:
            row = session.get(NoticeSettings, player_id, with_for_update=True)
            if row is None:
                row = NoticeSettings(player_id=player_id)
            change(row)
            row.updated_at = utcnow()
            session.add(row)
            session.commit()
            session.refresh(row)
            return _settings(row)

    # ------------------------------------------------------------------ push subscriptions
    def subscribe(self, player_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep a browser's subscription for ``player_id`` (an endpoint already known is
        given to them, with its new keys); a player keeps their ``MAX_SUBSCRIPTIONS`` latest
        (each is a URL the server calls for every notice)."""
        with Session(self.engine) as session:
            session.exec(delete(PushSubscription).where(col(PushSubscription.endpoint) == endpoint))
            session.add(
                PushSubscription(player_id=player_id, endpoint=endpoint, p256dh=p256dh, auth=auth)
            )
            session.flush()
            kept = select(PushSubscription.id).where(PushSubscription.player_id == player_id)
            newest = kept.order_by(col(PushSubscription.id).desc()).limit(MAX_SUBSCRIPTIONS)
            session.exec(
                delete(PushSubscription).where(
                    col(PushSubscription.player_id) == player_id,
                    col(PushSubscription.id).not_in(newest.scalar_subquery()),
                )
            )
            session.commit()

    def unsubscribe_push(self, endpoint: str, player_id: str | None = None) -> bool:
        """Forget a subscription (of ``player_id`` only, when given)."""
        with Session(self.engine) as session:
            statement = delete(PushSubscription).where(col(PushSubscription.endpoint) == endpoint)
            if player_id is not None:
                statement = statement.where(col(PushSubscription.player_id) == player_id)
            done = session.exec(statement)
            session.commit()
            return bool(done.rowcount)

    def subscriptions(self, player_ids: Iterable[str]) -> list[Subscription]:
        """The push subscriptions of ``player_ids``."""
        ids = list(set(player_ids))
        if not ids:
            return []
        with Session(self.engine) as session:
            rows = session.exec(
                select(PushSubscription)
                .where(col(PushSubscription.player_id).in_(ids))
                .order_by(col(PushSubscription.id))
            ).all()
            return [Subscription(r.player_id, r.endpoint, r.p256dh, r.auth) for r in rows]

    # ------------------------------------------------------------------ game webhooks
    def set_game_webhook(self, lobby_id: str, url: str | None, language: str, site: str) -> None:
        """The webhook of ``lobby_id``'s game (None: none), its messages in ``language``,
        their links to ``site``."""
        with Session(self.engine) as session:
            row = session.get(GameWebhook, lobby_id, with_for_update=True)
            if url is None:
                if row is not None:
                    session.delete(row)
            else:
                row = row or GameWebhook(lobby_id=lobby_id, url=url)
                row.url, row.language, row.site, row.updated_at = url, language, site, utcnow()
                session.add(row)
            session.commit()

    def game_webhook(self, lobby_id: str) -> tuple[str, str, str] | None:
        """(URL, language, site) of the webhook of ``lobby_id``'s game, if it has one."""
        with Session(self.engine) as session:
            row = session.get(GameWebhook, lobby_id)
            return (row.url, row.language, row.site) if row is not None else None

    # ------------------------------------------------------------------ announced decisions
    def claim(self, game_id: str, house: str, decision: str) -> bool:
        """Is ``decision`` new for ``house`` of ``game_id``? True for exactly one caller (it
        is stored as the one announced), False for every later one."""
        with Session(self.engine) as session:
            changed = session.exec(
                update(AnnouncedDecision)
                .where(
                    col(AnnouncedDecision.game_id) == game_id,
                    col(AnnouncedDecision.house) == house,
                    col(AnnouncedDecision.decision) != decision,
                )
                .values(decision=decision, updated_at=utcnow())
            )
            if changed.rowcount:
                session.commit()
                return True
            inserted = session.exec(  # a row back: this insert won (psycopg has no rowcount)
                _insert(session, AnnouncedDecision)
                .values(game_id=game_id, house=house, decision=decision, updated_at=utcnow())
                .on_conflict_do_nothing(index_elements=["game_id", "house"])
                .returning(col(AnnouncedDecision.house))
            ).first()
            session.commit()
            return inserted is not None

    def announced(self, game_id: str) -> dict[str, str]:
        """The decision last announced for each house of ``game_id``."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(AnnouncedDecision).where(AnnouncedDecision.game_id == game_id)
            ).all()
            return {row.house: row.decision for row in rows}

    # ------------------------------------------------------------------ the inbox
    def add_inbox(self, entries: Iterable[Inboxed]) -> None:
        """Put ``entries`` in their players' inboxes; each of those players then keeps their
        newest ``INBOX_KEPT`` rows of the last ``INBOX_DAYS`` days."""
        by_player: dict[str, list[Inboxed]] = {}
        for entry in entries:
            by_player.setdefault(entry.player_id, []).append(entry)
        if not by_player:
            return
        now = utcnow()
        with Session(self.engine) as session:
            locking = session.get_bind().dialect.name == "postgresql"  # SQLite: one writer
            for player_id in sorted(by_player):  # one order of locks: no deadlock
                if locking:  # one player's rows are written one transaction after another
                    session.exec(
                        select(OnlinePlayer.id)
                        .where(OnlinePlayer.id == player_id)
                        .with_for_update(key_share=True)
                    ).first()
                session.add_all(
                    InboxItem(
                        player_id=player_id,
                        game_id=e.game_id,
                        lobby_id=e.lobby_id,
                        lobby_name=e.lobby_name[:80],
                        house=e.house,
                        kind=e.kind[:60],
                        round=e.round,
                        created_at=now,
                    )
                    for e in by_player[player_id]
                )
                session.flush()
                theirs = col(InboxItem.player_id) == player_id
                newest = (
                    select(InboxItem.id)
                    .where(theirs)
                    .order_by(col(InboxItem.id).desc())
                    .limit(INBOX_KEPT)
                )
                session.exec(
                    delete(InboxItem).where(
                        theirs,
                        (col(InboxItem.created_at) < now - timedelta(days=INBOX_DAYS))
                        | col(InboxItem.id).not_in(newest.scalar_subquery()),
                    )
                )
            session.commit()

    def inbox(
        self, player_id: str, after: int | None, *, limit: int, since: datetime | None = None
    ) -> tuple[int, list[Inboxed]]:
        """``player_id``'s newest inbox id (0: none) and, oldest first, at most ``limit`` of
        their rows: those after id ``after``, or (``after`` None) the newest since ``since``."""
        with Session(self.engine) as session:
            theirs = col(InboxItem.player_id) == player_id
            last = session.exec(select(func.max(InboxItem.id)).where(theirs)).one()
            query = select(InboxItem).where(theirs)
            if after is not None:
                query = query.where(col(InboxItem.id) > after).order_by(col(InboxItem.id))
            else:
                if since is not None:
                    query = query.where(col(InboxItem.created_at) >= since)
                query = query.order_by(col(InboxItem.id).desc())
            rows = list(session.exec(query.limit(limit)).all())
        if after is None:
            rows.reverse()
        return last or 0, [
            Inboxed(
                player_id=r.player_id,
                game_id=r.game_id,
                lobby_id=r.lobby_id,
                lobby_name=r.lobby_name,
                house=r.house,
                kind=r.kind,
                round=r.round,
                id=r.id or 0,
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ the server's keys
    def key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key ``name``: the stored one, else ``make()``'s, stored now; of
        workers starting at once, the first one stored is every worker's."""
        with Session(self.engine) as session:
            found = session.get(NoticeKey, name)
            if found is not None:
                return found.value
            session.exec(
                _insert(session, NoticeKey)
                .values(name=name, value=make(), created_at=utcnow())
                .on_conflict_do_nothing(index_elements=["name"])
            )
            session.commit()
            stored = session.get(NoticeKey, name)
            assert stored is not None
            return stored.value


def _assign(row: NoticeSettings, changes: dict[str, Any]) -> None:
    for name, value in changes.items():
        setattr(row, name, value)
