"""``GameSession``: one running game: its true state, its seats and its log history, behind
one lock. It ties the checks together in their fixed order (``messages`` → ``seats`` →
``applier``) and hands every accepted action to the ``hub`` (package docstring).

A plugin's rule that raises (``PluginFault``) pauses the game (issue 35 finding 3): nothing
of the failed action is stored, every seat is told which plugin failed (a ``paused``
message), every later action is refused with ``plugin-fault``, the AI seats stop, and the fault
is recorded for ``westeros plugins``. The game goes on from its last good action once it is
reopened with the plugin fixed (``resume``); without the plugin it does not load at all
(``MissingPlugins``: its rules are part of the game's record)."""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from westeros.engine import Action, IllegalAction, Ruleset, State, pending, result
from westeros.engine.errors import MalformedAction, NotPending
from westeros.engine.flow import answering_house, random_action
from westeros.engine.state import Event
from westeros.engine.view import visible
from westeros.plugin_faults import PluginFault, clear_fault, record_fault, runtime_faults
from westeros.store import (
    AI,
    HUMAN,
    CorruptGame,
    GameInfo,
    GameSetup,
    GameStore,
    SeatSpec,
    StoreError,
    Timeline,
)

from .applier import Accepted, apply_and_save, apply_recorded, check_pending
from .errors import (
    AiUnavailable,
    GamePaused,
    InternalError,
    MalformedMessage,
    NotSaved,
    SessionError,
    StaleState,
    WrongSeat,
    error_reply,
)
from .hub import Deliver, Narrator, SeatHub, plain_narrator
from .memory import planning_rounds
from .messages import Parsed, parse_message, reply_id
from .seats import AiFactory, Human, Player, Recalling, check_seat

log = logging.getLogger("westeros.session")

DEFAULT_AI_BUDGET = 1.0

HintMaker = Callable[[State, str, Action], dict[str, Any]]
History = Sequence[tuple[int, Event]]


def _default_hint(state: State, house: str, action: Action) -> dict[str, Any]:
    raise MalformedMessage("combat hints are not available here", "hint/unavailable")


@dataclasses.dataclass(frozen=True, slots=True)
class Pause:
    """Why a game is paused: ``plugin``'s ``hook`` raised an exception of class ``kind`` on
    the way from state ``serial`` (issue 35 finding 3)."""

    plugin: str
    hook: str
    kind: str
    serial: int

    def message(self) -> dict[str, Any]:
        """The ``paused`` message every seat receives (the plugin's own error text stays in
        the log: it may quote what a seat may not see)."""
        return {
            "type": "paused",
            "cause": "plugin-fault",
            "plugin": self.plugin,
            "hook": self.hook,
            "error": self.kind,
            "state_id": self.serial,
        }

    def refusal(self) -> GamePaused:
        """The error an action of the paused game is answered with."""
        return GamePaused(
            f"The game is paused: plugin {self.plugin!r} failed in {self.hook} ({self.kind}). "
            "Update the plugin, restart Westeros and continue this game from its last good "
            "action (without the plugin this game cannot be loaded)."
        )


# ---------------------------------------------------------------------------------- session


class GameSession:
    """One running game: its state, seats, log history and attached seat connections.

    Thread-safe: every change happens under one lock (AI seats decide in worker threads,
    clients arrive from the event loop). Listeners are called under that lock, in order, and
    must not block (the server's hub hands the message to the connection's event loop).

    ``history`` is the log so far as (state serial, event) pairs, or a function that makes it
    (a resumed game re-runs its log for it only when a seat first attaches)."""

    def __init__(
        self,
        store: GameStore,
        info: GameInfo,
        state: State,
        players: Mapping[str, Player],
        history: History | Callable[[], History] = (),
        *,
        hint: HintMaker = _default_hint,
        ai_budget: float = DEFAULT_AI_BUDGET,
    ) -> None:
        seated = state.setup.seated_houses()
        missing = sorted(set(seated) - set(players))
        if missing:
            raise ValueError(f"no player for {', '.join(missing)}")
        self.store = store
        self.info = info
        self.game_id = info.id
        self.players: dict[str, Player] = {h: players[h] for h in seated}
        self.hint_maker = hint
        self.ai_budget = ai_budget
        self._state = state
        self._earlier: Callable[[], History] | None = None
        if callable(history):
            self._earlier, history = history, ()
        self._history: list[tuple[int, Event]] = list(history)
        self._lock = threading.RLock()
        self._observers: list[Callable[[Accepted], None]] = []
        self.hub = SeatHub(state, self._lock)
        self._rnd = random.Random()
        self._recalled: dict[str, Recalling] = {}
        self._memory_lock = threading.Lock()
        self.resumed_from = 0  # the snapshot a resumed game was rebuilt from (0: first state)
        self.paused: Pause | None = None
        self._connections: list[Deliver] = []
        self._faulted_before = any(f.game == self.game_id for f in runtime_faults())

    # ------------------------------------------------------------------ construction
    @classmethod
    def create(
        cls,
        store: GameStore,
        rules: Ruleset,
        players: int,
        seats: Mapping[str, Player],
        seed: int | str,
        options: Mapping[str, Any] | None = None,
        *,
        name: str = "",
        hint: HintMaker = _default_hint,
        ai_budget: float = DEFAULT_AI_BUDGET,
        specs: Mapping[str, SeatSpec] | None = None,
    ) -> GameSession:
        """Store a new game (the Ruleset's plugins, ``options`` and ``seed``) and start its
        session. ``seats`` maps every house of a ``players``-player game to a player; a seat
        is recorded as ``specs`` gives it (what its AI was made from: level, personality),
        else from its player."""
        given = dict(specs or {})
        recorded = tuple(
            given.get(house)
            or SeatSpec(
                house,
                HUMAN if isinstance(p, Human) else AI,
                p.name if isinstance(p, Human) else getattr(p, "name", type(p).__name__),
            )
            for house, p in seats.items()
        )
        setup = GameSetup(players, recorded, seed, rules.plugins, dict(options or {}), name)
        game = store.create_game(setup)
        opening = [(0, e) for e in game.state.events]  # round 1 begins (setup's own events)
        return cls(store, game.info, game.state, seats, opening, hint=hint, ai_budget=ai_budget)

    @classmethod
    def resume(
        cls,
        store: GameStore,
        game_id: str,
        ai_factory: AiFactory,
        *,
        humans: Mapping[str, Human] | None = None,
        hint: HintMaker = _default_hint,
        ai_budget: float = DEFAULT_AI_BUDGET,
    ) -> GameSession:
        """Rebuild a stored game ("Continue"): its latest snapshot plus the actions after it,
        every recorded hash checked (``GameStore.load_game``); AI seats get players from
        ``ai_factory``. The log history is re-run from the first state when a seat first
        attaches, and must reach the same state."""
        loaded = store.load_game(game_id)
        info, state = loaded.info, loaded.state
        setup = info.setup
        humans = dict(humans or {})
        players: dict[str, Player] = {}
        for seat in setup.seats:
            if seat.kind == AI:
                players[seat.house] = ai_factory(seat.house, seat)
            else:
                players[seat.house] = humans.get(seat.house, Human(seat.name))

        def earlier() -> History:
            timeline = session.timeline_to(state.serial)
            if timeline.final.hash() != state.hash():
                raise CorruptGame(f"game {game_id!r}: its log does not lead to its snapshot")
            return timeline.history()

        session = cls(store, info, state, players, earlier, hint=hint, ai_budget=ai_budget)
        session.resumed_from = loaded.resumed_from
        return session

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The current state (the true state: never send it to a client)."""
        return self._state

    @property
    def lock(self) -> threading.RLock:
        """The session's lock, held while an action is accepted: its state set, the seats'
        views sent and the observers run. A reader that takes it sees what the observers of
        the last accepted action made of it (the deal table's talks of a new round)."""
        return self._lock

    @property
    def serial(self) -> int:
        """The ``state_id`` of the current state."""
        return self._state.serial

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return self._state.winner is not None

    def seat_of(self, house: str) -> str:
        """The seat that answers for ``house``: its own, or for a house without one (a vassal)
        the seat the plugins name (``answering_house``, RULES.md 11.10.8)."""
        return house if house in self.players else answering_house(self._state, house)

    def is_ai(self, house: str) -> bool:
        """Is ``house`` played (or answered for) by the computer?"""
        return not isinstance(self.players.get(self.seat_of(house)), Human)

    def ai_pending(self) -> list[str]:
        """AI houses that must decide now, sorted (none while the game is paused). An AI seat
        that talks (``talks``: deals, ``westeros.deals.table``) places its orders (4.1) only
        once no person still plans, so that a person can make a deal with it first."""
        with self._lock:
            if self.paused is not None:
                return []
            try:
                waiting = pending(self._state)
            except PluginFault as fault:
                self._pause(fault)
                return []
            planning = any(
                p.kind == "place_orders" and not self.is_ai(h) for h, p in waiting.items()
            )
            return sorted(
                h
                for h, p in waiting.items()
                if self.is_ai(h) and not (planning and p.kind == "place_orders" and self._talks(h))
            )

    def _talks(self, house: str) -> bool:
        """Does the AI seat of ``house`` take part in deals?"""
        return bool(getattr(self.players.get(self.seat_of(house)), "talks", False))

    def game_over_message(self) -> dict[str, Any] | None:
        """The ``game_over`` message once the game has ended (9.1, 9.2), else None."""
        ranking = result(self._state)
        if ranking is None:
            return None
        return {"type": "game_over", "winner": ranking[0], "ranking": ranking}

    def view_message(self, house: str, narrate: Narrator = plain_narrator) -> dict[str, Any]:
        """The ``view`` message a seat receives on connect: its view and its whole log."""
        with self._lock:
            events = [e for _, e in self.history() if visible(e, house)]
            return self.hub.view_message(house, events, narrate, history=True)

    def history(self) -> list[tuple[int, Event]]:
        """The whole log so far: (state serial, event), every event (filter with ``visible``)."""
        with self._lock:
            if self._earlier is not None:
                earlier, self._earlier = self._earlier, None
                try:
                    self._history[:0] = earlier()
                except StoreError:
                    log.exception("the log of game %s could not be rebuilt", self.game_id)
            return list(self._history)

    # ------------------------------------------------------------------ seats
    def attach(
        self, house: str, deliver: Deliver, narrate: Narrator = plain_narrator
    ) -> Callable[[], None]:
        """Attach a connection for ``house``: ``deliver`` at once receives the ``view`` message
        with the seat's whole log (and ``game_over`` if the game has ended), then every later
        update of that seat, in order. Returns the function that detaches it."""
        if house not in self.players:
            raise WrongSeat(f"{house!r} is not a seat of this game", "seat/unknown")
        with self._lock:
            opening = self._opening(self.view_message(house, narrate))
            return self._connected(deliver, self.hub.attach(house, deliver, narrate, opening))

    def _opening(self, first: dict[str, Any]) -> list[dict[str, Any]]:
        """What a new connection receives at once (call under the lock): ``first``, then
        ``game_over`` if the game has ended and ``paused`` while it is paused."""
        opening = [first]
        over = self.game_over_message()
        if over is not None:
            opening.append(over)
        if self.paused is not None:
            opening.append(self.paused.message())
        return opening

    def _connected(self, deliver: Deliver, detach: Callable[[], None]) -> Callable[[], None]:
        """Count ``deliver`` among the connections (call under the lock), and the detacher
        that removes it again."""
        self._connections.append(deliver)

        def detached() -> None:
            detach()
            with self._lock:
                if deliver in self._connections:
                    self._connections.remove(deliver)

        return detached

    def observe(self, observer: Callable[[Accepted], None]) -> None:
        """Call ``observer`` after each accepted action (server side only)."""
        with self._lock:
            self._observers.append(observer)

    # ------------------------------------------------------------------ client messages
    def handle(self, house: str, message: Any, credential: str | None = None) -> dict[str, Any]:
        """Validate and carry out one client message from the connection of ``house``.

        Returns the reply for that client only: ``error``, ``hint``, ``pong``, or ``accepted``
        once an action was taken (after the broadcast ``view`` that tells every seat), so the
        client knows its action is in even when the next question looks the same."""
        try:
            parsed = parse_message(message, self.state.rules.action_kinds)
        except (SessionError, MalformedAction) as exc:
            return error_reply(exc, reply_id(message))
        try:
            return self._handle(house, parsed, credential)
        except (SessionError, IllegalAction) as exc:
            return error_reply(exc, parsed.id)

    def _handle(self, house: str, parsed: Parsed, credential: str | None) -> dict[str, Any]:
        if parsed.type == "ping":
            return {"type": "pong", "state_id": self.serial, "in_reply_to": parsed.id}
        acting = self._acting_house(house, parsed.house)
        check_seat(self.players, house, None if acting != house else parsed.house, credential)
        assert parsed.action is not None
        if parsed.type == "hint":
            with self._lock:
                state = self._state
                check_pending(state, acting)
                try:
                    hint = self.hint_maker(state, acting, parsed.action)
                except (SessionError, IllegalAction):
                    raise
                except PluginFault as fault:
                    raise self._pause(fault).refusal() from fault
                except Exception as exc:
                    log.exception("hint failed for %s: %s", acting, parsed.action)
                    raise InternalError("no hint for this draft (the hint failed)") from exc
                return {
                    "type": "hint",
                    "state_id": state.serial,
                    "hint": hint,
                    "in_reply_to": parsed.id,
                }
        assert parsed.state_id is not None
        accepted = self.submit(acting, parsed.action, parsed.state_id)
        return {"type": "accepted", "state_id": accepted.state.serial, "in_reply_to": parsed.id}

    def _acting_house(self, house: str, named: str | None) -> str:
        """The house a message of seat ``house`` acts for: ``named`` when it is a house
        without a seat that ``house`` answers for (a commanded vassal, RULES.md 11.10.8),
        else ``house`` (``check_seat`` then refuses any other name)."""
        if named is None or named in self.players or named not in self._state.houses:
            return house
        with self._lock:
            return named if self.seat_of(named) == house else house

    # ------------------------------------------------------------------ applying
    def submit(self, house: str, action: Action, state_id: int) -> Accepted:
        """Steps 3-5 and the commit: ``house`` (whose seat is already checked) decides
        ``action`` on the view with ``state_id``. Raises NotPending, an IllegalAction subclass,
        StaleState, NotSaved, InternalError or GamePaused (now or before, a plugin's rule
        failed: ``_pause``), leaving everything unchanged."""
        with self._lock:
            if self.paused is not None:
                raise self.paused.refusal()
            try:
                accepted = apply_and_save(
                    self.store,
                    self.game_id,
                    self._state,
                    house,
                    action,
                    state_id,
                    self.hub.changed_at(house),
                )
                self._accept(accepted)
            except PluginFault as fault:
                raise self._pause(fault).refusal() from fault
            return accepted

    def apply_stored(self, seq: int, house: str, action: Action, digest: str) -> Accepted:
        """Apply action ``seq`` that another process of this game already stored (no second
        save), checked against the state hash its log recorded (``digest``), then tell the
        seats and observers as ``submit`` does. CorruptGame when it does not fit, and then
        nothing changes."""
        with self._lock:
            try:
                accepted = apply_recorded(self.game_id, self._state, seq, house, action, digest)
                self._accept(accepted)
            except PluginFault as fault:
                raise self._pause(fault).refusal() from fault
            return accepted

    def pause(self, fault: PluginFault) -> Pause:
        """Pause the game for ``fault`` met outside this session's own calls (the online seat
        runner asking who must decide, or another worker's replica: issue 35 finding 3), as
        ``_pause`` does; the pause already in force if there is one."""
        return self._pause(fault)

    def _pause(self, fault: PluginFault) -> Pause:
        """Pause the game for ``fault`` (once): log it, record it for ``westeros plugins`` and
        tell every attached seat."""
        with self._lock:
            if self.paused is not None:
                return self.paused
            self.paused = Pause(fault.plugin, fault.hook, fault.kind, self.serial)
            log.error(
                "game %s paused at state %s: %s",
                self.game_id,
                self.serial,
                fault,
                exc_info=fault.__cause__ or fault,
            )
            version = dict(self._state.rules.plugins).get(fault.plugin, "")
            record_fault(fault, version, self.game_id)
            message = self.paused.message()
            for deliver in list(self._connections):
                try:
                    deliver(message)
                except Exception:
                    log.exception("could not tell a seat of game %s it is paused", self.game_id)
            return self.paused

    def _remind(self, seat: str, player: Recalling, state: State) -> None:
        """Show an AI that remembers what its seat saw at the earlier Plannings and reveals
        (``memory``), once per player: before its first decision in this session (a resumed
        game, a seat taken over). If the log cannot be re-run, that is logged and the AI plays
        on without it."""
        with self._memory_lock:
            if self._recalled.get(seat) is player:
                return
            self._recalled[seat] = player
        try:
            past = planning_rounds(self.timeline_to(state.serial), seat)
        except StoreError:
            log.exception("the log of game %s could not be re-run for %s", self.game_id, seat)
            return
        try:
            player.recall(past, state.rules)
        except Exception:
            log.exception("the AI of %s could not read game %s's past", seat, self.game_id)

    def timeline_to(self, serial: int) -> Timeline:
        """The game re-run from its stored log up to state ``serial``, every recorded hash
        checked (``CorruptGame`` otherwise)."""
        stored, entries = self.store.game_log(self.game_id)
        return Timeline(self.store.first_state(stored), entries[:serial])

    def _accept(self, accepted: Accepted) -> None:
        """Make the committed ``accepted`` the current state; broadcast it (under the lock).
        The first action of a game that a plugin fault once paused clears that record."""
        if self._faulted_before:
            self._faulted_before = False
            clear_fault(self.game_id)
        old, new = self._state, accepted.state
        self._state = new
        self._history.extend((new.serial, e) for e in accepted.events)
        over = self.game_over_message() if old.winner is None else None
        self.hub.update(new, accepted.events, over)
        for observer in list(self._observers):
            try:
                observer(accepted)
            except Exception:
                log.exception("observer failed after action %s", new.serial)

    # ------------------------------------------------------------------ AI seats
    def play_ai(self, house: str) -> Accepted | None:
        """Let the AI of ``house`` decide on its own view and submit the decision through the
        same checks as a client's. An AI that fails or answers illegally is replaced, for this
        decision, by a random legal action (logged), so a game never stalls. Returns None when
        the house is not pending any more, the game moved on meanwhile (stale) or it is paused:
        a plugin's rule failed, in the AI's search or in the engine (``_pause``), and then
        nothing is retried; and when the AI could not decide at all (``AiUnavailable``: its
        processes are stopping or one died), and then nothing is played."""
        try:
            return self._play_ai(house)
        except PluginFault as fault:
            self._pause(fault)
            return None
        except GamePaused:
            return None
        except AiUnavailable as exc:
            log.warning("AI for %s could not decide now (%s); it is asked again later", house, exc)
            return None

    def _play_ai(self, house: str) -> Accepted | None:
        player = self.players.get(self.seat_of(house))
        if player is None or isinstance(player, Human):
            raise WrongSeat(f"{house} is not played by the computer")
        with self._lock:
            state = self._state
            if self.paused is not None or house not in pending(state):
                return None
            view = self.hub.view(house)
        if isinstance(player, Recalling) and player.remembers:
            self._remind(self.seat_of(house), player, state)
        try:
            action = player.decide(view, state.rules, self.ai_budget)
            if not isinstance(action, Action):
                raise TypeError(f"the AI returned {type(action).__name__}, not an Action")
            return self.submit(house, action, state.serial)
        except (StaleState, NotPending):
            return None
        except (PluginFault, GamePaused, NotSaved, AiUnavailable):
            raise  # asked again later, never a random move instead
        except (IllegalAction, TypeError, InternalError) as exc:
            log.error("AI for %s failed (%s); playing a random legal action instead", house, exc)
        except Exception:
            log.exception("AI for %s failed; playing a random legal action instead", house)
        with self._lock:
            state = self._state
            if house not in pending(state):
                return None
            fallback = random_action(state, house, self._rnd)
            return self.submit(house, fallback, state.serial)
