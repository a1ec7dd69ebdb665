"""The one authority in front of the engine (DESIGN §4): validate → apply → save → broadcast.

Local play, AI seats and (later) online play all go through a ``GameSession``. Each incoming
message is checked in a fixed order: message shape → seat and credentials → is this house
pending → is the action legal → stale ``state_id``. An accepted action is appended to the store
and committed *before* anything is broadcast (DESIGN §5); then every attached seat receives its
own ``player_view`` and the new log entries it may see (``westeros.engine.view.visible``, the
same filter as the view). A refused message gets an error reply for its sender only; the state,
the log and every other seat are untouched.

Staleness: ``state_id`` is the state serial (one per accepted action). An action is stale when
the sender's own view has changed since the ``state_id`` it acted on, so one house committing
its secret orders does not invalidate the orders another house is still placing (only
``waiting_for`` changed for it), while any change the house could see does.

Messages (docs/protocol.md): the client sends ``action``, ``hint`` and ``ping``; the session
answers with ``view``, ``game_over``, ``error``, ``hint`` and ``pong``. A ``view`` message is
``{"type": "view", "house", "state_id", "view", "log", "history"}``: ``log`` holds the new
events the seat may see, each an event's data (``kind`` and fields) plus ``text``, its
plain-language line in the seat's language; ``history`` is true on the first message of a
connection, whose ``log`` is the seat's whole log so far."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from westeros.engine import (
    Action,
    IllegalAction,
    Ruleset,
    State,
    apply,
    pending,
    result,
)
from westeros.engine.actions import ActionKinds
from westeros.engine.errors import EngineError, MalformedAction, NotPending
from westeros.engine.flow import random_action
from westeros.engine.state import Event
from westeros.engine.view import event_view, player_view, visible
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

log = logging.getLogger("westeros.session")

MAX_MESSAGE_CHARS = 65_536
MAX_ID_CHARS = 200
MESSAGE_TYPES = ("action", "hint", "ping")
DEFAULT_AI_BUDGET = 1.0

Narrator = Callable[[Mapping[str, Any]], str]
Deliver = Callable[[dict[str, Any]], None]
HintMaker = Callable[[State, str, Action], dict[str, Any]]
History = Sequence[tuple[int, Event]]


# ---------------------------------------------------------------------------------- errors


class SessionError(Exception):
    """A message the session refuses before the engine sees it. ``rule`` is empty: these are
    protocol errors, not rules (the engine's IllegalAction names the RULES.md section)."""

    rule = ""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MalformedMessage(SessionError):
    """Not a JSON object of a known ``type`` with the fields that type needs."""


class WrongSeat(SessionError):
    """The sender may not act for this house (unknown house, another seat, a computer seat or
    wrong credentials)."""


class StaleState(SessionError):
    """The sender acted on a view that has changed since (``state_id`` is out of date)."""


class NotSaved(SessionError):
    """The action was legal but could not be stored, so it did not happen."""


class InternalError(SessionError):
    """The engine failed unexpectedly on this message; the game is unchanged."""


# ---------------------------------------------------------------------------------- seats


@dataclasses.dataclass(frozen=True, slots=True)
class Human:
    """A seat played by a person. ``credential`` is for online play (None locally, where the
    launch token already proves who connects)."""

    name: str = ""
    credential: str | None = None


@runtime_checkable
class AiPlayer(Protocol):
    """A computer player (the protocol of ``westeros.ai.protocol.Player``): it sees only its
    own ``player_view`` (with its prompt) and the public Ruleset, and answers with one Action
    within ``budget`` seconds (DESIGN §2: AIs never see the true state)."""

    name: str

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The decision for the prompt in ``view``."""
        ...


Player = Human | AiPlayer
AiFactory = Callable[[str, SeatSpec], AiPlayer]


def _default_hint(state: State, house: str, action: Action) -> dict[str, Any]:
    raise MalformedMessage("combat hints are not available here")


# ---------------------------------------------------------------------------------- messages


@dataclasses.dataclass(frozen=True, slots=True)
class Accepted:
    """One accepted, committed action and what it led to (for server-side observers: the AI
    runner, tests). Never sent to a client as is: it holds the true state."""

    serial: int
    house: str
    action: Action
    events: tuple[Event, ...]
    state: State


@dataclasses.dataclass(frozen=True, slots=True)
class _Parsed:
    type: str
    id: str | int | None
    action: Action | None
    state_id: int | None
    house: str | None


@dataclasses.dataclass(slots=True, eq=False)
class _Listener:
    house: str
    deliver: Deliver
    narrate: Narrator


def plain_narrator(event: Mapping[str, Any]) -> str:
    """A log line without translation: the event kind and its data (fallback for tests)."""
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
    return f"{event['kind']}: {rest}" if rest else str(event["kind"])


def error_reply(exc: Exception, in_reply_to: str | int | None) -> dict[str, Any]:
    """The ``error`` message for a refused client message (sent to its sender only)."""
    message = getattr(exc, "message", None) or str(exc)
    return {
        "type": "error",
        "message": message,
        "error": type(exc).__name__,
        "rule": getattr(exc, "rule", "") or "",
        "in_reply_to": in_reply_to,
    }


def _load(message: Any) -> Any:
    if isinstance(message, bytes):
        try:
            message = message.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedMessage("a message must be UTF-8 JSON text") from exc
    if isinstance(message, str):
        if len(message) > MAX_MESSAGE_CHARS:
            raise MalformedMessage(f"a message may have at most {MAX_MESSAGE_CHARS} characters")
        try:
            return json.loads(message)
        except ValueError as exc:
            raise MalformedMessage(f"not valid JSON ({exc})") from exc
    return message


def _message_id(data: Mapping[str, Any]) -> str | int | None:
    value = data.get("id")
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS:
        return value
    return None


def parse_message(message: Any, kinds: ActionKinds | None = None) -> _Parsed:
    """Step 1 (message shape): a JSON object with a known ``type`` and that type's fields;
    ``kinds``: the game's action kinds (``Ruleset.action_kinds``; default the engine's)."""
    data = _load(message)
    if not isinstance(data, dict):
        raise MalformedMessage("a message must be a JSON object")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise MalformedMessage(f"unknown message type {kind!r} (expected one of {MESSAGE_TYPES})")
    if "id" in data and data["id"] is not None and _message_id(data) is None:
        raise MalformedMessage(f"'id' must be a number or a text of at most {MAX_ID_CHARS} chars")
    house = data.get("house")
    if house is not None and not isinstance(house, str):
        raise MalformedMessage("'house' must be a text")
    if kind == "ping":
        return _Parsed(kind, _message_id(data), None, None, house)
    if "action" not in data:
        raise MalformedMessage(f"a {kind!r} message needs an 'action'")
    action = Action.from_json(data["action"], kinds)
    state_id = data.get("state_id")
    if kind == "action" and (not isinstance(state_id, int) or isinstance(state_id, bool)):
        raise MalformedMessage("an 'action' message needs the integer 'state_id' of its view")
    return _Parsed(kind, _message_id(data), action, state_id, house)


def _without_waiting(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "waiting_for"}


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
        missing = sorted(set(state.houses) - set(players))
        if missing:
            raise ValueError(f"no player for {', '.join(missing)}")
        self.store = store
        self.info = info
        self.game_id = info.id
        self.players: dict[str, Player] = {h: players[h] for h in state.houses}
        self.hint_maker = hint
        self.ai_budget = ai_budget
        self._state = state
        self._earlier: Callable[[], History] | None = None
        if callable(history):
            self._earlier, history = history, ()
        self._history: list[tuple[int, Event]] = list(history)
        self._lock = threading.RLock()
        self._listeners: list[_Listener] = []
        self._observers: list[Callable[[Accepted], None]] = []
        self._views = {h: player_view(state, h) for h in state.houses}
        self._changed_at = dict.fromkeys(state.houses, state.serial)
        self._rnd = random.Random()
        self.resumed_from = 0  # the snapshot a resumed game was rebuilt from (0: first state)

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
    ) -> GameSession:
        """Store a new game (the Ruleset's plugins, ``options`` and ``seed``) and start its
        session. ``seats`` maps every house of a ``players``-player game to a player."""
        specs = tuple(
            SeatSpec(
                house,
                HUMAN if isinstance(p, Human) else AI,
                p.name if isinstance(p, Human) else getattr(p, "name", type(p).__name__),
            )
            for house, p in seats.items()
        )
        setup = GameSetup(players, specs, seed, rules.plugins, dict(options or {}), name)
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
            stored, entries = store.game_log(game_id)
            timeline = Timeline(store.first_state(stored), entries[: state.serial])
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
    def serial(self) -> int:
        """The ``state_id`` of the current state."""
        return self._state.serial

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return self._state.winner is not None

    def is_ai(self, house: str) -> bool:
        """Is ``house`` played by the computer?"""
        return not isinstance(self.players.get(house), Human)

    def ai_pending(self) -> list[str]:
        """AI houses that must decide now, sorted."""
        with self._lock:
            return sorted(h for h in pending(self._state) if self.is_ai(h))

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
            return self._view_message(house, self._views[house], events, narrate, history=True)

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

    def _view_message(
        self,
        house: str,
        view: dict[str, Any],
        events: Sequence[Event],
        narrate: Narrator,
        *,
        history: bool = False,
    ) -> dict[str, Any]:
        entries = []
        for event in events:
            data = event_view(event)
            entries.append({**data, "text": narrate(data)})
        return {
            "type": "view",
            "house": house,
            "state_id": self._state.serial,
            "view": view,
            "log": entries,
            "history": history,
        }

    # ------------------------------------------------------------------ seats
    def attach(
        self, house: str, deliver: Deliver, narrate: Narrator = plain_narrator
    ) -> Callable[[], None]:
        """Attach a connection for ``house``: ``deliver`` at once receives the ``view`` message
        with the seat's whole log (and ``game_over`` if the game has ended), then every later
        update of that seat, in order. Returns the function that detaches it."""
        if house not in self.players:
            raise WrongSeat(f"{house!r} is not a seat of this game")
        listener = _Listener(house, deliver, narrate)
        with self._lock:
            deliver(self.view_message(house, narrate))
            over = self.game_over_message()
            if over is not None:
                deliver(over)
            self._listeners.append(listener)

        def detach() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return detach

    def observe(self, observer: Callable[[Accepted], None]) -> None:
        """Call ``observer`` after each accepted action (server side only)."""
        with self._lock:
            self._observers.append(observer)

    # ------------------------------------------------------------------ client messages
    def handle(
        self, house: str, message: Any, credential: str | None = None
    ) -> dict[str, Any] | None:
        """Validate and carry out one client message from the connection of ``house``.

        Returns the reply for that client only (``error``, ``hint`` or ``pong``), or None when
        an action was accepted (the broadcast ``view`` then tells every seat)."""
        try:
            parsed = parse_message(message, self.state.rules.action_kinds)
        except (SessionError, MalformedAction) as exc:
            in_reply = None
            try:
                data = _load(message)
                if isinstance(data, dict):
                    in_reply = _message_id(data)
            except SessionError:
                pass
            return error_reply(exc, in_reply)
        try:
            return self._handle(house, parsed, credential)
        except (SessionError, IllegalAction) as exc:
            return error_reply(exc, parsed.id)

    def _check_seat(self, house: str, parsed: _Parsed, credential: str | None) -> None:
        """Step 2: seat and credentials."""
        player = self.players.get(house)
        if player is None:
            raise WrongSeat(f"{house!r} is not a seat of this game")
        if parsed.house is not None and parsed.house != house:
            raise WrongSeat(f"this connection plays {house}, not {parsed.house}")
        if not isinstance(player, Human):
            raise WrongSeat(f"{house} is played by the computer")
        if player.credential is not None and credential != player.credential:
            raise WrongSeat(f"wrong credentials for {house}")

    def _handle(self, house: str, parsed: _Parsed, credential: str | None) -> dict[str, Any] | None:
        if parsed.type == "ping":
            return {"type": "pong", "state_id": self.serial, "in_reply_to": parsed.id}
        self._check_seat(house, parsed, credential)
        assert parsed.action is not None
        if parsed.type == "hint":
            with self._lock:
                state = self._state
                self._check_pending(state, house)
                try:
                    hint = self.hint_maker(state, house, parsed.action)
                except (SessionError, IllegalAction):
                    raise
                except Exception as exc:
                    log.exception("hint failed for %s: %s", house, parsed.action)
                    raise InternalError(f"no hint for this draft ({type(exc).__name__})") from exc
                return {
                    "type": "hint",
                    "state_id": state.serial,
                    "hint": hint,
                    "in_reply_to": parsed.id,
                }
        assert parsed.state_id is not None
        self.submit(house, parsed.action, parsed.state_id)
        return None

    @staticmethod
    def _check_pending(state: State, house: str) -> None:
        """Step 3: is ``house`` asked to decide now?"""
        if state.winner is not None:
            raise NotPending("the game is over")
        if house not in pending(state):
            raise NotPending(f"{house} is not asked to decide anything now")

    # ------------------------------------------------------------------ applying
    def submit(self, house: str, action: Action, state_id: int) -> Accepted:
        """Steps 3-5 and the commit: ``house`` (whose seat is already checked) decides
        ``action`` on the view with ``state_id``. Raises NotPending, an IllegalAction subclass,
        StaleState, NotSaved or InternalError, leaving everything unchanged."""
        with self._lock:
            state = self._state
            self._check_pending(state, house)
            try:
                new, events = apply(state, house, action)
            except IllegalAction:
                raise
            except Exception as exc:
                log.exception("engine failed on %s %s", house, action)
                kind = "engine error" if isinstance(exc, EngineError) else type(exc).__name__
                raise InternalError(f"the action could not be carried out ({kind})") from exc
            if state_id > state.serial or state_id < self._changed_at[house]:
                raise StaleState(
                    f"the game has changed since state {state_id}; "
                    f"decide again on state {state.serial}"
                )
            try:  # the store snapshots a state that starts a round, in the same transaction
                self.store.append_action(self.game_id, new.serial, house, action, new)
            except StoreError as exc:
                log.exception("could not store action %s of game %s", new.serial, self.game_id)
                raise NotSaved(f"the action could not be saved: {exc}") from exc
            accepted = Accepted(new.serial, house, action, tuple(events), new)
            self._state = new
            self._history.extend((new.serial, e) for e in events)
            self._broadcast(state, new, events)
            for observer in list(self._observers):
                try:
                    observer(accepted)
                except Exception:
                    log.exception("observer failed after action %s", new.serial)
            return accepted

    def _broadcast(self, old: State, new: State, events: Sequence[Event]) -> None:
        for house in new.houses:
            view = player_view(new, house)
            if _without_waiting(view) != _without_waiting(self._views[house]):
                self._changed_at[house] = new.serial
            self._views[house] = view
        over = self.game_over_message() if old.winner is None else None
        for listener in list(self._listeners):
            house = listener.house
            seen = [e for e in events if visible(e, house)]
            try:
                listener.deliver(
                    self._view_message(house, self._views[house], seen, listener.narrate)
                )
                if over is not None:
                    listener.deliver(over)
            except Exception:
                log.exception("could not deliver an update to %s", house)

    # ------------------------------------------------------------------ AI seats
    def play_ai(self, house: str) -> Accepted | None:
        """Let the AI of ``house`` decide on its own view and submit the decision through the
        same checks as a client's. An AI that fails or answers illegally is replaced, for this
        decision, by a random legal action (logged), so a game never stalls. Returns None when
        the house is not pending any more or the game moved on meanwhile (stale)."""
        player = self.players.get(house)
        if player is None or isinstance(player, Human):
            raise WrongSeat(f"{house} is not played by the computer")
        with self._lock:
            state = self._state
            if house not in pending(state):
                return None
            view = self._views[house]
        try:
            action = player.decide(view, state.rules, self.ai_budget)
            if not isinstance(action, Action):
                raise TypeError(f"the AI returned {type(action).__name__}, not an Action")
            return self.submit(house, action, state.serial)
        except (StaleState, NotPending):
            return None
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


__all__ = [
    "AI",
    "HUMAN",
    "Accepted",
    "AiFactory",
    "AiPlayer",
    "GameSession",
    "Human",
    "InternalError",
    "MalformedMessage",
    "NotSaved",
    "Player",
    "SessionError",
    "StaleState",
    "WrongSeat",
    "error_reply",
    "parse_message",
    "plain_narrator",
]
