"""A game session on one worker of an online server: the local ``GameSession`` (validate →
apply → save → broadcast, DESIGN §4) plus what several workers need.

- ``submit`` runs under the game's writer lock (``bus.lock``): the replica first catches up
  with actions other workers stored, then applies, stores and publishes the new action, so
  exactly one writer appends a game's actions at a time and the log has no gaps.
- a person's action is taken only if, read from the store under that lock, their player
  still holds the seat their socket speaks for (``share``'s ``holder``): a seat changed on
  another worker, whose bus ``seat`` message has not reached this one yet, is refused
  ``online/not-your-seat`` (issue 35 finding 5; seat changes hold the same lock).
- ``follow`` applies an action another worker published (or, after a gap, every stored
  action this replica has not seen) with ``GameSession.apply_stored``, checking each against
  the state hash the log recorded, and broadcasts to this worker's seats as if it had been
  accepted here.
- spectators attach with ``watch`` and receive ``player_view(state, None)`` and the events
  every house may see (RULES.md 0.4.4: never a secret).

Faults (docs/online.md, "Faults the server survives"): a database or Redis failure while
storing an action is ``NotSaved`` (nothing happened; the sender may send it again), never an
exception that drops the socket; an AI decision that meets one is stored once they answer
again (tried with backoff), never replaced by a random move; after the bus lost Redis the
replica catches up from the store."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from westeros.engine import Action, State
from westeros.engine.state import Event
from westeros.engine.view import event_view, player_views, visible
from westeros.session import (
    Accepted,
    GameSession,
    NotSaved,
    StaleState,
    WrongSeat,
    plain_narrator,
)
from westeros.session.hub import Narrator, SeatHub
from westeros.session.messages import Parsed
from westeros.store.models import ActionRecord

from .bus import Bus, BusError
from .errors import NotYourSeat

log = logging.getLogger("westeros.online.session")

Deliver = Callable[[dict[str, Any]], None]
Holder = Callable[[str], str | None]
"""Who holds a house's seat now, read from the store (a player id; None: the AI)."""
STORE_RETRY_FIRST = 0.05
STORE_RETRY_MAX = 2.0
"""Seconds between two attempts to store an AI decision: doubled each time, up to this."""
STORE_RETRY_FOR = 30.0
"""Seconds an AI decision is tried before its seat runner is told (it asks again later)."""


class _AiTurn(threading.local):
    """What the thread that runs an AI decision knows about it (``OnlineSession.play_ai``)."""

    active = False
    failed = False


_ai_turn = _AiTurn()


class _Speaker(threading.local):
    """The socket whose message the current thread handles: the seat it speaks for and its
    player's credential (``OnlineSession._handle``); None outside a client message."""

    seat: str | None = None
    credential: str | None = None


_speaker = _Speaker()


@contextmanager
def _unsaved(what: str) -> Iterator[None]:
    """A database or Redis failure inside becomes ``NotSaved`` (the action did not happen and
    may be sent again), not an exception that drops the sender's socket."""
    try:
        yield
    except SQLAlchemyError as exc:
        log.warning("%s: the database failed (%s)", what, type(exc).__name__)
        raise NotSaved(f"{what}: the database did not answer; send it again") from exc
    except BusError as exc:
        raise NotSaved(f"{what}: {exc}") from exc


class WatchedHub(SeatHub):
    """The seat hub plus spectators, who get ``player_view(state, None)`` and the events
    every house may see."""

    _public: dict[str, Any]

    def __init__(self, state: State, lock: Any) -> None:
        self._spectators: list[tuple[Deliver, Narrator]] = []
        super().__init__(state, lock)

    def _all_views(self, state: State) -> dict[str, dict[str, Any]]:
        """Every seat's view, and the spectators' (kept), their shared part computed once."""
        views = player_views(state, (*state.houses, None))
        self._public = views.pop(None)
        return {h: v for h, v in views.items() if h is not None}

    def spectator_message(
        self, events: Sequence[Event], narrate: Narrator, *, history: bool = False
    ) -> dict[str, Any]:
        """The ``view`` message of a spectator (``house`` None)."""
        return {
            "type": "view",
            "house": None,
            "state_id": self._serial,
            "view": self._public,
            "log": [{**event_view(e), "text": narrate(event_view(e))} for e in events],
            "history": history,
        }

    def watch(
        self, deliver: Deliver, narrate: Narrator, opening: Sequence[dict[str, Any]]
    ) -> Callable[[], None]:
        """Deliver ``opening`` to a new spectator, then every later public update."""
        entry = (deliver, narrate)
        with self._lock:
            for message in opening:
                deliver(message)
            self._spectators.append(entry)

        def detach() -> None:
            with self._lock:
                if entry in self._spectators:
                    self._spectators.remove(entry)

        return detach

    def update(self, new: State, events: Sequence[Event], over: dict[str, Any] | None) -> None:
        """Every seat's update (``SeatHub.update``), then every spectator's."""
        super().update(new, events, over)
        public = [e for e in events if visible(e, None)]
        for deliver, narrate in list(self._spectators):
            try:
                deliver(self.spectator_message(public, narrate))
                if over is not None:
                    deliver(over)
            except Exception:
                log.exception("could not deliver an update to a spectator")


def _message(seq: int, house: str, action: dict[str, Any], digest: str) -> dict[str, Any]:
    """The bus message of stored action ``seq``."""
    return {"kind": "action", "seq": seq, "house": house, "action": action, "hash": digest}


class OnlineSession(GameSession):
    """A ``GameSession`` shared by the workers of one server through ``bus``."""

    bus: Bus
    hub: WatchedHub
    _last_message: dict[str, Any]
    _holder: Holder | None = None

    def share(self, bus: Bus, holder: Holder | None = None) -> None:
        """Coordinate this replica with the other workers through ``bus``; spectators may
        watch from now on. ``holder`` (the online store's, for this game's lobby) is asked
        under the writer lock before a person's action is taken."""
        self.bus = bus
        self._holder = holder
        with self._lock:
            self.hub = WatchedHub(self.state, self._lock)
        bus.on_reconnect(self.reconnected)

    def reconnected(self) -> None:
        """The bus lost Redis and is back: read what other workers stored meanwhile."""
        try:
            applied = self.catch_up()
        except SQLAlchemyError as exc:
            log.warning(
                "game %s could not catch up after the bus came back (%s)", self.game_id, exc
            )
            return
        if applied:
            log.info(
                "game %s caught up %d action(s) after the bus came back", self.game_id, applied
            )

    # ------------------------------------------------------------------ writing
    def _handle(self, house: str, parsed: Parsed, credential: str | None) -> dict[str, Any]:
        """``GameSession._handle``, remembering (for ``_submit``) which seat and credential
        the message came with."""
        _speaker.seat, _speaker.credential = house, credential
        try:
            return super()._handle(house, parsed, credential)
        finally:
            _speaker.seat = _speaker.credential = None

    def _check_holder(self) -> None:
        """Under the writer lock: the socket whose message this is still speaks for its
        seat's holder as stored now (WrongSeat ``online/not-your-seat`` otherwise)."""
        seat, credential = _speaker.seat, _speaker.credential
        if self._holder is None or seat is None or credential is None:
            return
        if self._holder(seat) != credential:
            raise WrongSeat(f"{seat} is no longer your seat", NotYourSeat.code)

    def submit(self, house: str, action: Action, state_id: int) -> Accepted:
        """``GameSession.submit`` under the game's writer lock, after catching up with what
        other workers stored (read from the store only when the bus says there is some, or
        does not know); the accepted action is published to the other workers, with its
        serial, as the lock is released. A database or Redis failure is ``NotSaved``; in an
        AI decision (``play_ai``) it is tried again with backoff first."""
        if not _ai_turn.active:
            return self._submit(house, action, state_id)
        if _ai_turn.failed:  # the fallback GameSession.play_ai would store instead
            raise NotSaved(f"the AI decision of {house} waits for the database, not replaced")
        delay, deadline = STORE_RETRY_FIRST, time.monotonic() + STORE_RETRY_FOR
        attempts = 0
        while True:
            try:
                accepted = self._submit(house, action, state_id)
            except NotSaved as exc:
                attempts += 1
                if attempts == 1:
                    log.warning(
                        "game %s: the AI decision of %s waits: %s", self.game_id, house, exc
                    )
                if time.monotonic() + delay > deadline:
                    _ai_turn.failed = True
                    raise
                time.sleep(delay)
                delay = min(delay * 2, STORE_RETRY_MAX)
                continue
            if attempts:
                log.warning(
                    "game %s: the AI decision of %s stored after %d attempt(s)",
                    self.game_id,
                    house,
                    attempts + 1,
                )
            return accepted

    def _submit(self, house: str, action: Action, state_id: int) -> Accepted:
        with _unsaved(f"the action of {house}"), self.bus.lock(self.game_id) as writing:
            self._check_holder()
            if writing.seq is None or writing.seq > self.serial:
                self.catch_up()
            try:
                accepted = super().submit(house, action, state_id)
            except (SQLAlchemyError, NotSaved) as exc:
                # perhaps stored after all (the link broke after the commit), or by a worker
                # that died before telling the bus
                if self.catch_up():
                    writing.publish(self._last_message, self.serial)
                    raise StaleState(
                        f"the game has changed since state {state_id}; decide again on "
                        f"state {self.serial}"
                    ) from None
                if isinstance(exc, NotSaved):
                    raise
                raise NotSaved(
                    f"the action of {house} could not be saved ({type(exc).__name__}); "
                    "send it again"
                ) from exc
            writing.publish(
                _message(accepted.serial, house, action.to_json(), accepted.digest),
                accepted.serial,
            )
        return accepted

    def play_ai(self, house: str) -> Accepted | None:
        """``GameSession.play_ai``, except that a decision the database or Redis does not
        take is tried again with backoff (``submit``) and then left for the seat runner to
        ask again: never replaced by a random legal move (issue 35, finding 9)."""
        _ai_turn.active, _ai_turn.failed = True, False
        try:
            return super().play_ai(house)
        finally:
            _ai_turn.active = _ai_turn.failed = False

    # ------------------------------------------------------------------ following
    def follow(self, seq: int, house: str, action: dict[str, Any], digest: str) -> None:
        """Apply action ``seq`` that another worker accepted (its recorded state hash is
        ``digest``); a gap is filled from the store first."""
        with self._lock:
            if seq <= self.serial:
                return
            if seq > self.serial + 1:
                self.catch_up()
                if seq <= self.serial:
                    return
            self.apply_stored(seq, house, self.read_action(action), digest)

    def read_action(self, data: dict[str, Any]) -> Action:
        """A stored action, read with this game's action kinds (plugin kinds included)."""
        return Action.from_json(data, self.state.rules.action_kinds)

    def catch_up(self) -> int:
        """Apply every stored action after this replica's state; returns how many."""
        with Session(self.store.engine) as db:  # read without holding up this replica
            rows = db.exec(
                select(ActionRecord)
                .where(ActionRecord.game_id == self.game_id, col(ActionRecord.seq) > self.serial)
                .order_by(col(ActionRecord.seq))
            ).all()
        applied = 0
        with self._lock:
            for row in rows:
                if row.seq == self.serial + 1:
                    self.apply_stored(
                        row.seq, row.house, self.read_action(row.action), row.state_hash
                    )
                    self._last_message = _message(row.seq, row.house, row.action, row.state_hash)
                    applied += 1
        return applied

    # ------------------------------------------------------------------ spectators
    def watch(self, deliver: Deliver, narrate: Narrator = plain_narrator) -> Callable[[], None]:
        """Attach a spectator: at once the public view and the public log (and
        ``game_over`` if the game has ended, ``paused`` while it is paused), then every
        update, and ``paused`` if it pauses (a seat's connection list). Returns the
        detacher."""
        with self._lock:
            events = [e for _, e in self.history() if visible(e, None)]
            opening = self._opening(self.hub.spectator_message(events, narrate, history=True))
            return self._connected(deliver, self.hub.watch(deliver, narrate, opening))
