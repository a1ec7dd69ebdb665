"""The desktop app's turn watcher (issue 40, docs/online.md "Playing online from the app"):
while the app runs, a system notification for each new decision of its player in any online
game, on every server the player opened from *Play online*.

The servers and the player's key on each are kept as one application setting (``SETTING``:
``[{origin, key, after, refused, notify}]``, the most recent ``MAX_ACCOUNTS``); a remote
window reports the key its server's pages keep (``remote.open_window``) and ``remember``
stores it. ``TurnWatch`` polls each account's inbox (``GET {origin}/api/notices/inbox``,
docs/protocol.md) every ``POLL_SECONDS`` in a daemon thread with its own asyncio loop, and
shows each new notice with desktop-notifier (D-Bus on Linux, WinRT toasts on Windows): its
title and text as the server wrote them in the app's language (``AppLanguage``), a click
opening the game's board in a remote window. ``after`` (the last notice seen) is kept in
the setting, so a restart shows no notice twice. Nothing is shown while the player has
switched notifications off in the board settings (``preferences.notifications``).

A server that is down, answers something else than an inbox or refuses the key is skipped
quietly (logged once until it answers again); a refused key is not asked again until a
window reports it anew. A notification service that fails is logged once and the watcher
goes on (the notices it could not show are shown when it works again)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .microphone import origin
from .remote import RemoteLinkError, check_link, valid_key
from .server import preferences
from .server.i18n import SOURCE_LANGUAGE, Catalogs, choose_language

if TYPE_CHECKING:
    from .store import GameStore

log = logging.getLogger("westeros.turn_watch")

SETTING = "online_accounts"
"""The application setting (``GameStore.setting``) that holds the accounts."""
LANGUAGE_SETTING = "app_language"
"""The language the app's pages were last shown in (``AppLanguage``), for the next start."""
MAX_ACCOUNTS = 20
POLL_SECONDS = 60.0
TIMEOUT = 15.0
"""Seconds one inbox request may take."""
INBOX = "/api/notices/inbox"
KEY_HEADER = "x-westeros-key"
"""The online server's key header (``westeros.online.app.KEY_HEADER``)."""
MAX_BODY = 256 * 1024
MAX_SHOWN = 5
"""Notices shown at most per server and poll (the newest; older ones count as seen)."""
MAX_TITLE = 200
MAX_TEXT = 1000
REFUSED_STATUSES = (401, 403)
APP_NAME = "Westeros"

_writing = threading.Lock()
"""One change of ``SETTING`` at a time in this process (read, change, write)."""


@dataclasses.dataclass(frozen=True)
class Account:
    """A server that notifies this app: its origin, the player's key there, the last
    notice seen (None before the first contact), whether the key was refused and whether
    the player still wants its notices."""

    origin: str
    key: str
    after: int | None = None
    refused: bool = False
    notify: bool = True

    @property
    def polled(self) -> bool:
        """Is this account's inbox asked?"""
        return self.notify and not self.refused


def _account(data: Any) -> Account | None:
    """The stored ``data`` as an Account, or None if it is not one."""
    if not isinstance(data, Mapping):
        return None
    server, key, after = data.get("origin"), valid_key(data.get("key")), data.get("after")
    if not isinstance(server, str) or key is None:
        return None
    try:
        if origin(check_link(server)) != server:
            return None
    except RemoteLinkError:
        return None
    if isinstance(after, bool) or not isinstance(after, int | None):
        return None
    return Account(server, key, after, data.get("refused") is True, data.get("notify") is not False)


def accounts(store: GameStore) -> list[Account]:
    """The stored accounts, the most recently reported first."""
    stored = store.setting(SETTING, [])
    found = [_account(item) for item in stored] if isinstance(stored, list) else []
    return [a for a in found if a is not None]


def _change(store: GameStore, change: Callable[[list[Account]], list[Account]]) -> None:
    with _writing:
        kept = change(accounts(store))[:MAX_ACCOUNTS]
        store.set_setting(SETTING, [dataclasses.asdict(a) for a in kept])


def remember(store: GameStore, server: str, key: str) -> None:
    """Keep ``key`` as the player's key on ``server`` (an origin), reported by a remote
    window just now: a new key starts afresh, the same one is asked again if it was
    refused; whether the player wants its notices is kept."""

    def change(found: list[Account]) -> list[Account]:
        old = next((a for a in found if a.origin == server), None)
        if old is None:
            new = Account(server, key)
        elif old.key != key:
            new = Account(server, key, notify=old.notify)
        else:
            new = dataclasses.replace(old, refused=False)
        return [new, *(a for a in found if a.origin != server)]

    if valid_key(key) is not None:
        _change(store, change)


def set_notify(store: GameStore, server: str, notify: bool) -> bool:
    """Start or stop the notices of ``server``; False if there is no such account."""
    found: list[bool] = []

    def change(stored: list[Account]) -> list[Account]:
        found.extend(a.origin == server for a in stored)
        return [dataclasses.replace(a, notify=notify) if a.origin == server else a for a in stored]

    _change(store, change)
    return any(found)


def _advance(store: GameStore, account: Account, after: int | None, refused: bool) -> None:
    """Keep ``after`` and ``refused`` for ``account`` unless its key changed meanwhile."""

    def change(found: list[Account]) -> list[Account]:
        return [
            dataclasses.replace(a, after=after, refused=refused)
            if (a.origin, a.key) == (account.origin, account.key)
            else a
            for a in found
        ]

    _change(store, change)


class AppLanguage:
    """The language the app's own pages are shown in: the one the last page request chose
    (``?lang=``, the language cookie, ``Accept-Language``: ``i18n.choose_language``, as the
    start screen picks it), kept in ``LANGUAGE_SETTING`` for the next start. ``middleware``
    sees the local core's requests."""

    def __init__(self, catalogs: Catalogs, store: GameStore) -> None:
        self.catalogs = catalogs
        self.store = store
        self.seen: str | None = None
        self._kept: str | None = None

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """ASGI middleware noting the language of every HTTP request answered below 400 (a
        request the core refused says nothing about its own pages)."""

        async def noted(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request = Request(scope)

            async def sending(message: Message) -> None:
                if message["type"] == "http.response.start" and message["status"] < 400:
                    self.seen = choose_language(
                        self.catalogs,
                        request.query_params.get("lang"),
                        request.cookies.get("westeros_lang"),
                        request.headers.get("accept-language"),
                    )
                await send(message)

            await app(scope, receive, sending)

        return noted

    def current(self) -> str:
        """The app's language now (the stored one before any page was shown, else English);
        a change is stored (call it off the event loop: it may write)."""
        if self.seen is None:
            stored = self.store.setting(LANGUAGE_SETTING)
            if isinstance(stored, str) and stored in self.catalogs.languages():
                return stored
            return SOURCE_LANGUAGE
        if self.seen != self._kept:
            self.store.set_setting(LANGUAGE_SETTING, self.seen)
            self._kept = self.seen
        return self.seen


@dataclasses.dataclass(frozen=True)
class Notice:
    """One inbox item as shown: its id, title, text and the board it leads to (None when
    it does not lead to the account's server)."""

    id: int
    title: str
    text: str
    url: str | None


def _notice(item: Any, server: str) -> Notice | None:
    """The inbox ``item`` as a Notice, or None if it is not a well-formed one."""
    if not isinstance(item, Mapping):
        return None
    ident, title, text, url = item.get("id"), item.get("title"), item.get("body"), item.get("url")
    if isinstance(ident, bool) or not isinstance(ident, int):
        return None
    if not isinstance(title, str) or not title.strip() or not isinstance(text, str):
        return None
    link: str | None = None
    if isinstance(url, str):
        try:
            link = check_link(url)
        except RemoteLinkError:
            link = None
        if link is not None and origin(link) != server:
            link = None
    return Notice(ident, title.strip()[:MAX_TITLE], text.strip()[:MAX_TEXT], link)


class InboxError(Exception):
    """An inbox that could not be read; the message says why, for the log."""


class KeyRefused(InboxError):
    """The server refused the key."""


def _inbox(status: int, body: bytes, server: str) -> tuple[int, list[Notice]]:
    """(last, notices) of an inbox answer (InboxError, KeyRefused)."""
    if status in REFUSED_STATUSES:
        raise KeyRefused(f"the key was refused ({status} {body[:200]!r})")
    if status != 200:
        raise InboxError(f"it answered {status}")
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise InboxError(f"its answer is not JSON ({exc})") from exc
    last = data.get("last") if isinstance(data, dict) else None
    items = data.get("items") if isinstance(data, dict) else None
    if isinstance(last, bool) or not isinstance(last, int) or not isinstance(items, list):
        raise InboxError("its answer is not an inbox")
    notices = [n for n in (_notice(item, server) for item in items) if n is not None]
    return last, sorted(notices, key=lambda n: n.id)


class _Quiet(logging.Filter):
    """Drops desktop-notifier's warning for each failed notification while the failure is
    known (the watcher logs it once)."""

    def __init__(self) -> None:
        super().__init__()
        self.quiet = False

    def filter(self, record: logging.LogRecord) -> bool:
        return not (self.quiet and record.levelno <= logging.WARNING)


NOTIFIER_LOGGER = "desktop_notifier.backends.base"


def _let_go(notifier: Any) -> None:
    """Close the D-Bus connection a failed notification left open: desktop-notifier's
    D-Bus backend connects anew at each try while the notification service is missing and
    keeps only the last connection (its ``bus``), the others staying open."""
    bus = getattr(getattr(notifier, "_backend", None), "bus", None)
    if bus is not None and getattr(bus, "connected", False):
        with contextlib.suppress(Exception):
            bus.disconnect()


class TurnWatch:
    """Polls every stored account's inbox each ``poll_seconds`` and shows its new notices
    (module docstring). ``language`` gives the app's language (called in a worker
    thread), ``open_url`` opens a notice's board (in a remote window) when it is clicked.
    ``start`` runs it in a daemon thread; ``stop`` ends it."""

    def __init__(
        self,
        store: GameStore,
        *,
        open_url: Callable[[str], object],
        language: Callable[[], str],
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.open_url = open_url
        self.language = language
        self.poll_seconds = poll_seconds
        self.polls = 0
        self._problems: dict[str, str] = {}
        self._failing = False
        self._quiet = _Quiet()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start polling in a daemon thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="turn-watch", daemon=True)
            self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the watcher's thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop polling and wait for the thread."""
        if self._thread is None:
            return
        self._ready.wait(timeout)
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                loop.call_soon_threadsafe(stopping.set)
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the turn watcher stopped")
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._ready.set()
        import httpx2

        notifier = self._notifier()
        logging.getLogger(NOTIFIER_LOGGER).addFilter(self._quiet)
        try:
            async with httpx2.AsyncClient(timeout=TIMEOUT, follow_redirects=False) as client:
                while not self._stopping.is_set():
                    await self._poll(client, notifier)
                    self.polls += 1
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._stopping.wait(), self.poll_seconds)
        finally:
            logging.getLogger(NOTIFIER_LOGGER).removeFilter(self._quiet)

    def _notifier(self) -> Any:
        """desktop-notifier's notifier, or None when this system has no backend for it."""
        try:
            from desktop_notifier import DesktopNotifier

            return DesktopNotifier(app_name=APP_NAME, app_icon=None)
        except Exception:
            log.exception("system notifications are not available here")
            return None

    async def _poll(self, client: Any, notifier: Any) -> None:
        """Ask each polled account's inbox once and show what is new."""
        try:
            found, lang, show = await asyncio.to_thread(self._settings)
        except Exception:
            log.exception("the online accounts could not be read")
            return
        for account in found:
            if account.polled and not self._stopping_now():
                await self._poll_one(client, notifier, account, lang, show)

    def _stopping_now(self) -> bool:
        return self._stopping is not None and self._stopping.is_set()

    def _settings(self) -> tuple[list[Account], str, bool]:
        shown = preferences.loaded(self.store.setting(preferences.KEY)).notifications
        return accounts(self.store), self.language(), shown

    async def _poll_one(
        self, client: Any, notifier: Any, account: Account, lang: str, show: bool
    ) -> None:
        try:
            last, notices = await self._read(client, account, lang)
        except KeyRefused as refused:
            self._problem(account.origin, str(refused))
            await asyncio.to_thread(_advance, self.store, account, account.after, True)
            return
        except InboxError as error:
            self._problem(account.origin, str(error))
            return
        if self._problems.pop(account.origin, None) is not None:
            log.info("%s answers the turn watcher again", account.origin)
        new = [n for n in notices if account.after is None or n.id > account.after]
        seen = account.after
        if show:
            for notice in new[:-MAX_SHOWN]:
                seen = notice.id
            for notice in new[-MAX_SHOWN:]:
                if not await self._show(notifier, notice):
                    break
                seen = notice.id
            else:
                seen = last if seen is None else max(seen, last)
        else:
            seen = last
        if seen != account.after:
            await asyncio.to_thread(_advance, self.store, account, seen, False)

    async def _read(self, client: Any, account: Account, lang: str) -> tuple[int, list[Notice]]:
        """The account's inbox after its last seen notice (InboxError, KeyRefused)."""
        import httpx2

        params: dict[str, str | int] = {"lang": lang}
        if account.after is not None:
            params["after"] = account.after
        url = f"{account.origin}{INBOX}"
        try:
            async with client.stream(
                "GET", url, params=params, headers={KEY_HEADER: account.key}
            ) as response:
                body = b""
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_BODY:
                        raise InboxError(f"its answer is longer than {MAX_BODY} bytes")
                status = response.status_code
        except httpx2.HTTPError as exc:
            raise InboxError(f"it cannot be reached ({type(exc).__name__}: {exc})") from exc
        return _inbox(status, body, account.origin)

    def _problem(self, server: str, reason: str) -> None:
        """Log ``reason`` once for ``server`` until it answers again (or the reason changes)."""
        kind = reason.split(" (")[0]
        if self._problems.get(server) != kind:
            self._problems[server] = kind
            log.warning("the turn watcher skips %s: %s", server, reason)

    async def _show(self, notifier: Any, notice: Notice) -> bool:
        """Show ``notice``; False if the notification service failed (logged once)."""
        if notifier is None:
            return False
        dispatched: list[bool] = []
        clicked = None if notice.url is None else self._opener(notice.url)
        try:
            await notifier.send(
                title=notice.title,
                message=notice.text,
                on_clicked=clicked,
                on_dispatched=lambda: dispatched.append(True),
            )
        except Exception:
            log.debug("desktop-notifier raised", exc_info=True)
        if dispatched:
            if self._failing:
                log.info("system notifications work again")
            self._failing = self._quiet.quiet = False
            return True
        if not self._failing:
            log.warning(
                "a turn notice could not be shown: the system's notification service failed "
                "(the details are just before this line); the app keeps trying"
            )
        self._failing = self._quiet.quiet = True
        _let_go(notifier)
        return False

    def _opener(self, url: str) -> Callable[[], None]:
        """What a click on a notice does: open ``url`` off the event loop."""

        def clicked() -> None:
            loop = asyncio.get_running_loop()
            loop.run_in_executor(None, self._open, url)

        return clicked

    def _open(self, url: str) -> None:
        try:
            self.open_url(url)
        except Exception:
            log.exception("the board %s could not be opened", url)
