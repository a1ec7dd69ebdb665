"""The notice settings' page and API (issue 40; docs/online-notices.md, docs/protocol.md).

Every route but the two of a link sent by e-mail is the player's own (their key, as every
online route). The verification link (``GET /notices/verify?token=``) and the unsubscribe link
(``GET /notices/unsubscribe?token=``, a page that unsubscribes at once, and
``POST /api/notices/unsubscribe?token=``, the RFC 8058 one-click target) need no login: the
token is the credential, and it can do only that one thing.

``GET /api/notices/inbox`` is the desktop app's: the decisions announced to the player, each
rendered in the language asked for when it is read (docs/protocol.md "Turn-notice inbox")."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.responses import Response

from westeros.server.i18n import SOURCE_LANGUAGE, normalise
from westeros.store.models import utcnow

from ..errors import NotHost, OnlineError
from ..keys import key_hash, new_key
from ..lobby_settings import house_names
from ..sockets import refusal
from . import email
from .batching import TurnNotices
from .config import NoticeConfig
from .records import Inboxed, NoticeStore, Settings
from .targets import clean_url
from .texts import Turn, Words

if TYPE_CHECKING:
    from ..app import Online

MAX_BODY = 16 * 1024
RESEND_AFTER = timedelta(minutes=1)
"""The least time between two verification e-mails to one player."""
MAX_KEY = 200
INBOX_PAGE = 50
"""Inbox items one answer gives at most after a known id."""
INBOX_FIRST = 10
"""Inbox items the first answer (no ``after``) gives at most: the newest ones ..."""
INBOX_FIRST_HOURS = 24
"""... of the last this many hours."""
MAX_AFTER_DIGITS = 18


class NoticeRefused(OnlineError):
    """A notice setting that cannot be used (an address, a URL, a subscription)."""

    code = "online/notice-refused"


class NoEmail(OnlineError):
    """This server has no SMTP server configured."""

    code = "online/no-email"


class BadToken(OnlineError):
    """A link's token that is not (or no longer) valid."""

    code = "online/bad-token"
    status = 404


class TooSoon(OnlineError):
    """A verification e-mail was sent a moment ago."""

    code = "online/too-soon"
    status = 429


class BadAfter(OnlineError):
    """An inbox's ``after`` that is not an id (a whole number, 0 or more)."""

    code = "online/bad-after"


class NotSent(OnlineError):
    """The SMTP server did not take the e-mail."""

    code = "online/not-sent"
    status = 503


def mount(app: FastAPI, online: Online) -> TurnNotices:
    """Make this worker's turn notices (``app.state.notices``; the hub hands them its
    decisions) and add their routes. Started and closed by the app's lifespan."""
    notices = TurnNotices(
        NoticeStore(online.store.engine),
        NoticeConfig.from_env(os.environ),
        online.catalogs,
        house_names(online.loaded),
    )
    online.hub.notices = notices
    app.state.notices = notices
    _api(app, online, notices)
    _pages(app, online, notices)
    return notices


Handler = Callable[[Request], Awaitable[Response]]


def _refusing(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except OnlineError as exc:
            return JSONResponse(refusal(exc), status_code=exc.status)
        except ValueError as exc:
            return JSONResponse(refusal(NoticeRefused(str(exc))), status_code=400)

    return wrapped


async def _body(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise NoticeRefused(f"a request body may have at most {MAX_BODY} bytes")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise NoticeRefused(f"a request body may have at most {MAX_BODY} bytes")
    try:
        data = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError as exc:
        raise NoticeRefused("the request body must be JSON") from exc
    if not isinstance(data, dict):
        raise NoticeRefused("the request body must be a JSON object")
    return data


def site(request: Request) -> str:
    """The address this request reached the server at (links lead there when no public URL
    is configured)."""
    return str(request.base_url).rstrip("/")[:200]


def _settings_json(mine: Settings, notices: TurnNotices) -> dict[str, Any]:
    subscriptions = notices.store.subscriptions([mine.player_id])
    return {
        "language": mine.language,
        "email": {
            "available": notices.config.email,
            "address": mine.email,
            "verified": mine.email_verified,
            "on": mine.email_on,
        },
        "push": {
            "key": notices.pusher.public_key if notices.pusher is not None else None,
            "on": mine.push_on,
            "subscriptions": len(subscriptions),
        },
        "webhook": {"url": mine.webhook_url, "on": mine.webhook_on},
    }


def _after(raw: str | None) -> int | None:
    """The inbox id asked to read after (None: not given); BadAfter if it is not one."""
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_AFTER_DIGITS):
        raise BadAfter("'after' is the id of an inbox item: a whole number, 0 or more")
    return int(raw)


def _item(notices: TurnNotices, entry: Inboxed, words: Words, where: str) -> dict[str, Any]:
    """An inbox item as the desktop app reads it (rendered by ``words``, linked to
    ``where``)."""
    turn = Turn(
        game_id=entry.game_id,
        lobby_id=entry.lobby_id,
        lobby_name=entry.lobby_name,
        house=entry.house,
        house_name=notices.house_names.get(entry.house, entry.house),
        kind=entry.kind,
        round=entry.round,
    )
    return {
        "id": entry.id,
        "game": turn.game_id,
        "lobby": turn.lobby_id,
        "lobby_name": turn.lobby_name,
        "house": turn.house,
        "house_name": words.house(turn),
        "phase": turn.kind,
        "round": turn.round,
        "title": words.subject(turn),
        "body": words.line(turn),
        "url": notices.play_link(turn, where),
    }


def _flag(data: dict[str, Any], name: str) -> bool:
    value = data[name]
    if not isinstance(value, bool):
        raise NoticeRefused(f"{name!r} is true or false")
    return value


def _api(app: FastAPI, online: Online, notices: TurnNotices) -> None:
    store = notices.store
    config = notices.config

    def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Awaitable[Any]:
        return asyncio.to_thread(func, *args, **kwargs)

    @app.get("/api/notices")
    @_refusing
    async def read(request: Request) -> Response:
        player = await run(online.player, request)
        mine = await run(store.settings, player.id)
        return JSONResponse(await run(_settings_json, mine, notices))

    @app.post("/api/notices")
    @_refusing
    async def change(request: Request) -> Response:
        """Switches, the language and the webhook; the address has a route of its own."""
        player = await run(online.player, request)
        data = await _body(request)
        changes: dict[str, Any] = {"site": site(request)}
        for name in ("email_on", "push_on", "webhook_on"):
            if name in data:
                changes[name] = _flag(data, name)
        language = data.get("language")
        if language is not None:
            if language not in online.catalogs.languages():
                raise NoticeRefused(f"no language {language!r} here")
            changes["language"] = language
        if "webhook_url" in data:
            url = data["webhook_url"]
            changes["webhook_url"] = clean_url(url, private=config.private_targets) if url else None
        mine = await run(store.save, player.id, **changes)
        return JSONResponse(await run(_settings_json, mine, notices))

    @app.get("/api/notices/inbox")
    @_refusing
    async def inbox(request: Request) -> Response:
        """The decisions announced to the player, oldest first: those after id ``after``
        (at most INBOX_PAGE), else the newest of the last day (at most INBOX_FIRST), in
        ``lang`` (default: their notices' language; one without a catalog: English)."""
        player = await run(online.player, request)
        after = _after(request.query_params.get("after"))
        asked = request.query_params.get("lang")
        if asked:
            language = normalise(asked[:20]) or SOURCE_LANGUAGE
            if language not in online.catalogs.languages():
                language = SOURCE_LANGUAGE
        else:
            language = (await run(store.settings, player.id)).language
        if after is None:
            since = utcnow() - timedelta(hours=INBOX_FIRST_HOURS)
            last, entries = await run(store.inbox, player.id, None, limit=INBOX_FIRST, since=since)
        else:
            last, entries = await run(store.inbox, player.id, after, limit=INBOX_PAGE)
        words = notices.words(language)
        where = site(request)
        items = [_item(notices, entry, words, where) for entry in entries]
        return JSONResponse({"last": last, "items": items}, headers={"cache-control": "no-store"})

    @app.post("/api/notices/email")
    @_refusing
    async def set_email(request: Request) -> Response:
        """A new address (or none): saved unverified, and its link sent to it."""
        player = await run(online.player, request)
        data = await _body(request)
        if not data.get("address"):
            mine = await run(store.set_email, player.id, None, None)
            return JSONResponse(await run(_settings_json, mine, notices))
        if not config.email:
            raise NoEmail("this server sends no e-mail")
        address = email.clean_address(data["address"])
        before = await run(store.settings, player.id)
        sent = before.email_sent_at
        if sent is not None and not before.email_verified and utcnow() - sent < RESEND_AFTER:
            raise TooSoon("a link was sent a moment ago: wait a minute")
        language = data.get("language")
        if language not in online.catalogs.languages():
            language = online.language(request)
        await run(store.save, player.id, site=site(request), language=language)
        token = new_key()
        mine = await run(store.set_email, player.id, address, key_hash(token))
        words = notices.words(mine.language)
        base = notices.base(mine.site)
        hours = email.VERIFY_HOURS
        mail = email.message(
            config,
            address,
            words.verify_subject(),
            words.verify_email(email.link(base, "/notices/verify", token), hours),
        )
        try:
            await asyncio.wrap_future(notices.run(notices.send_mail(mail)))
        except Exception as exc:
            notices.channels["e-mail"].failed(exc)
            raise NotSent("the e-mail could not be sent: try again later") from exc
        notices.channels["e-mail"].worked()
        return JSONResponse(await run(_settings_json, mine, notices))

    @app.post("/api/notices/unsubscribe")
    @_refusing
    async def unsubscribe(request: Request) -> Response:
        """The one-click unsubscribe (RFC 8058: the body ``List-Unsubscribe=One-Click`` is
        what a mail program sends; any body does)."""
        token = request.query_params.get("token", "")[:MAX_KEY]
        player_id = token.split(".", 1)[0]
        mine = await run(store.settings, player_id)
        known = email.token_player(notices.secret, token, {mine.player_id: mine.email})
        if known is None or mine.email is None:
            raise BadToken("this unsubscribe link is not valid (any more)")
        await run(store.unsubscribe, known, mine.email)
        return JSONResponse({"unsubscribed": True, "address": mine.email})

    @app.get("/api/notices/push/key")
    @_refusing
    async def push_key(request: Request) -> Response:
        if notices.pusher is None:
            raise NoticeRefused("this server sends no push notices")
        return JSONResponse({"key": notices.pusher.public_key})

    @app.post("/api/notices/push")
    @_refusing
    async def subscribe(request: Request) -> Response:
        """Keep this browser's push subscription (``PushSubscription.toJSON()``)."""
        player = await run(online.player, request)
        data = await _body(request)
        endpoint = clean_url(data.get("endpoint"), private=config.private_targets)
        keys = data.get("keys")
        if not isinstance(keys, dict):
            raise NoticeRefused("a subscription has keys")
        p256dh, auth = keys.get("p256dh"), keys.get("auth")
        if not (isinstance(p256dh, str) and 40 <= len(p256dh) <= 200):
            raise NoticeRefused("the subscription's p256dh key is not one")
        if not (isinstance(auth, str) and 8 <= len(auth) <= 100):
            raise NoticeRefused("the subscription's auth secret is not one")
        await run(store.subscribe, player.id, endpoint, p256dh, auth)
        mine = await run(store.save, player.id, push_on=True, site=site(request))
        return JSONResponse(await run(_settings_json, mine, notices))

    @app.post("/api/notices/push/remove")
    @_refusing
    async def unsubscribe_push(request: Request) -> Response:
        player = await run(online.player, request)
        data = await _body(request)
        endpoint = data.get("endpoint")
        if isinstance(endpoint, str):
            await run(store.unsubscribe_push, endpoint, player.id)
        mine = await run(store.settings, player.id)
        return JSONResponse(await run(_settings_json, mine, notices))

    async def hosted(request: Request) -> str:
        player = await run(online.player, request)
        lobby = await run(online.online.lobby, request.path_params["lobby_id"])
        if lobby.host_id != player.id:
            raise NotHost("only the host sets the game's webhook")
        return lobby.id

    @app.get("/api/notices/games/{lobby_id}/webhook")
    @_refusing
    async def game_webhook(request: Request) -> Response:
        lobby_id = await hosted(request)
        found = await run(store.game_webhook, lobby_id)
        return JSONResponse({"url": found[0] if found else None})

    @app.post("/api/notices/games/{lobby_id}/webhook")
    @_refusing
    async def set_game_webhook(request: Request) -> Response:
        """The host sets (or, with an empty ``url``, removes) the game's webhook."""
        lobby_id = await hosted(request)
        data = await _body(request)
        url = data.get("url")
        cleaned = clean_url(url, private=config.private_targets) if url else None
        language = online.language(request)
        await run(store.set_game_webhook, lobby_id, cleaned, language, site(request))
        return JSONResponse({"url": cleaned})


def _pages(app: FastAPI, online: Online, notices: TurnNotices) -> None:
    store = notices.store

    @app.get("/notices", response_class=HTMLResponse)
    def settings_page(request: Request) -> Response:
        return online.page(request, "online/notices.html", {"email": notices.config.email})

    @app.get("/notices/verify", response_class=HTMLResponse)
    def verify(request: Request) -> Response:
        token = request.query_params.get("token", "")[:MAX_KEY]
        found = store.verify(key_hash(token), timedelta(hours=email.VERIFY_HOURS))
        context = {"verified": found is not None, "address": found.email if found else None}
        return online.page(request, "online/notices_verified.html", context)

    @app.get("/notices/unsubscribe", response_class=HTMLResponse)
    def unsubscribe_page(request: Request) -> Response:
        return online.page(request, "online/notices_unsubscribe.html", {})
