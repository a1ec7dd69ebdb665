"""The running games of one local core: sessions by id (new ones, and stored ones rebuilt on
first use — "Continue"), each with its AI runner; deleting a game stops it first.

An online game (one an online lobby started: hosted from this app, ``online.hosting``) is
never loaded here: the online server is its one authority (issue 35 finding 6), so
``Games.get`` refuses it with ``HostedOnline`` and no local session, socket or AI runner ever
plays it.

Each game has its own serial worker thread (``executor``) for its sockets' work (loading,
attaching, every message), so one game's slow work — a plugin hook that blocks, a long
resume — never delays another game's socket, and one game's messages are handled in order."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from westeros.ai.difficulty import BASELINE
from westeros.ai.personality import ANY, BALANCED, AIPersonality, draw, offered, resolve
from westeros.ai.seats import GUIDE_LEVEL
from westeros.base.guide import GUIDE
from westeros.engine.errors import ContentError
from westeros.engine.setup import PLAYER_HOUSES, setup_for
from westeros.online.records import LobbyInfo
from westeros.online.store import OnlineStore
from westeros.plugins import build_ruleset
from westeros.store import AI, GameStore, SeatSpec, StoreError

from ..deals.table import DealTable
from ..session import AiFactory, AiPlayer, GameSession, Human, Player
from . import hints, preferences
from .ai_runner import AiRunner
from .preferences import Preferences

log = logging.getLogger("westeros.server")

RANDOM = "random"
BALANCED_ID = BALANCED.id


AI_LEVELS = ("baseline", "easy", "normal", "hard", "standard")
"""AI opponents offered on the start screen: the baseline AI or a difficulty of the strong AI;
a seat's recorded name is its level, so a resumed game gets the same AI (the start screen
lists them by strength: ``westeros.ai.difficulty.BY_STRENGTH``)."""
DEFAULT_AI_LEVEL = BASELINE
"""The level every form (start screen, host page, online lobby list) picks first and a game
created without one plays at: Easy, the baseline AI (issue 37 point 4). A new player meets
sound plans without look-ahead, and its quick decisions keep an online table's AI seats from
holding up the people."""
NAME_LENGTH = 80
"""The longest game name (characters)."""


def ai_factory_for(registered: Iterable[AIPersonality] = ()) -> AiFactory:
    """The game's own AI for an AI seat, freshly seeded (``ai.seats.seat_ai``: the level the
    seat's name records), playing with the personality the seat records (one of
    ``registered``; else the balanced default)."""
    from westeros.ai.seats import seat_ai

    known = offered(registered)

    def factory(house: str, seat: SeatSpec) -> AiPlayer:
        if seat.personality and seat.personality not in known:
            log.warning("%s: personality %r is not registered: balanced", house, seat.personality)
        return seat_ai(seat.name, resolve(seat.personality, known), secrets.randbelow(2**31))

    return factory


def seat_personalities(
    choices: Mapping[str, str], registered: Iterable[AIPersonality], seed: int | str
) -> dict[str, str]:
    """The personality id each AI house gets from the start screen's ``choices`` (house:
    a personality id or ``any``; a house not named plays balanced): "any" is drawn with the
    game's seed. SetupError names a choice that is not offered."""
    pool = tuple(registered)
    known = offered(pool)
    out = {}
    for house, choice in choices.items():
        if choice == ANY:
            out[house] = draw(pool, seed, house).id
        elif choice in known:
            out[house] = choice
        else:
            names = ", ".join([*known, ANY])
            raise SetupError(f"the AI personality of {house} is one of {names}, not {choice!r}")
    return out


def game_name(text: str) -> str:
    """A game's name as typed, spaces trimmed (empty: the start screen shows the house);
    SetupError if it is longer than ``NAME_LENGTH``."""
    name = " ".join(text.split())
    if len(name) > NAME_LENGTH:
        raise SetupError(f"a game's name has at most {NAME_LENGTH} characters")
    return name


class SetupError(ValueError):
    """A new-game request that does not fit the content (player count, house, options)."""


class HostedOnline(Exception):
    """The game is an online game: only the online server serves it, never the local core
    (issue 35 finding 6). ``lobby`` is its online lobby."""

    code = "seat/online"
    MESSAGE = (
        "This game is played online: its seats are served only by the online game server, "
        "never by this app's own board."
    )

    def __init__(self, lobby: LobbyInfo) -> None:
        super().__init__(self.MESSAGE)
        self.lobby = lobby


def new_seed() -> int:
    """A fresh random seed for a game created without one."""
    return secrets.randbelow(2**31)


def parse_seed(text: str | None) -> int | str:
    """A seed as typed: a whole number stays a number, any other text stays text; empty
    means a fresh random seed."""
    text = (text or "").strip()
    if not text:
        return new_seed()
    if text.lstrip("-").isdigit() and len(text) < 19:
        return int(text)
    if len(text) > 200:
        raise SetupError("the seed may have at most 200 characters")
    return text


class Games:
    """Sessions by game id, created or resumed on demand; one AI runner per session."""

    def __init__(
        self,
        store: GameStore,
        *,
        ai_factory: AiFactory | None = None,
        ai_delay: float = 0.0,
        ai_budget: float = 1.0,
        personalities: Iterable[AIPersonality] = (),
    ) -> None:
        self.store = store
        self.online = OnlineStore(store.engine)
        self.personalities = tuple(personalities)
        self.ai_factory = ai_factory or ai_factory_for(self.personalities)
        self.ai_delay = ai_delay
        self.ai_budget = ai_budget
        self._sessions: dict[str, GameSession] = {}
        self._tables: dict[str, DealTable] = {}
        self._runners: dict[str, AiRunner] = {}
        self._executors: dict[str, ThreadPoolExecutor] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.RLock()
        self._closers: list[Callable[[], None]] = []
        self.preferences = self._stored_preferences()

    def _stored_preferences(self) -> Preferences:
        """The player's stored preferences (defaults if the store cannot say)."""
        try:
            return preferences.loaded(self.store.setting(preferences.KEY))
        except StoreError:
            log.exception("could not read the preferences")
            return Preferences()

    def set_preferences(self, chosen: Preferences) -> None:
        """Store ``chosen``; the AI seats of every game follow its pace from their next
        decision on."""
        self.store.set_setting(preferences.KEY, chosen.as_json())
        self.preferences = chosen

    def ai_pause(self) -> float:
        """Seconds the AI runners wait before each AI decision (the chosen AI pace)."""
        return self.preferences.pace_delay(self.ai_delay)

    def create(
        self,
        *,
        players: int,
        human: str | None = RANDOM,
        humans: Iterable[str] = (),
        seed: int | str | None = None,
        options: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
        name: str = "",
        start_ai: bool = True,
        ai_level: str = DEFAULT_AI_LEVEL,
        personalities: Mapping[str, str] | None = None,
    ) -> GameSession:
        """Store and start a new game: a person plays ``human`` (a house id, ``"random"``, or
        None) and every house in ``humans`` (hot-seat and tests); an AI of ``ai_level`` (one of
        ``AI_LEVELS``) plays every other seat, with the personality ``personalities`` gives
        its house (an id of ``self.personalities``, ``"balanced"`` or ``"any"``; none named:
        balanced), recorded with the seat. ``name`` is trimmed (``game_name``). With
        ``start_ai`` False the AI seats wait for ``start_ai(game_id)``."""
        if ai_level not in (*AI_LEVELS, GUIDE_LEVEL):  # the guided game's AIs: server.guide
            raise SetupError(f"the AI level is one of {', '.join(AI_LEVELS)}, not {ai_level!r}")
        name = game_name(name)
        options = dict(options or {})
        rules = build_ruleset(options, disable=list(disable))
        if players not in rules.setups:
            counts = ", ".join(str(n) for n in sorted(rules.setups))
            raise SetupError(f"a game has {counts} players, not {players}")
        try:
            setup = setup_for(rules, players, options)
        except ContentError as exc:
            raise SetupError(str(exc)) from exc
        houses = setup.seated_houses()
        if human == RANDOM:
            human = secrets.choice(houses)
        people = {*humans, *((human,) if human is not None else ())}
        strangers = sorted(people - set(houses))
        if strangers:
            raise SetupError(f"{', '.join(strangers)} do(es) not play in a {players}-player game")
        unknown = sorted(set(options) - set(rules.options) - {PLAYER_HOUSES, GUIDE})
        if unknown:
            raise SetupError(f"unknown option(s): {', '.join(unknown)}")
        seed = new_seed() if seed is None else seed
        ai_houses = [h for h in houses if h not in people]
        chosen = dict(personalities or {})
        styles = seat_personalities(
            {h: chosen.get(h) or BALANCED_ID for h in ai_houses}, self.personalities, seed
        )
        specs = {h: SeatSpec(h, AI, ai_level, personality=styles[h]) for h in ai_houses}
        seats: dict[str, Player] = {
            h: self.ai_factory(h, specs[h]) if h in specs else Human() for h in houses
        }
        session = GameSession.create(
            self.store,
            rules,
            players,
            seats,
            seed,
            options,
            name=name,
            hint=hints.hint,
            ai_budget=self.ai_budget,
            specs=specs,
        )
        with self._lock:
            self._sessions[session.game_id] = session
            self._tables[session.game_id] = self._table(session)
            self._runners[session.game_id] = AiRunner(session, self.ai_pause)
        if start_ai:
            self.start_ai(session.game_id)
        return session

    def hosted(self, game_id: str) -> LobbyInfo | None:
        """The online lobby that started ``game_id`` (None: a game of this app alone)."""
        return self.online.lobby_of_game(game_id)

    def get(self, game_id: str) -> GameSession:
        """The session of ``game_id``, rebuilt from the store on first use (GameNotFound if
        there is no such game; CorruptGame or MissingPlugins if it cannot be rebuilt;
        HostedOnline for an online game, which only the online server serves)."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return session
        lobby = self.hosted(game_id)
        if lobby is not None:
            raise HostedOnline(lobby)
        with self._lock:
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:  # one game's resume never waits for another's
            with self._lock:
                session = self._sessions.get(game_id)
            if session is not None:
                return session
            try:
                session = GameSession.resume(
                    self.store, game_id, self.ai_factory, hint=hints.hint, ai_budget=self.ai_budget
                )
            finally:
                with self._lock:
                    self._loading.pop(game_id, None)
            with self._lock:
                self._sessions[game_id] = session
                self._tables[game_id] = self._table(session)
                self._runners[game_id] = AiRunner(session, self.ai_pause)
        self.start_ai(game_id)
        return session

    def _table(self, session: GameSession) -> DealTable:
        """The deal table of ``session``, with the deal book saved with the game."""
        game_id = session.game_id
        return DealTable(
            session,
            session.hub.view,
            lambda book: self.store.save_deal_book(game_id, book),
            self.store.deal_book(game_id),
        )

    def deals(self, game_id: str) -> DealTable:
        """The deal table of ``game_id`` (loading the game as ``get`` does)."""
        self.get(game_id)
        with self._lock:
            return self._tables[game_id]

    def executor(self, game_id: str) -> ThreadPoolExecutor:
        """The serial worker of ``game_id`` (made on first use; ``release`` it if the game
        turns out not to exist)."""
        with self._lock:
            executor = self._executors.get(game_id)
            if executor is None:
                executor = ThreadPoolExecutor(1, thread_name_prefix=f"westeros-game-{game_id[:8]}")
                self._executors[game_id] = executor
            return executor

    def release(self, game_id: str) -> None:
        """Drop the worker of ``game_id`` unless the game is loaded (an unknown game)."""
        with self._lock:
            if game_id in self._sessions:
                return
            executor = self._executors.pop(game_id, None)
        if executor is not None:
            executor.shutdown(wait=False)

    def start_ai(self, game_id: str) -> None:
        """Let the AI seats of ``game_id`` play (they wait until then)."""
        with self._lock:
            runner = self._runners[game_id]
        runner.start()

    def forget(self, game_id: str) -> None:
        """Stop the game's AI seats and drop its session (before the game is deleted)."""
        with self._lock:
            runner = self._runners.pop(game_id, None)
            self._sessions.pop(game_id, None)
            self._tables.pop(game_id, None)
            executor = self._executors.pop(game_id, None)
        if runner is not None:
            runner.stop()
        if executor is not None:
            executor.shutdown(wait=False)

    def delete(self, game_id: str) -> None:
        """Delete a stored game for good, stopping it first if it runs (GameNotFound if
        there is no such game)."""
        self.store.game(game_id)
        self.forget(game_id)
        self.store.delete_game(game_id)

    def loaded(self) -> list[GameSession]:
        """The sessions in memory."""
        with self._lock:
            return list(self._sessions.values())

    def on_close(self, closer: Callable[[], None]) -> None:
        """Call ``closer`` when the games close (the core stops): e.g. the hosting listener."""
        with self._lock:
            self._closers.append(closer)

    def close(self) -> None:
        """Stop every AI runner and game worker (an action being applied is finished and
        saved; queued ones are dropped), then whatever ``on_close`` was given: after this
        nothing of the games writes the database."""
        with self._lock:
            runners = list(self._runners.values())
            executors = list(self._executors.values())
            closers, self._closers = self._closers, []
            self._executors.clear()
        for runner in runners:
            runner.stop()
        for executor in executors:
            executor.shutdown(wait=True, cancel_futures=True)
        for closer in closers:
            closer()
