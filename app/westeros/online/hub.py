"""The online hub of one worker (docs/online.md): lobby flow, seat sockets, spectators, chat,
presence, abandoned seats and the turn clock, on top of the shared store and bus.

Who decides for a house (RULES.md 0.4.4 for what each may see): a seat nobody took (or whose
player was kicked) is the AI's; a person's seat is the person's while they have a socket
open on any worker, and again at once when they come back; once they have been away longer
than the lobby's grace period — and for any one decision when their time bank is empty —
the AI decides for it. The worker holding the game's lease (``bus.lease``) runs those AI
decisions (in the process pool, ``ai_pool``) and the clock; the other workers only follow.
The time banks are stored with the game (``OnlineStore.set_clocks``, every scan), so a
restart or another worker goes on with them (issue 35 finding 10).

Which seat a socket speaks for (issue 35 findings 4 and 5): the seat its player holds *now*
in the store, never the one it held when it connected. Every chat line takes its sender from
the seats as stored at that moment, and a raven reaches only the sockets whose player holds
its sender's or its recipient's seat at that moment. A seat change (take, move, kick, hand
back, invite join) is made under the game's writer lock and rebinds at once, on every worker
(the bus's ``seat`` message), every socket of the lobby: a board socket whose player no
longer holds its seat is closed (4403) and the session's player of that seat changes, so its
actions are refused (and before a worker hears of the change, the writer's check of the
seat's stored holder under that lock refuses them: ``OnlineSession``); a lobby socket speaks
for its player's new seat (or none) and is told so (``seat`` message), with the chat that
seat may read.

A game a plugin's rule fault paused (issue 35 finding 3, ``GameSession.pause``) is left alone
by the seat thread: no AI decides in it, no time bank runs down, nothing is retried; every
seat and spectator is told (a ``paused`` message), on every worker (the bus's ``paused``
message pauses the other workers' replicas, which tell theirs)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
import secrets
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from westeros.ai.personality import ANY, BALANCED, AIPersonality, draw, offered, resolve
from westeros.engine import State, pending
from westeros.plugin_faults import PluginFault
from westeros.plugins import build_ruleset
from westeros.server import hints
from westeros.server.games import AI_LEVELS, DEFAULT_AI_LEVEL
from westeros.session import Accepted, GamePaused, Human, Player, WrongSeat
from westeros.store import AI, GameStore, SeatSpec
from westeros.store.online import RUNNING

from . import anonymity, ratings
from .ai_pool import PooledAi
from .bus import Bus
from .chat import check_recipient, clean_text, rate_limit, sender_key
from .errors import BadName, Banned, LobbyState, NotHost, NotYourSeat, OnlineError
from .moderation import Moderation
from .pace import MissedDeadline, Pace, PaceError, Turns
from .quotas import KeyQuotas
from .records import ChatLine, LobbyInfo, PlayerInfo, SeatInfo
from .session import OnlineSession
from .sockets import refusal
from .store import OnlineStore
from .turn import IceConfig
from .voice_relay import KINDS as VOICE_KINDS
from .voice_relay import VoiceRelay
from .votes import Votes

if TYPE_CHECKING:
    from .notices import TurnNotices

log = logging.getLogger("westeros.online")

RANDOM = "random"
MAX_NAME = 40
PRESENCE_TTL = 15.0
PRESENCE_REFRESH = PRESENCE_TTL / 3  # how often this worker's open seats are renewed
LEASE_TTL = 10.0
LOBBY_TTL = 30.0
CLOCK_INCREMENT = 10.0
RETRY_AFTER = 1.0
"""Seconds the seat thread waits after a failed pass (the store or Redis not answering)."""


Deliver = Callable[[dict[str, Any]], None]


def clean_name(name: object) -> str:
    """A display name: 1 to MAX_NAME printable characters (shown as plain text)."""
    if not isinstance(name, str) or not name.strip():
        raise BadName("choose a display name")
    name = name.strip()
    if len(name) > MAX_NAME:
        raise BadName(f"a display name may have at most {MAX_NAME} characters")
    if not name.isprintable():
        raise BadName("a display name may not hold control characters")
    return name


def phase_of(session: OnlineSession) -> str:
    """The kind of decision the game waits for now (the chat's "phase" stamp; none when a
    plugin's rule fails on the way: the game is paused)."""
    try:
        prompts = pending(session.state)
    except PluginFault as fault:
        session.pause(fault)
        return ""
    return min((p.kind for p in prompts.values()), default="")


def asked_seats(session: OnlineSession) -> set[str]:
    """The seats asked to decide now (a vassal's decision: its commander's seat, 11.10.8);
    none once the game is over or while it is paused."""
    if session.over or session.paused is not None:
        return set()
    try:
        return {session.seat_of(house) for house in pending(session.state)}
    except PluginFault:
        return set()  # the seat thread pauses the game


@dataclasses.dataclass(eq=False)
class Conn:
    """One socket held by this worker: a seat's (``board``: ``house`` is that seat, for as
    long as ``player`` holds it), or a chat/roster socket (``house``: the seat its player
    held when it was last told, kept up to date by the hub). ``address``: the client's
    network address (a spectator's chat is counted by it)."""

    lobby_id: str
    house: str | None
    deliver: Deliver
    player: PlayerInfo | None
    board: bool
    id: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)
    close: Callable[[int], None] | None = None
    address: str | None = None
    voice: str | None = None
    """The peer id of this socket's member of the game's table voice (``voice_relay``)."""


def speaks_for(conn: Conn, holders: Mapping[str, str | None]) -> str | None:
    """The house ``conn`` speaks for when the seats are held as ``holders`` says (house:
    player id): a board socket its seat while its player holds it, a lobby socket its
    player's seat; None (a spectator's reading) otherwise."""
    if conn.player is None:
        return None
    if conn.board:
        held = conn.house is not None and holders.get(conn.house) == conn.player.id
        return conn.house if held else None
    return next((h for h, p in holders.items() if p == conn.player.id), None)


class _Outage:
    """The seat thread's failures in a row (the store or Redis not answering): the first one
    is logged with its traceback, the end in one line, nothing in between."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0

    def failed(self) -> None:
        """A pass failed (called in its ``except`` block)."""
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            log.exception(
                "the online seat thread failed; retrying every %s s (logged again once it is back)",
                RETRY_AFTER,
            )

    def over(self) -> None:
        """A scan went through: if it ends an outage, say so."""
        if self.since is None:
            return
        log.warning(
            "the online seat thread is back after %.1f s, %d scan(s) failed",
            time.monotonic() - self.since,
            self.failures,
        )
        self.since, self.failures = None, 0


class OnlineHub:
    """Everything one worker does for online games (see module docstring)."""

    def __init__(
        self,
        store: GameStore,
        online: OnlineStore,
        bus: Bus,
        pool: Executor,
        *,
        ai_budget: float = 1.0,
        tick: float = 0.25,
        scan: float = 1.0,
        personalities: Iterable[AIPersonality] = (),
        quotas: KeyQuotas | None = None,
        ice: IceConfig | None = None,
    ) -> None:
        self.store = store
        self.quotas = quotas if quotas is not None else KeyQuotas.from_env()
        self.personalities = tuple(personalities)
        self.online = online
        self.bus = bus
        self.pool = pool
        self.ai_budget = ai_budget
        self.tick = tick
        self.scan = scan
        self.rate = rate_limit(bus)
        self._sessions: dict[str, OnlineSession] = {}
        self._lobby_of: dict[str, str] = {}
        self._lobbies: dict[str, tuple[float, LobbyInfo]] = {}  # until when, lobby
        self._jitter = random.Random()
        self._lobbies_used: set[str] = set()  # asked for since they were last read
        self._lobby_versions: defaultdict[str, int] = defaultdict(int)
        self._conns: defaultdict[str, list[Conn]] = defaultdict(list)
        self._boards: Counter[str] = Counter()  # seat key: this worker's sockets open for it
        self._absent_since: dict[tuple[str, str], float] = {}
        self._banks: dict[tuple[str, str], float] = {}  # (lobby, house): seconds left
        self._banks_read: set[str] = set()  # lobbies whose stored banks this worker runs
        self._banks_changed: set[tuple[str, str]] = set()  # not stored yet
        self._running: set[str] = set()  # the running games of the last scan
        self._clock_at: dict[str, float] = {}  # game: when its clock was last run here
        self._ticking: dict[str, set[str]] = {}  # game: the seats whose bank ran at its last drive
        self._busy: set[tuple[str, str]] = set()
        self._presence: dict[str, dict[str, bool]] = {}  # lobby: seat key: a socket open
        self._dirty: set[str] = set()
        self._leased: dict[str, float] = {}  # game: when its lease was last taken or renewed
        self._elsewhere: set[str] = set()  # games whose lease another worker held at the last ask
        self._pauses_told: set[str] = set()  # paused games the other workers know of
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._rescan = threading.Event()  # scan at the next wake (the bus came back)
        self._stop = threading.Event()
        self._deciders = ThreadPoolExecutor(max_workers=8, thread_name_prefix="westeros-ai")
        self._thread = threading.Thread(target=self._run, name="westeros-online", daemon=True)
        self.voice = VoiceRelay(self, ice)
        self.notices: TurnNotices | None = None  # turn notices (issue 40): notices.mount
        self.turns = Turns(online.engine)  # games by turns: their deadlines (issue 40)
        self.moderation = Moderation(online.engine)  # blocks, reports, mutes, bans (issue 40)
        self.votes = Votes(self)  # the table's votes (issue 40)
        bus.listen(self._on_bus)
        bus.on_reconnect(self._reconnected)

    def start(self) -> None:
        """Start the seat/clock thread."""
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and the decision threads; store the time banks as they are."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self._deciders.shutdown(wait=False, cancel_futures=True)
        try:
            self.save_clocks()
        except Exception:
            log.exception("the time banks could not be stored on closing")

    # ------------------------------------------------------------------ lobby flow
    def create_lobby(
        self,
        host: PlayerInfo,
        *,
        name: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        ai_level: str = DEFAULT_AI_LEVEL,
        ai_personality: str = BALANCED.id,
        open_houses: Iterable[str] | None = None,
        host_house: str | None = RANDOM,
        clock_seconds: int = 0,
        grace_seconds: int = 60,
        spectators_hear: bool = False,
        pace: Mapping[str, Any] | None = None,
        ranked: bool = False,
        min_reliability: int = 0,
        anonymous: bool = False,
    ) -> tuple[LobbyInfo, dict[str, str]]:
        """A new lobby; ``open_houses`` (default: all) may be taken by people, the rest are
        the AI's; ``spectators_hear``: spectators may listen to the table's voice (never to
        private talk); ``pace``: live (the default) or by turns and its settings (``Pace``,
        issue 40; a game by turns has no turn clock); ``ranked``, ``min_reliability``: the
        game moves ratings, the reliability a person needs to sit (``ratings``, issue 40);
        ``anonymous``: names hidden until the game ends (``anonymity``, issue 40). Refused
        for a banned host (``moderation``). Returns it and the invite token of each open
        seat."""
        self.moderation.check_may_sit(host)
        if ai_level not in AI_LEVELS:
            raise LobbyState(f"the AI level is one of {', '.join(AI_LEVELS)}")
        personalities = [*offered(self.personalities), ANY]
        if ai_personality not in personalities:
            raise LobbyState(f"the AI personality is one of {', '.join(personalities)}")
        if not 0 <= clock_seconds <= 24 * 3600 or not 0 <= grace_seconds <= 3600:
            raise LobbyState("the clock is 0 to 86400 seconds and the grace period 0 to 3600")
        try:
            paced = Pace(**(pace or {}))
        except (PaceError, TypeError) as exc:
            raise LobbyState(f"the pace: {exc}") from exc
        if paced.by_turns and clock_seconds:
            raise LobbyState("a game by turns has a deadline per decision, not a turn clock")
        options = dict(options or {})
        disable = list(disable)
        rules = build_ruleset(options, disable=disable)
        setup = rules.setups.get(players)
        if setup is None:
            raise LobbyState(f"a game has {', '.join(map(str, sorted(rules.setups)))} players")
        unknown = sorted(set(options) - set(rules.options))
        if unknown:
            raise LobbyState(f"unknown option(s): {', '.join(unknown)}")
        houses = list(setup.seated_houses())
        opened = list(houses if open_houses is None else open_houses)
        strangers = sorted(set(opened) - set(houses))
        if strangers:
            raise LobbyState(f"{', '.join(strangers)} do(es) not play in a {players}-player game")
        if host_house == RANDOM:
            host_house = secrets.choice(opened) if opened else None
        if host_house is not None and host_house not in opened:
            raise LobbyState(f"{host_house} is not one of the open seats")
        lobby, invites = self.online.create_lobby(
            host,
            name=clean_name(
                name or (anonymity.DEFAULT_NAME if anonymous else f"{host.name}'s game")
            )[:80],
            players=players,
            houses=houses,
            open_houses=opened,
            settings={
                "options": options,
                "disable": disable,
                "ai_level": ai_level,
                "ai_personality": ai_personality,
                "spectators_hear": bool(spectators_hear),
                "pace": paced.settings(),
                ratings.RANKED: bool(ranked),  # ratings and reliability (issue 40)
                ratings.MIN_RELIABILITY: min_reliability,
                anonymity.ANONYMOUS: bool(anonymous),
            },
            clock_seconds=clock_seconds,
            grace_seconds=grace_seconds,
            max_open=self.quotas.lobbies,
        )
        if host_house is not None:
            lobby = self.online.take_seat(lobby.id, host, host_house)
            invites.pop(host_house, None)
        return lobby, invites

    def take(self, lobby_id: str, player: PlayerInfo, house: str) -> LobbyInfo:
        """``player`` takes ``house`` (or a random free open seat)."""
        self.moderation.check_may_sit(player)
        ratings.check_seat(self.online, lobby_id, player)  # the lobby's minimum reliability
        if house == RANDOM:
            lobby = self.online.lobby(lobby_id)
            free = [s.house for s in lobby.seats if s.open and s.player_id is None]
            if not free:
                raise LobbyState("there is no free seat left")
            house = secrets.choice(free)
        with self._seat_change(lobby_id):
            lobby = self.online.take_seat(lobby_id, player, house)
            self._seats_changed(lobby)
        self._lobby_changed(lobby)
        return lobby

    def ready(self, lobby_id: str, player: PlayerInfo, ready: bool) -> LobbyInfo:
        """``player`` is ready (or not) to start."""
        lobby = self.online.set_ready(lobby_id, player, ready)
        self._lobby_changed(lobby)
        return lobby

    def _host(self, lobby_id: str, player: PlayerInfo) -> LobbyInfo:
        lobby = self.online.lobby(lobby_id)
        if lobby.host_id != player.id:
            raise NotHost("only the host can do this")
        return lobby

    def start_game(
        self, lobby_id: str, player: PlayerInfo, seed: int | str | None = None
    ) -> LobbyInfo:
        """The host starts the game: every person but the host must be ready; the seats
        nobody took are played by the AI at the lobby's level. The lobby is claimed first
        (``OnlineStore.claim_start``, which also counts the host's running games against
        ``quotas``), so of hosts starting it at once exactly one creates a game."""
        lobby = self.online.claim_start(
            lobby_id, player, max_games=self.quotas.games, max_ai_games=self.quotas.ai_games
        )
        try:
            session = self._create_game(lobby, seed)
            lobby = self.online.mark_running(lobby_id, session.game_id)
        except BaseException:
            self.online.unclaim_start(lobby_id)
            raise
        self._install(session, lobby)
        self._lobby_changed(lobby)
        self._wake.set()
        return lobby

    def _create_game(self, lobby: LobbyInfo, seed: int | str | None) -> OnlineSession:
        """The stored game of a claimed lobby, its seats as the lobby holds them (the record
        keeps the people's real names, also at an anonymous table: ``anonymity``)."""
        settings = lobby.settings
        rules = build_ruleset(settings["options"], disable=settings["disable"])
        seats: dict[str, Player] = {}
        specs: dict[str, SeatSpec] = {}
        names = anonymity.real_names(self.online.engine, lobby.id)
        for s in lobby.seats:
            if s.player_id:
                seats[s.house] = Human(names.get(s.house, ""), credential=s.player_id)
            else:
                ai = self._ai(lobby, s.house, rules.plugins)
                seats[s.house] = ai
                specs[s.house] = SeatSpec(s.house, AI, ai.level, personality=ai.personality.id)
        session = OnlineSession.create(
            self.store,
            rules,
            lobby.players,
            seats,
            secrets.randbelow(2**31) if seed is None else seed,
            settings["options"],
            name=lobby.name,
            hint=hints.hint,
            ai_budget=self.ai_budget,
            specs=specs,
        )
        assert isinstance(session, OnlineSession)
        return session

    def kick(self, lobby_id: str, player: PlayerInfo, house: str) -> LobbyInfo:
        """The host takes ``house`` from its player: the AI plays it from now on."""
        ratings.record_left(self.online, self._host(lobby_id, player), house)
        with self._seat_change(lobby_id):
            lobby, _ = self.online.release(lobby_id, house, reopen=False)
            self._seats_changed(lobby)
        self._lobby_changed(lobby)
        return lobby

    def hand_back(self, lobby_id: str, player: PlayerInfo, house: str) -> tuple[LobbyInfo, str]:
        """The host gives ``house`` a fresh invite, so that a person can have it (back)."""
        ratings.record_left(self.online, self._host(lobby_id, player), house)
        with self._seat_change(lobby_id):
            lobby, token = self.online.release(lobby_id, house, reopen=True)
            self._seats_changed(lobby)
        assert token is not None
        self._lobby_changed(lobby)
        return lobby, token

    def join(self, token: str, player: PlayerInfo) -> tuple[LobbyInfo, str]:
        """``player`` takes the seat of invite ``token`` (leaving any other seat of theirs
        in that game)."""
        self.moderation.check_may_sit(player)
        lobby_id = self.online.lobby_of_invite(token)
        ratings.check_seat(self.online, lobby_id, player)
        with self._seat_change(lobby_id):
            lobby, house = self.online.join_by_invite(token, player)
            self._seats_changed(lobby)
        self._lobby_changed(lobby)
        return lobby, house

    def stop_game(self, lobby_id: str, player: PlayerInfo) -> LobbyInfo:
        """The host stops their running game where it stands, if no other person holds a
        seat in it (an all-AI game, or one where the host plays alone; issue 35 finding 11)."""
        lobby = self._host(lobby_id, player)
        others = [s.house for s in lobby.seats if s.player_id not in (None, player.id)]
        if others:
            raise LobbyState(f"people play in this game: {', '.join(others)}")
        return self.stop(lobby_id)

    def stop(self, lobby_id: str) -> LobbyInfo:
        """Stop a running game where it stands (for the host's ``stop_game`` and the
        operator): the lobby is finished, the AI stops deciding on every worker (a worker
        that does not hear of it stops at its next scan, which lists running games only),
        every seat is the AI's, so no action is accepted any more."""
        lobby = self.online.stop(lobby_id)
        self._stopped(lobby)
        self.bus.publish(lobby.game_id or lobby.id, {"kind": "stopped", "lobby": lobby.id})
        self._lobby_changed(lobby)
        return lobby

    def _stopped(self, lobby: LobbyInfo) -> None:
        self._forget(lobby.id)
        self._voice(self.voice.stopped, lobby)
        with self._lock:
            self._running.discard(lobby.game_id or "")
            self._dirty.discard(lobby.game_id or "")
            session = self._sessions.get(lobby.game_id or "")
        if session is not None:
            for house in list(session.players):
                self._set_ai(session, lobby, house)

    def _ended(self, games: Iterable[str]) -> None:
        """Games that were running at the last scan and are not now (over, or stopped by
        an operator's command that no worker announced): nobody acts in them here any more,
        and this worker's lobby sockets get the finished lobby's roster (an anonymous
        table's names show now: ``anonymity``)."""
        with self._lock:
            lobby_ids = [self._lobby_of[g] for g in games if g in self._lobby_of]
        for lobby in self.online.lobbies_by_id(lobby_ids).values():
            self._stopped(lobby)
            self._send_roster(lobby.id)

    # ------------------------------------------------------------------ seat authority
    @contextmanager
    def _seat_change(self, lobby_id: str | None) -> Iterator[None]:
        """Hold the game's writer lock (if the lobby's game is running) while a seat
        changes: no action is accepted between the change and the rebinding of the
        sockets, and every worker hears of the change before any later action."""
        lobby = self.online.lobby(lobby_id) if lobby_id is not None else None
        if lobby is None or lobby.game_id is None:
            yield
            return
        with self.bus.lock(lobby.game_id):
            yield

    def _seats_changed(self, lobby: LobbyInfo) -> None:
        """The seats of ``lobby`` changed (as it says): rebind this worker's sockets, then
        tell the other workers (who read the lobby and do the same)."""
        self._forget(lobby.id)
        self._rebind(lobby)
        self.bus.publish(lobby.game_id or lobby.id, {"kind": "seat", "lobby": lobby.id})

    def _rebind(self, lobby: LobbyInfo) -> None:
        """Bring this worker's replica and sockets of ``lobby`` in line with its seats: a
        seat whose person changed is the AI's until its new person opens it; a board socket
        whose player no longer holds its seat is closed; a lobby socket speaks for its
        player's seat now and is told so, with the chat that seat may read."""
        holders = {s.house: s.player_id for s in lobby.seats}
        with self._lock:
            session = self._sessions.get(lobby.game_id or "")
            conns = [c for c in self._conns.get(lobby.id, ()) if c.player is not None]
        self._voice(self.voice.seats_changed, lobby, holders)  # "closed" before a refusal
        if session is not None:
            for house, holder in holders.items():
                current = session.players.get(house)
                if isinstance(current, Human) and current.credential != holder:
                    self._set_ai(session, lobby, house)
        for conn in conns:
            now = speaks_for(conn, holders)
            if conn.board and now is None:
                self._refuse_board(conn)
            elif not conn.board and now != conn.house:
                self._tell_seat(conn, now)
        self._wake.set()

    def _refuse_board(self, conn: Conn) -> None:
        conn.deliver(
            {
                "type": "error",
                "code": NotYourSeat.code,
                "error": "NotYourSeat",
                "message": "this seat is no longer yours",
                "rule": "",
                "in_reply_to": None,
            }
        )
        if conn.close is not None:
            conn.close(4403)

    def _tell_seat(self, conn: Conn, house: str | None) -> None:
        """Lobby socket ``conn`` speaks for ``house`` from now on: a ``seat`` message, then
        every stored chat line that seat may read (the page shows only those) but the lines
        of those its player blocked (``moderation``)."""
        lines = self.moderation.readable(self.online, conn.lobby_id, house, conn.player)
        with self._lock:
            conn.house = house
            conn.deliver({"type": "seat", "lobby": conn.lobby_id, "house": house})
            for line in lines:
                conn.deliver(line.message())

    # ------------------------------------------------------------------ lobbies read
    def lobby(self, lobby_id: str) -> LobbyInfo:
        """The lobby as this worker knows it: read again after every change this worker
        makes or hears of on the bus, and refreshed by the seat thread's scan once it is
        LOBBY_TTL / 2 to LOBBY_TTL seconds old (``refresh_lobbies``)."""
        found = self.lobbies([lobby_id]).get(lobby_id)
        return found if found is not None else self.online.lobby(lobby_id)  # LobbyNotFound

    def lobbies(self, lobby_ids: Iterable[str]) -> dict[str, LobbyInfo]:
        """Those of ``lobby_ids`` that exist, as ``lobby`` knows them: the ones not known
        are read now, together; an old one is served as it is, never read on the way of an
        action (lobbies that ran out together, read one by one on the way of actions, took
        15 % of a worker's Python time at 200 games)."""
        ids = list(dict.fromkeys(lobby_ids))
        with self._lock:
            cached = {i: self._lobbies.get(i) for i in ids}
            self._lobbies_used.update(ids)
        found = {i: c[1] for i, c in cached.items() if c is not None}
        unknown = [i for i in ids if i not in found]
        if unknown:
            found.update(self._read_lobbies(unknown))
        return found

    def refresh_lobbies(self) -> int:
        """Read again, together, the lobbies whose time is up and that were asked for
        since they were read (the others are dropped: a finished game's lobby is read
        again only if someone asks); how many were read. Each is kept for a time drawn
        between LOBBY_TTL / 2 and LOBBY_TTL, so that lobbies loaded together are not all
        read again at the same scan."""
        now = time.monotonic()
        with self._lock:
            due = [i for i, (until, _) in self._lobbies.items() if until <= now]
            used = [i for i in due if i in self._lobbies_used]
            for lobby_id in due:
                self._lobbies_used.discard(lobby_id)
                if lobby_id not in used:
                    del self._lobbies[lobby_id]
        if used:
            self._read_lobbies(used)
        return len(used)

    def _read_lobbies(self, lobby_ids: list[str]) -> dict[str, LobbyInfo]:
        with self._lock:
            versions = {i: self._lobby_versions[i] for i in lobby_ids}
        read = self.online.lobbies_by_id(lobby_ids)
        now = time.monotonic()
        with self._lock:
            for lobby_id, lobby in read.items():
                if self._lobby_versions[lobby_id] == versions[lobby_id]:  # no change meanwhile
                    until = now + LOBBY_TTL * self._jitter.uniform(0.5, 1.0)
                    self._lobbies[lobby_id] = (until, lobby)
            for lobby_id in set(lobby_ids) - set(read):  # gone from the store
                self._lobbies.pop(lobby_id, None)
        return read

    def _forget(self, lobby_id: str) -> None:
        """The lobby or its roster changed: read it again next time, and ask again whether
        its people are here."""
        with self._lock:
            self._lobbies.pop(lobby_id, None)
            self._lobby_versions[lobby_id] += 1
            self._presence.pop(lobby_id, None)

    # ------------------------------------------------------------------ sessions
    def _ai(self, lobby: LobbyInfo, house: str, plugins: Any, recorded: str = "") -> PooledAi:
        """The AI for ``house`` at the lobby's level, playing the personality its seat
        recorded, else the lobby's choice ("any": drawn with the lobby's id, DESIGN §3)."""
        settings = lobby.settings
        choice = recorded or settings.get("ai_personality") or BALANCED.id
        personality = (
            draw(self.personalities, lobby.id, house)
            if choice == ANY
            else resolve(choice, offered(self.personalities))
        )
        return PooledAi(self.pool, settings["ai_level"], personality, plugins, settings["options"])

    def _install(self, session: OnlineSession, lobby: LobbyInfo) -> None:
        session.share(self.bus, functools.partial(self._holder, lobby.id))
        session.observe(lambda accepted: self._accepted(lobby.id, session.game_id, accepted))
        with self._lock:
            self._sessions[session.game_id] = session
            self._lobby_of[session.game_id] = lobby.id
        self.bus.note_seq(session.game_id, session.serial)

    def _holder(self, lobby_id: str, house: str) -> str | None:
        """The writer's check of a person's action: refused while a vote pauses the game
        (``votes``), else who holds the seat (``Moderation.holder``: a banned holder refused)."""
        self.votes.check_action(lobby_id)
        return self.moderation.holder(lobby_id, house)

    def session(self, game_id: str) -> tuple[OnlineSession, LobbyInfo]:
        """The replica of running game ``game_id`` on this worker (loaded on first use)."""
        with self._lock:
            known, lobby_id = self._sessions.get(game_id), self._lobby_of.get(game_id)
        if known is not None and lobby_id is not None:
            return known, self.lobby(lobby_id)
        lobby = self.online.lobby_of_game(game_id)
        if lobby is None:
            raise NotYourSeat("this is not an online game")
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return session, lobby
            humans = {
                s.house: Human(s.player_name or "", credential=s.player_id)
                for s in lobby.seats
                if s.player_id
            }

            def factory(house: str, seat: SeatSpec) -> PooledAi:
                return self._ai(lobby, house, plugins, seat.personality)

            plugins = self.store.game(game_id).setup.plugins
            resumed = OnlineSession.resume(
                self.store,
                game_id,
                factory,
                humans=humans,
                hint=hints.hint,
                ai_budget=self.ai_budget,
            )
            assert isinstance(resumed, OnlineSession)
            for seat in lobby.seats:  # seats a person took after the game was created
                if seat.player_id is None and not resumed.is_ai(seat.house):
                    resumed.players[seat.house] = factory(seat.house, SeatSpec(seat.house, AI))
            self._install(resumed, lobby)
            return resumed, lobby

    def _accepted(self, lobby_id: str, game_id: str, accepted: Accepted) -> None:
        if accepted.state.winner is not None:
            self._game_over(lobby_id, game_id, accepted.state)
        with self._lock:
            self._dirty.add(game_id)
        self._wake.set()

    def _game_over(self, lobby_id: str, game_id: str, state: State) -> None:
        """Game ``game_id`` of lobby ``lobby_id`` ended as ``state``: the game is rated (once,
        issue 40), then its lobby marked finished. Called as the winning action is accepted, and
        again by every scan that finds an ended game's lobby still running (``_drive``): a
        worker that stopped, or a store that failed, between storing that action and marking
        the lobby leaves it so. A failure is logged and the lobby left running, so the next
        scan tries again; the lobby is never marked before the game is rated, as no scan
        looks at a finished lobby again."""
        if not ratings.game_over(self.online, lobby_id, game_id, state):
            return
        try:
            self.online.mark_finished(lobby_id)
        except (OnlineError, SQLAlchemyError):
            log.exception("could not mark lobby %s finished (the next scan tries again)", lobby_id)

    def _set_person(self, session: OnlineSession, lobby: LobbyInfo, house: str) -> None:
        seat = lobby.seat(house)
        if seat is not None and seat.player_id is not None:
            current = session.players.get(house)
            if not isinstance(current, Human) or current.credential != seat.player_id:
                session.players[house] = Human(seat.player_name or "", credential=seat.player_id)

    def _set_ai(self, session: OnlineSession, lobby: LobbyInfo, house: str) -> None:
        if not session.is_ai(house):
            session.players[house] = self._ai(lobby, house, session.state.rules.plugins)

    # ------------------------------------------------------------------ sockets
    def seat_key(self, lobby_id: str, house: str) -> str:
        """The presence key of a seat."""
        return f"{lobby_id}:{house}"

    def open_seat(
        self, game_id: str, house: str, player: PlayerInfo
    ) -> tuple[OnlineSession, LobbyInfo]:
        """Check that ``player`` owns ``house`` of ``game_id`` (NotYourSeat otherwise) and
        give the seat back to the person at once; a banned player opens none (Banned)."""
        self.moderation.check_may_sit(player)
        session, lobby = self.session(game_id)
        seat = lobby.seat(house)
        if seat is None:
            raise WrongSeat(f"{house!r} does not play in this game")
        if seat.player_id != player.id:
            raise NotYourSeat(f"{house} is not your seat (use your own player key)")
        if lobby.status == RUNNING:
            by_turns = Pace.of(lobby.settings).by_turns  # a seat the AI kept is back (issue 40)
            if by_turns and self.turns.store.come_back(lobby.id, house, player.id):
                self._roster_changed(lobby.id)
            self._set_person(session, lobby, house)
        return session, lobby

    def connect(self, conn: Conn) -> None:
        """A socket of this worker opened (board: the seat is present from now)."""
        with self._lock:
            self._conns[conn.lobby_id].append(conn)
            if conn.board and conn.house is not None:
                self._boards[self.seat_key(conn.lobby_id, conn.house)] += 1
        if conn.board and conn.house is not None:
            self.bus.set_present({conn.id: self.seat_key(conn.lobby_id, conn.house)}, PRESENCE_TTL)
            self._absent_since.pop((conn.lobby_id, conn.house), None)
            self._roster_changed(conn.lobby_id)
        if conn.board:
            self._voice(self.voice.opened, conn)

    def disconnect(self, conn: Conn) -> None:
        """A socket of this worker closed (its table voice member leaves)."""
        self._voice(self.voice.disconnected, conn)
        with self._lock:
            if conn in self._conns[conn.lobby_id]:
                self._conns[conn.lobby_id].remove(conn)
                if conn.board and conn.house is not None:
                    self._boards -= Counter({self.seat_key(conn.lobby_id, conn.house): 1})
        if conn.board and conn.house is not None:
            self.bus.set_absent(self.seat_key(conn.lobby_id, conn.house), conn.id)
            self._roster_changed(conn.lobby_id)

    def _voice(self, event: Callable[..., None], *args: Any) -> None:
        """Tell table voice of a socket or seat event; a failure of it (Redis not answering)
        is logged, never in the way of the sockets and seats themselves."""
        try:
            event(*args)
        except Exception:
            log.exception("table voice could not follow %s", event.__name__)

    def board_conns(self, lobby_id: str) -> list[Conn]:
        """This worker's board sockets (seats' and spectators') of ``lobby_id``."""
        with self._lock:
            return [c for c in self._conns.get(lobby_id, ()) if c.board]

    def roster(self, lobby_id: str) -> dict[str, Any]:
        """The ``roster`` message: every seat, its player, whether they are connected and
        who decides for it now, and the time banks (public to every client), each with
        whether it runs down now (``clock_running``: a person here is asked to decide), so
        that the boards count it down between two rosters (issue 37 point 4). By turns
        (issue 40), the deadline of the seat's pending decision (``deadline_at``, ISO; None
        when none runs), its missed deadlines in a row, a vacation, the AI keeping it and
        an offered seat's invite (``Turns.roster``)."""
        lobby = self.lobby(lobby_id)
        with self._lock:
            session = self._sessions.get(lobby.game_id or "")
        seats = []
        people = [self.seat_key(lobby.id, s.house) for s in lobby.seats if s.player_id]
        here = self.bus.present(people)
        banks = self._roster_banks(lobby)
        asked = asked_seats(session) if session is not None and lobby.clock_seconds else set()
        held = lobby.game_id in self.votes.held  # paused by a vote (issue 40): no clock runs
        paced = self.turns.roster(lobby) if Pace.of(lobby.settings).by_turns else {}
        for s in lobby.seats:
            present = self.seat_key(lobby.id, s.house) in here
            bank = banks.get(s.house, s.clock_left)
            seats.append(
                {
                    "house": s.house,
                    "player": s.player_name,
                    "connected": present,
                    "ai": s.player_id is None or (session is not None and session.is_ai(s.house)),
                    "clock_left": round(bank, 1) if lobby.clock_seconds else None,
                    "clock_running": present
                    and s.player_id is not None
                    and s.house in asked
                    and not held,
                    "deadline_at": None,
                    **paced.get(s.house, {}),
                }
            )
        return {"type": "roster", "lobby": lobby.public(), "seats": seats, "paused_by_vote": held}

    def _roster_banks(self, lobby: LobbyInfo) -> dict[str, float]:
        """The time banks as this worker runs them, if it holds the game's lease, else as
        stored now (so that every worker shows the same banks)."""
        if not lobby.clock_seconds:
            return {}
        with self._lock:
            if lobby.id in self._banks_read:
                return {s.house: self._banks.get((lobby.id, s.house), 0.0) for s in lobby.seats}
        return self.online.clocks(lobby.id)

    def _roster_changed(self, lobby_id: str) -> None:
        self._forget(lobby_id)
        self.bus.publish(lobby_id, {"kind": "roster", "lobby": lobby_id})
        self._send_roster(lobby_id)

    def _lobby_changed(self, lobby: LobbyInfo) -> None:
        self._roster_changed(lobby.id)

    def _send_roster(self, lobby_id: str) -> None:
        with self._lock:
            conns = [c for c in self._conns.get(lobby_id, ()) if not c.board]
        if not conns:
            return
        message = self.roster(lobby_id)
        for conn in conns:
            conn.deliver(message)

    # ------------------------------------------------------------------ chat
    def chat(self, conn: Conn, data: Mapping[str, Any]) -> ChatLine:
        """A chat message from ``conn``: checked (plain text, length, a muted or banned
        player's refused as the store says now, rate, recipient), stored with the round and
        phase and its writer, then delivered to every socket that may read it."""
        lobby = self.lobby(conn.lobby_id)
        sender = speaks_for(conn, self.online.holders(lobby.id))
        if conn.board and conn.player is not None and sender is None:
            raise NotYourSeat("this seat is no longer yours")
        self.moderation.check_may_chat(conn.player)
        text = clean_text(data.get("text"))
        to = check_recipient(sender, data.get("to"), [s.house for s in lobby.seats])
        self.rate.check(sender_key(conn.player, conn.address, lobby.id))
        round_number, phase = 0, "lobby"
        if lobby.game_id is not None:
            session, _ = self.session(lobby.game_id)
            round_number, phase = session.state.round, phase_of(session)
        name = conn.player.name if conn.player else "spectator"
        line = self.online.add_chat(
            lobby.id,
            player_name=name,
            house=sender,
            to_house=to,
            text=text,
            round_number=round_number,
            phase=phase,
            player_id=conn.player.id if conn.player else None,
        )
        writer = conn.player.id if conn.player else None
        self.bus.publish(
            lobby.id, {"kind": "chat", "lobby": lobby.id, "id": line.id, "writer": writer}
        )
        self._deliver_chat(line, writer)
        return line

    def _deliver_chat(self, line: ChatLine, writer: str | None) -> None:
        """Send ``line`` to this worker's sockets that may read it: a raven only to those
        whose player holds its sender's or recipient's seat now (read from the store); never
        to those whose player blocked its ``writer`` (``moderation``, read from the store)."""
        with self._lock:
            conns = list(self._conns.get(line.lobby_id, ()))
        holders = self.online.holders(line.lobby_id) if line.to_house is not None else {}
        blockers = self.moderation.blockers(writer, {c.player.id for c in conns if c.player})
        message = line.message()
        for conn in conns:
            if conn.player is not None and conn.player.id in blockers:
                continue
            if line.visible_to(speaks_for(conn, holders) if holders else None):
                conn.deliver(message)

    # ------------------------------------------------------------------ other workers
    def _on_bus(self, key: str, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "action":
            with self._lock:
                session = self._sessions.get(key)
            if session is not None:
                session.follow(message["seq"], message["house"], message["action"], message["hash"])
        elif kind == "chat":
            line = self.online.chat_line(message["lobby"], int(message["id"]))
            if line is not None:
                self._deliver_chat(line, message.get("writer"))
        elif kind == "roster":
            self._forget(message["lobby"])
            self._send_roster(message["lobby"])
        elif kind == "seat":
            self._forget(message["lobby"])
            if self._follows(message["lobby"]):
                self._rebind(self.online.lobby(message["lobby"]))
        elif kind == "paused":
            self._paused_elsewhere(key, message)
        elif kind in VOICE_KINDS:
            self.voice.on_bus(message)
        elif kind == "vote":
            self.votes.heard(message)
        elif kind == "extend":
            self._extended(message)
        elif kind == "stopped":
            self._stopped(self.online.lobby(message["lobby"]))
            self._send_roster(message["lobby"])

    def _reconnected(self) -> None:
        """The bus lost Redis and is back (issue 35 finding 8): the lobbies this worker knew
        and whether people were here may have changed meanwhile, so both are read again, at
        once (the seat thread scans now, renewing this worker's sockets' presence), rather
        than when their time runs out."""
        with self._lock:
            for lobby_id in set(self._lobbies) | set(self._presence):
                self._lobby_versions[lobby_id] += 1
            self._lobbies.clear()
            self._presence = {}
        self._rescan.set()
        self._wake.set()

    def _follows(self, lobby_id: str) -> bool:
        """Does this worker hold a socket or a replica of ``lobby_id``?"""
        with self._lock:
            return bool(self._conns.get(lobby_id)) or lobby_id in self._lobby_of.values()

    # ------------------------------------------------------------------ seats and clock
    def _run(self) -> None:
        """Every ``scan`` seconds: every running game whose lease this worker holds; in
        between, right after an accepted action (or every ``tick``), only the games that
        changed. A scan reads again the lobbies whose time is up; every PRESENCE_REFRESH
        seconds it also renews this worker's sockets and asks the bus once whether the people
        of every game held are here (in between, a lobby whose roster changed is asked again
        as its game is driven: sockets opening and closing are announced on the bus). When
        the bus comes back after losing Redis, the next pass is a scan (``_reconnected``).
        A pass that fails (the store or Redis not answering) is tried again after
        RETRY_AFTER seconds; an outage is logged twice: its first failure with the
        traceback, its end in one line (``_Outage``)."""
        scanned = refreshed = time.monotonic()
        outage = _Outage()
        while not self._stop.is_set():
            self._wake.wait(self.tick)
            self._wake.clear()
            now = time.monotonic()
            with self._lock:
                dirty, self._dirty = self._dirty, set()
            rescan = self._rescan.is_set()
            self._rescan.clear()
            try:
                games = sorted(dirty & self._running)
                scanning = rescan or now - scanned >= self.scan
                asking = False
                if scanning:
                    scanned = now
                    if rescan or now - refreshed >= PRESENCE_REFRESH:
                        refreshed = now
                        asking = True
                        self._refresh_presence()
                    self.refresh_lobbies()
                    games = self.online.running_games(limit=1000)
                    ended, self._running = self._running - set(games), set(games)
                    self._ended(ended)
                    self.votes.scan()  # votes whose time is up fail; paused games (issue 40)
                held = self._leases(games, now, renew=scanning)
                stored = self.bus.seqs(held) if scanning else {}
                if asking:
                    people = self._people_here(held)
                    with self._lock:
                        self._presence = people
                for game_id in games:
                    if not self._paused(game_id) and game_id in held:
                        self._drive(game_id, scanning, stored.get(game_id))
                if scanning:
                    self._drop_banks(held)
                    self.save_clocks()
                    outage.over()
            except Exception:
                outage.failed()
                if rescan:  # the bus came back, but this scan did not go through
                    self._rescan.set()
                self._stop.wait(RETRY_AFTER)

    def _paused(self, game_id: str) -> bool:
        """Is ``game_id`` paused on this worker (a plugin's rule failed, or a vote of its table
        paused it: its clock and grace periods are held)? The first time a plugin's rule
        fails, the other workers are told (``_paused_elsewhere``)."""
        if game_id in self.votes.held:
            with self._lock:
                self._clock_at[game_id] = time.monotonic()
                lobby_id = self._lobby_of.get(game_id)
                for key in [k for k in self._absent_since if k[0] == lobby_id]:
                    self._absent_since[key] = time.monotonic()
            return True
        with self._lock:
            session = self._sessions.get(game_id)
            pause = session.paused if session is not None else None
            if pause is None:
                return False
            told = game_id in self._pauses_told
            self._pauses_told.add(game_id)
        if not told:
            self.bus.publish(game_id, {**pause.message(), "kind": "paused"})
        return True

    def _paused_elsewhere(self, game_id: str, message: Mapping[str, Any]) -> None:
        """Another worker paused ``game_id``: pause this worker's replica too (its seats and
        spectators are told), without telling the others again."""
        with self._lock:
            self._pauses_told.add(game_id)
            session = self._sessions.get(game_id)
        if session is not None:
            fault = PluginFault(
                str(message["plugin"]),
                str(message["hook"]),
                "paused on another worker",
                str(message["error"]),
            )
            session.pause(fault)

    def _leases(self, games: list[str], now: float, *, renew: bool) -> set[str]:
        """The games of ``games`` whose AI/clock lease this worker holds: taken or renewed
        in Redis on a scan (``renew``), for a game not seen yet, or for one renewed over half
        a LEASE_TTL ago; otherwise known from the last time, so an action costs no round trip
        here (a lease held lasts LEASE_TTL after its renewal, and scans renew it). A lease
        another worker holds is asked for again on the next scan only (which takes it over
        once that worker has stopped renewing it)."""
        fresh = (
            set()
            if renew
            else {g for g in games if now - self._leased.get(g, -LEASE_TTL) < LEASE_TTL / 2}
        )
        ask = [g for g in games if g not in fresh and (renew or g not in self._elsewhere)]
        held = self.bus.leases(ask, LEASE_TTL) if ask else set()
        if renew:  # a scan lists every running game: forget the ended ones
            self._leased, self._elsewhere = {}, set()
        for game in ask:
            if game in held:
                self._leased[game] = now
                self._elsewhere.discard(game)
            else:
                self._leased.pop(game, None)
                self._elsewhere.add(game)
        return fresh | held

    # ------------------------------------------------------------------ time banks
    def _read_banks(self, lobby: LobbyInfo) -> None:
        """Run ``lobby``'s time banks from what is stored (once, when this worker takes
        them on: at its first drive, after a restart, or after another worker's lease)."""
        with self._lock:
            if lobby.id in self._banks_read:
                return
        stored = self.online.clocks(lobby.id)
        with self._lock:
            for house, left in stored.items():
                self._banks[(lobby.id, house)] = left
            self._banks_read.add(lobby.id)

    def _set_bank(self, lobby_id: str, house: str, left: float) -> None:
        with self._lock:
            self._banks[(lobby_id, house)] = left
            self._banks_changed.add((lobby_id, house))

    def save_clocks(self) -> None:
        """Store the time banks that changed since the last time (every scan)."""
        with self._lock:
            changed = {k: self._banks[k] for k in self._banks_changed if k in self._banks}
            self._banks_changed = set()
        try:
            self.online.set_clocks(changed)
        except Exception:
            with self._lock:
                self._banks_changed |= set(changed)
            raise

    def _drop_banks(self, held: set[str]) -> None:
        """Forget the banks of games whose lease this worker no longer holds (the holder
        runs them; they are read again from the store if this worker takes them back)."""
        with self._lock:
            self._clock_at = {g: t for g, t in self._clock_at.items() if g in held}
            self._ticking = {g: t for g, t in self._ticking.items() if g in held}
            keep = {self._lobby_of[g] for g in held if g in self._lobby_of}
            for lobby_id in self._banks_read - keep:
                self._banks_read.discard(lobby_id)
                for key in [k for k in self._banks if k[0] == lobby_id]:
                    if key not in self._banks_changed:
                        del self._banks[key]

    def _refresh_presence(self) -> None:
        """Renew the presence of this worker's seat sockets; those of banned players are
        closed instead (``moderation``: their seats go to the AI after the grace period)."""
        with self._lock:
            conns = [c for cs in self._conns.values() for c in cs if c.board and c.house]
        banned = self.moderation.banned_among({c.player.id for c in conns if c.player})
        for conn in [c for c in conns if c.player is not None and c.player.id in banned]:
            conns.remove(conn)
            conn.deliver(refusal(Banned("you are banned from this server")))
            if conn.close is not None:
                conn.close(4403)
        self.bus.set_present(
            {c.id: self.seat_key(c.lobby_id, c.house or "") for c in conns}, PRESENCE_TTL
        )

    def _here(self, seats: Iterable[str], known: Mapping[str, bool]) -> set[str]:
        """Those of the seat keys ``seats`` that have a socket open: on this worker, as
        ``known`` says (as last asked), else as the bus says (one round trip)."""
        with self._lock:
            local = {s for s in seats if self._boards[s]}
        ask = [s for s in seats if s not in local and s not in known]
        return local | {s for s in seats if known.get(s)} | self.bus.present(ask)

    def _people_here(self, games: Iterable[str]) -> dict[str, dict[str, bool]]:
        """Per lobby, whether each person's seat of those ``games`` this worker has loaded
        has a socket open on some worker: one round trip for all of them."""
        with self._lock:
            lobby_ids = [self._lobby_of[g] for g in games if g in self._lobby_of]
        seats = {
            lobby.id: [self.seat_key(lobby.id, s.house) for s in lobby.seats if s.player_id]
            for lobby in self.lobbies(lobby_ids).values()
        }
        here = self._here([k for keys in seats.values() for k in keys], {})
        return {lobby_id: {k: k in here for k in keys} for lobby_id, keys in seats.items()}

    def _drive(
        self,
        game_id: str,
        scanning: bool,
        stored: int | None,
    ) -> None:
        """Decide who plays each pending house of ``game_id`` now; run the AI ones. On a
        scan the replica first catches up with the store if the bus says it is behind
        (``stored``: the serial of the game's last stored action) or does not know.
        Whether its people have a socket open is taken as last asked (a lobby whose roster
        changed since is asked again), so an action costs no round trip here."""
        session, lobby = self.session(game_id)
        with self._lock:
            known = self._presence.get(lobby.id, {})  # replaced whole, never changed
        if scanning and (stored is None or stored > session.serial):
            try:
                session.catch_up()
            except GamePaused:
                return  # a stored action met a plugin fault here: the game is paused
        if session.over:  # a scan lists running lobbies only: this one was never marked
            if scanning:
                self._game_over(lobby.id, game_id, session.state)
            return
        now = time.monotonic()
        with self._lock:  # the clock runs from this game's last drive, however long ago
            elapsed = now - self._clock_at.get(game_id, now)
            self._clock_at[game_id] = now
        if lobby.clock_seconds:
            self._read_banks(lobby)
        changed = False
        ticking: set[str] = set()
        try:
            waiting = sorted(pending(session.state))
        except PluginFault as fault:
            session.pause(fault)  # logged there, once; the seat thread skips it from now
            return
        owners = {h: session.seat_of(h) for h in waiting}  # a vassal's commander (11.10.8)
        seats = {h: lobby.seat(h) for h in set(owners.values())}
        here = self._here(
            [self.seat_key(lobby.id, h) for h, s in seats.items() if s is not None and s.player_id],
            known,
        )
        pace = Pace.of(lobby.settings)  # by turns: deadlines, not presence (issue 40)
        turns: dict[str, bool] = {}
        if pace.by_turns:
            turns, changed = self._turns(session, lobby, pace, seats)
        for asked in waiting:
            house = owners[asked]
            seat = seats[house]
            ai_turn = seat is None or seat.player_id is None
            if not ai_turn and pace.by_turns:
                ai_turn = turns.get(house, False)
            elif not ai_turn:
                key = (lobby.id, house)
                if self.seat_key(lobby.id, house) in here:
                    self._absent_since.pop(key, None)
                    if session.is_ai(house):
                        self._set_person(session, lobby, house)
                        changed = True
                    if lobby.clock_seconds and seat is not None:
                        bank = self._banks.get(key, seat.clock_left) - elapsed
                        self._set_bank(lobby.id, house, bank)
                        ai_turn = bank <= 0
                        if not ai_turn:
                            ticking.add(house)
                else:
                    since = self._absent_since.setdefault(key, now)
                    ai_turn = now - since >= lobby.grace_seconds
            if ai_turn:
                if not session.is_ai(house):
                    self._set_ai(session, lobby, house)
                    changed = True
                self._decide(session, lobby, asked)
        if self.notices is not None:  # the people asked and not at their board (issue 40)
            present = {h for h in seats if self.seat_key(lobby.id, h) in here}
            self.notices.decisions(session, lobby, present)
        with self._lock:  # the boards count a bank down only while the roster says it runs
            if lobby.clock_seconds and self._ticking.get(game_id) != ticking:
                self._ticking[game_id] = ticking
                changed = True
        if changed:
            self._roster_changed(lobby.id)

    def _turns(
        self,
        session: OnlineSession,
        lobby: LobbyInfo,
        pace: Pace,
        seats: Mapping[str, SeatInfo | None],
    ) -> tuple[dict[str, bool], bool]:
        """Who decides for each person's seat asked now in a game by turns (house: the AI
        does), from the stored deadlines (``Turns.verdicts``): the person's seat is theirs
        while its deadline runs; a deadline that passed is a miss (``MISSED_DEADLINE``
        hooks), and the AI decides that one decision; the host's ``max_missed`` in a row
        offer the seat to a new person (``_offer``) or leave it to the AI until its person
        opens their board again. Also whether the roster changed."""
        people = {h: s for h, s in seats.items() if s is not None and s.player_id}
        verdicts, changed = self.turns.verdicts(
            lobby, pace, session.game_id, session.serial, people, session.seat_of
        )
        for house, verdict in verdicts.items():
            if not verdict.ai and session.is_ai(house):
                self._set_person(session, lobby, house)
                changed = True
            if verdict.missed:
                player_id = people[house].player_id or ""
                when = self.turns.clock()
                self.turns.missed(
                    MissedDeadline(
                        lobby.id, session.game_id, house, player_id, verdict.missed, when
                    )
                )
            if verdict.offer:
                self._offer(lobby.id, house)
        return {h: v.ai for h, v in verdicts.items()}, changed

    # ------------------------------------------------------------------ votes (issue 40)
    def tell(self, lobby_id: str, message: Mapping[str, Any]) -> None:
        """Send ``message`` to every socket of ``lobby_id`` on this worker (seats,
        spectators, lobby pages)."""
        with self._lock:
            conns = list(self._conns.get(lobby_id, ()))
        for conn in conns:
            conn.deliver(dict(message))

    def announce(self, lobby_id: str, text: str) -> ChatLine:
        """A system line (no writer, no house) of the lobby's public chat, stored with the
        round and phase and delivered on every worker: the votes' log (``votes``)."""
        lobby = self.lobby(lobby_id)
        round_number, phase = 0, "lobby"
        if lobby.game_id is not None:
            session, _ = self.session(lobby.game_id)
            round_number, phase = session.state.round, phase_of(session)
        line = self.online.add_chat(
            lobby.id,
            player_name="",
            house=None,
            to_house=None,
            text=text,
            round_number=round_number,
            phase=phase,
        )
        self.bus.publish(lobby.id, {"kind": "chat", "lobby": lobby.id, "id": line.id})
        self._deliver_chat(line, None)
        return line

    def vote_paused(self, lobby_id: str) -> None:
        """A vote paused or resumed ``lobby_id``'s game: the boards' rosters change (no clock
        runs while paused), the seat thread looks again."""
        self._roster_changed(lobby_id)
        self._wake.set()

    def extend_clocks(self, lobby_id: str, seconds: float) -> None:
        """Add ``seconds`` to every time bank of ``lobby_id`` (a vote, issue 40): to the banks
        this worker runs, else to the stored ones; the worker running them is told."""
        if self._add_to_banks(lobby_id, seconds):
            self.save_clocks()
        else:
            stored = self.online.clocks(lobby_id)
            self.online.set_clocks({(lobby_id, h): left + seconds for h, left in stored.items()})
            self.bus.publish(lobby_id, {"kind": "extend", "lobby": lobby_id, "seconds": seconds})
        self._roster_changed(lobby_id)

    def _extended(self, message: Mapping[str, Any]) -> None:
        """Another worker extended the banks in the store: if this worker runs them, add the
        same to its own (which it stores next)."""
        self._add_to_banks(str(message["lobby"]), float(message["seconds"]))

    def _add_to_banks(self, lobby_id: str, seconds: float) -> bool:
        """Add ``seconds`` to the banks of ``lobby_id`` this worker runs (stored next);
        whether it runs them."""
        with self._lock:
            running = lobby_id in self._banks_read
            if running:
                for key in [k for k in self._banks if k[0] == lobby_id]:
                    self._banks[key] += seconds
                    self._banks_changed.add(key)
        return running

    def replace_seat(self, lobby_id: str, house: str, by_person: bool) -> str | None:
        """A vote replaced ``house``'s person (a game left on their record, as a kick): the AI
        plays it; ``by_person``: it is offered to a new person (a game by turns: as after too
        many missed deadlines, ``_offer``), its invite token returned."""
        lobby = ratings.record_left(self.online, self.online.lobby(lobby_id), house)
        if by_person and Pace.of(lobby.settings).by_turns:
            self._offer(lobby_id, house)
            return self.turns.store.seats(lobby_id)[house].offer_token
        with self._seat_change(lobby_id):
            lobby, token = self.online.release(lobby_id, house, reopen=by_person)
            self._seats_changed(lobby)
        self._lobby_changed(lobby)
        return token

    def _offer(self, lobby_id: str, house: str) -> None:
        """Offer ``house`` of a game by turns to a new person: the AI plays it and it gets a
        fresh invite, kept with its deadlines so that the roster shows it to everyone."""
        with self._seat_change(lobby_id):
            lobby, token = self.online.release(lobby_id, house, reopen=True)
            self._seats_changed(lobby)
        assert token is not None
        self.turns.store.offered(lobby_id, house, token)
        self._lobby_changed(lobby)

    def vacation(self, lobby_id: str, player: PlayerInfo, on: bool) -> LobbyInfo:
        """``player`` starts (``on``) or ends their vacation in a game by turns (issue 40;
        LobbyState when it allows none or none is left)."""
        lobby = self.online.lobby(lobby_id)
        self.turns.vacation(lobby, player.id, on)
        self._roster_changed(lobby_id)
        self._wake.set()
        return lobby

    def _decide(self, session: OnlineSession, lobby: LobbyInfo, house: str) -> None:
        key = (session.game_id, house)
        with self._lock:
            if key in self._busy:
                return
            self._busy.add(key)

        def run() -> None:
            try:
                serial = session.serial
                owner = session.seat_of(house)
                session.play_ai(house)
                bank_key = (lobby.id, owner)
                spent = self._banks.get(bank_key, 1.0) <= 0
                if lobby.clock_seconds and spent and session.serial != serial:
                    self._set_bank(lobby.id, owner, CLOCK_INCREMENT)
                    self.save_clocks()
            except GamePaused:
                pass  # every seat was told once, as it paused; the seat thread skips it now
            except PluginFault as fault:
                session.pause(fault)
            except Exception:
                log.exception("AI seat %s of game %s failed", house, session.game_id)
            finally:
                with self._lock:
                    self._busy.discard(key)
                self._wake.set()

        self._deciders.submit(run)
