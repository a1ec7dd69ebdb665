"""Which decisions are announced, once each, and the sending off the game's way (issue 40;
docs/online-notices.md).

The worker that holds a game's lease drives it (``hub.OnlineHub._drive``) and, after each
drive, hands ``TurnNotices.decisions`` the game, its lobby and the seats whose people have a
board open. A decision is identified by a digest of what it asks (the round, the kind of
decision, the legal answers): the same pending decision has the same digest on every worker
and at every rescan. ``decisions`` only compares digests with the ones this worker already
handed on (in memory) and queues the new ones of people who are not at their board — no
database or network on the seat thread. A person at their board is told by the board itself;
if they leave with the decision still open, the next drive queues it then.

The queue is served by one thread of its own running an asyncio loop: for each queued batch
it first claims each decision in the database (``NoticeStore.claim``: one row per game and
house; of workers and rescans seeing the same decision, exactly one claim wins), then writes
each claimed decision in its player's inbox (which the desktop app reads, whatever other
channel the player has; docs/online.md "The desktop app"), sends one notice per player of the
claimed decisions (their e-mail, their browsers' push subscriptions, their webhook) and one
message to the game's webhook, each channel at once and each bounded by its timeout. A
channel that fails is logged once (then once when it works again), never retried, and never
holds up the others, the queue or the game."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import dataclasses
import hashlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from email.utils import parseaddr
from typing import Any, TypeVar

import orjson

from westeros.engine import Prompt, pending
from westeros.plugin_faults import PluginFault
from westeros.server.i18n import Catalogs

from .. import anonymity
from ..records import LobbyInfo, SeatInfo
from ..session import OnlineSession
from . import email, push, webhook
from .config import NoticeConfig
from .records import Inboxed, NoticeStore, Settings
from .texts import Turn, Words

log = logging.getLogger("westeros.online.notices")

REMEMBERED = 20_000
"""Decisions this worker remembers having handed on (the oldest are forgotten first; one
forgotten and seen again only costs a claim that loses)."""
MAX_QUEUED = 1_000
"""Batches waiting to be sent at most; past that a batch is dropped (and logged)."""
CONCURRENT_SENDS = 8
"""Messages one channel sends at once (a channel that hangs holds up only its own)."""
T = TypeVar("T")


def decision_digest(round_number: int, prompt: Prompt) -> str:
    """The identity of a pending decision: the same while it waits, on every worker."""
    document = {
        "round": round_number,
        "kind": prompt.kind,
        "actions": list(prompt.actions),
        "data": prompt.data,
    }
    encoded = orjson.dumps(document, option=orjson.OPT_SORT_KEYS, default=repr)
    return hashlib.sha256(encoded).hexdigest()


async def _cancel_others() -> None:
    """Cancel every other task of the running loop and wait for them to end."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


@dataclasses.dataclass(frozen=True, slots=True)
class Asked:
    """A person asked to decide: the turn, who they are and the decision's digest."""

    turn: Turn
    asked: str
    """The house the decision is for (a vassal's: not the seat, ``turn.house``)."""
    player_id: str
    player_name: str
    digest: str


class _Channel:
    """One way of sending (e-mail, push, webhook, the inbox): its failures are logged once, then its
    first success after them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failing = False
        self._lock = threading.Lock()

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            first, self.failing = not self.failing, True
        if first:
            log.warning(
                "turn notices by %s failed (%s: %s); logged again once one goes through",
                self.name,
                type(exc).__name__,
                exc or "no answer in time",
            )

    def worked(self) -> None:
        with self._lock:
            back, self.failing = self.failing, False
        if back:
            log.warning("turn notices by %s go through again", self.name)


class TurnNotices:
    """Turn notices of one worker: what the hub hands on, the sending thread, the keys."""

    def __init__(
        self,
        store: NoticeStore,
        config: NoticeConfig,
        catalogs: Catalogs,
        house_names: Mapping[str, str],
    ) -> None:
        self.store = store
        self.config = config
        self.catalogs = catalogs
        self.house_names = dict(house_names)
        self.pusher: push.Pusher | None = None
        self.secret = ""
        self.channels = {name: _Channel(name) for name in ("e-mail", "push", "webhook", "inbox")}
        self._seen: collections.OrderedDict[tuple[str, str], str] = collections.OrderedDict()
        self._drives: collections.OrderedDict[str, Any] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._queued = 0
        self._dropping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._sends: dict[str, asyncio.Semaphore] = {}

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Read (or make, at the first start) the server's keys and start the sending
        thread."""
        pem = self.store.key(push.VAPID_KEY, push.new_vapid_pem)
        self.secret = self.store.key(email.SECRET_KEY, email.new_secret)
        self.pusher = push.Pusher(
            pem, self.vapid_subject(), self.config.http_timeout, private=self.config.private_targets
        )
        loop = asyncio.new_event_loop()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            self._sends = {name: asyncio.Semaphore(CONCURRENT_SENDS) for name in self.channels}
            loop.call_soon(started.set)
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="westeros-notices", daemon=True)
        self._thread.start()
        started.wait()

    def close(self, timeout: float = 5.0) -> None:
        """Let the queued notices go out (for at most ``timeout`` seconds), give up the
        ones still waiting for an answer, then stop."""
        if self._loop is None or self._thread is None:
            return
        if not self.wait_idle(timeout):
            with contextlib.suppress(concurrent.futures.TimeoutError):
                asyncio.run_coroutine_threadsafe(_cancel_others(), self._loop).result(timeout)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
        self._loop = self._thread = None

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or being sent (False if ``timeout`` ran out first)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._queued == 0, timeout)

    def vapid_subject(self) -> str:
        """Who runs this server, as VAPID claims name them (``sub``)."""
        if self.config.vapid_subject:
            return self.config.vapid_subject
        address = parseaddr(self.config.smtp_from)[1]
        if "@" in address:
            return f"mailto:{address}"
        if self.config.public_url.startswith("https://"):
            return self.config.public_url
        return "mailto:westeros@localhost"

    def run(self, work: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run ``work`` on the sending thread's loop (counted until it is done)."""
        if self._loop is None:
            work.close()
            raise RuntimeError("turn notices are not started")
        with self._lock:
            self._queued += 1
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: concurrent.futures.Future[Any]) -> None:
        with self._idle:
            self._queued -= 1
            self._idle.notify_all()

    # ------------------------------------------------------------------ the seat thread's side
    def decisions(self, session: OnlineSession, lobby: LobbyInfo, present: Iterable[str]) -> None:
        """The lease holder drove ``session`` (``present``: the seats whose people have a
        board open): queue the decisions its people are asked and not at their board for,
        that this worker has not handed on yet. Never waits for the database or a network."""
        if session.over or session.paused is not None or self._loop is None:
            return
        state = session.state  # one state throughout (another thread may apply an action)
        try:
            prompts = pending(state)
        except PluginFault:
            return  # the seat thread pauses the game
        here = set(present)
        owners = {asked: session.seat_of(asked) for asked in prompts}
        people = {
            asked: seat
            for asked, house in owners.items()
            if (seat := lobby.seat(house)) is not None
            and seat.player_id is not None
            and house not in here
            and not session.is_ai(house)
        }
        if not self._changed(session.game_id, state.serial, people):
            return
        batch = []
        # an anonymous table's running game names nobody, not even by label (issue 40)
        named = not anonymity.hidden(lobby.settings, lobby.status)
        for asked, seat in sorted(people.items()):
            house, prompt = owners[asked], prompts[asked]
            digest = decision_digest(state.round, prompt)
            key = (session.game_id, asked)
            with self._lock:
                if self._seen.get(key) == digest:
                    continue
                self._seen[key] = digest
                self._seen.move_to_end(key)
                while len(self._seen) > REMEMBERED:
                    self._seen.popitem(last=False)
            turn = Turn(
                game_id=session.game_id,
                lobby_id=lobby.id,
                lobby_name=lobby.name,
                house=house,
                house_name=self.house_names.get(house, house),
                kind=prompt.kind,
                round=state.round,
            )
            player_id = seat.player_id or ""
            name = (seat.player_name or "") if named else ""
            batch.append(Asked(turn, asked, player_id, name, digest))
        if batch:
            self._queue(batch)

    def _changed(self, game_id: str, serial: int, people: Mapping[str, SeatInfo]) -> bool:
        """Did the game move, or the people to tell, since its last drive here? (A scan
        drives every game every second: one that did not change costs no digest.)"""
        mark = (serial, frozenset((a, s.player_id) for a, s in people.items()))
        with self._lock:
            if self._drives.get(game_id) == mark:
                return False
            self._drives[game_id] = mark
            self._drives.move_to_end(game_id)
            while len(self._drives) > REMEMBERED:
                self._drives.popitem(last=False)
        return True

    def _queue(self, batch: list[Asked]) -> None:
        with self._lock:
            full = self._queued >= MAX_QUEUED
            first, self._dropping = full and not self._dropping, full
        if full:
            if first:
                log.warning("turn notices are queued up (%d): new ones are dropped", MAX_QUEUED)
            return
        self.run(self._announce(batch))

    # ------------------------------------------------------------------ the sending thread
    async def _announce(self, batch: list[Asked]) -> None:
        """Claim each decision of ``batch``; put those this worker won in their players'
        inboxes and send their notices."""
        try:
            claimed = [
                a
                for a in batch
                if await asyncio.to_thread(self.store.claim, a.turn.game_id, a.asked, a.digest)
            ]
        except Exception:
            log.exception("turn notices could not be claimed; these are not sent")
            return
        if not claimed:
            return
        inbox = asyncio.ensure_future(self._inbox(claimed))  # under way while the rest is read
        try:
            players = {a.player_id for a in claimed}
            settings = await asyncio.to_thread(self.store.settings_of, players)
            subscriptions = await asyncio.to_thread(self.store.subscriptions, players)
            hook = await asyncio.to_thread(self.store.game_webhook, claimed[0].turn.lobby_id)
        except Exception:
            log.exception("turn notices could not be read; only the inbox has these")
            await inbox
            return
        sends: list[Awaitable[None]] = [inbox]
        by_player: dict[str, list[Asked]] = collections.defaultdict(list)
        for asked in claimed:
            by_player[asked.player_id].append(asked)
        for player_id, theirs in by_player.items():
            mine = settings.get(player_id)
            if mine is not None:
                sends.extend(self._to_player(mine, theirs))
            if mine is None or mine.push_on:
                sends.extend(
                    self._push(s, theirs, mine) for s in subscriptions if s.player_id == player_id
                )
        if hook is not None:
            url, language, site = hook
            sends.append(self._game_hook(url, language, site, claimed))
        for failure in await asyncio.gather(*sends, return_exceptions=True):
            if isinstance(failure, Exception):
                log.error("a turn notice could not be made", exc_info=failure)

    async def _inbox(self, claimed: list[Asked]) -> None:
        """One inbox row per claimed decision, for its player (no one's name)."""
        entries = [
            Inboxed(
                player_id=a.player_id,
                game_id=a.turn.game_id,
                lobby_id=a.turn.lobby_id,
                lobby_name=a.turn.lobby_name,
                house=a.turn.house,
                kind=a.turn.kind,
                round=a.turn.round,
            )
            for a in claimed
        ]
        await self._guarded("inbox", lambda: asyncio.to_thread(self.store.add_inbox, entries))

    def _to_player(self, mine: Settings, theirs: list[Asked]) -> list[Awaitable[None]]:
        sends: list[Awaitable[None]] = []
        if mine.mails and self.config.email:
            sends.append(self._mail(mine, theirs[0].turn))
        if mine.webhook_url and mine.webhook_on:
            words = self.words(mine.language)
            turns = [(a.turn, None) for a in theirs]
            links = [self.play_link(a.turn, mine.site) for a in theirs]
            data = webhook.body(words, turns, links)
            sends.append(self._webhook(mine.webhook_url, data))
        return sends

    def words(self, language: str) -> Words:
        """The notices' texts in ``language``."""
        return Words(self.catalogs.translations(language))

    def base(self, site: str) -> str:
        """The address links lead to: the configured public URL, else ``site``."""
        return self.config.public_url or site.rstrip("/")

    def play_link(self, turn: Turn, site: str) -> str:
        """The board of ``turn``'s seat."""
        return f"{self.base(site)}/games/{turn.game_id}/play/{turn.house}"

    async def _mail(self, mine: Settings, turn: Turn) -> None:
        assert mine.email is not None
        words = self.words(mine.language)
        token = email.unsubscribe_token(self.secret, mine.player_id, mine.email)
        base = self.base(mine.site)
        text = words.email(
            turn,
            self.play_link(turn, mine.site),
            f"{base}/notices",
            email.link(base, "/notices/unsubscribe", token),
        )
        mail = email.message(
            self.config,
            mine.email,
            words.subject(turn),
            text,
            unsubscribe=email.link(base, "/api/notices/unsubscribe", token),
        )
        await self._guarded("e-mail", lambda: email.send(self.config, mail))

    async def _push(self, sub: Any, theirs: list[Asked], mine: Settings | None) -> None:
        assert self.pusher is not None
        pusher = self.pusher
        turn = theirs[0].turn
        words = self.words(mine.language if mine is not None else "en")
        payload = {
            "game": turn.game_id,
            "lobby": turn.lobby_id,
            "lobby_name": turn.lobby_name,
            "house": turn.house,
            "houses": [a.asked for a in theirs],
            "phase": turn.kind,
            "round": turn.round,
            "title": words.subject(turn),
            "body": words.line(turn),
            "url": f"/games/{turn.game_id}/play/{turn.house}",
        }

        async def send() -> None:
            try:
                await asyncio.to_thread(pusher.send, sub, payload)
            except push.Gone:
                await asyncio.to_thread(self.store.unsubscribe_push, sub.endpoint)

        await self._guarded("push", send)

    async def _webhook(self, url: str, data: dict[str, Any]) -> None:
        timeout, private = self.config.http_timeout, self.config.private_targets
        await self._guarded("webhook", lambda: webhook.post(url, data, timeout, private=private))

    async def _game_hook(self, url: str, language: str, site: str, claimed: list[Asked]) -> None:
        words = self.words(language)
        turns = [(a.turn, a.player_name) for a in claimed]
        lobby = f"{self.base(site)}/lobbies/{claimed[0].turn.lobby_id}"
        await self._webhook(url, webhook.body(words, turns, [lobby] * len(turns)))

    async def _guarded(self, channel: str, send: Callable[[], Awaitable[None]]) -> None:
        """Run ``send`` (at most CONCURRENT_SENDS of the channel at once) within the
        channel's timeout; a failure is the channel's to log, never the caller's."""
        limit = self.config.smtp_timeout if channel == "e-mail" else self.config.http_timeout
        async with self._sends[channel]:
            try:
                await asyncio.wait_for(send(), limit)
            except Exception as exc:
                self.channels[channel].failed(exc)
                return
        self.channels[channel].worked()

    async def send_mail(self, mail: Any) -> None:
        """Send one e-mail now (a verification link); its failure rises to the caller."""
        await asyncio.wait_for(email.send(self.config, mail), self.config.smtp_timeout)
