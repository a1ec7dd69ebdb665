"""The seat hub: every attached connection of a game, and what each seat may see.

Each seat receives its own ``player_view`` and the new log entries it may see
(``westeros.engine.view.visible``, the same filter as the view), in order. A ``view`` message
is ``{"type": "view", "house", "state_id", "view", "log", "history"}``: ``log`` holds events,
each an event's data (``kind`` and fields) plus ``text``, its plain-language line in the seat's
language; ``history`` is true on the first message of a connection, whose ``log`` is the
seat's whole log so far.

The hub also remembers, per house, the serial at which that house's view last changed: the
session's staleness check (an action is stale when the sender's own view has changed since
the ``state_id`` it acted on; a change of ``waiting_for`` or ``committed`` alone does not
count)."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from westeros.engine import State
from westeros.engine.state import Event
from westeros.engine.view import event_view, player_views, visible

log = logging.getLogger("westeros.session")

Narrator = Callable[[Mapping[str, Any]], str]
Deliver = Callable[[dict[str, Any]], None]


def plain_narrator(event: Mapping[str, Any]) -> str:
    """A log line without translation: the event kind and its data (fallback for tests)."""
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
    return f"{event['kind']}: {rest}" if rest else str(event["kind"])


def _without_waiting(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("waiting_for", "committed")}


@dataclasses.dataclass(slots=True, eq=False)
class _Listener:
    house: str
    deliver: Deliver
    narrate: Narrator


class SeatHub:
    """The seats' views and connections of one game. Listeners are called under the
    session's ``lock``, in order, and must not block."""

    def __init__(self, state: State, lock: threading.RLock) -> None:
        self._lock = lock
        self._serial = state.serial
        self._listeners: list[_Listener] = []
        self._views = self._all_views(state)
        self._changed_at = dict.fromkeys(state.houses, state.serial)

    def _all_views(self, state: State) -> dict[str, dict[str, Any]]:
        """Every seat's ``player_view`` of ``state``, their shared part computed once."""
        views = player_views(state, state.houses)
        return {h: v for h, v in views.items() if h is not None}

    def view(self, house: str) -> dict[str, Any]:
        """The current view of ``house``."""
        return self._views[house]

    def changed_at(self, house: str) -> int:
        """The serial at which the view of ``house`` last changed (not counting
        ``waiting_for``)."""
        return self._changed_at[house]

    def view_message(
        self,
        house: str,
        events: Sequence[Event],
        narrate: Narrator,
        *,
        history: bool = False,
    ) -> dict[str, Any]:
        """The ``view`` message of ``house`` with the log entries of ``events``."""
        entries = []
        for event in events:
            data = event_view(event)
            entries.append({**data, "text": narrate(data)})
        return {
            "type": "view",
            "house": house,
            "state_id": self._serial,
            "view": self._views[house],
            "log": entries,
            "history": history,
        }

    def attach(
        self, house: str, deliver: Deliver, narrate: Narrator, opening: Sequence[dict[str, Any]]
    ) -> Callable[[], None]:
        """Deliver ``opening`` to a new connection of ``house``, then every later update of
        that seat. Returns the function that detaches it."""
        listener = _Listener(house, deliver, narrate)
        with self._lock:
            for message in opening:
                deliver(message)
            self._listeners.append(listener)

        def detach() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return detach

    def update(self, new: State, events: Sequence[Event], over: dict[str, Any] | None) -> None:
        """After an accepted action: refresh every seat's view and send each connection its
        view, the new events it may see and ``over`` (the game has just ended), if any."""
        self._serial = new.serial
        for house, view in self._all_views(new).items():
            if _without_waiting(view) != _without_waiting(self._views[house]):
                self._changed_at[house] = new.serial
            self._views[house] = view
        for listener in list(self._listeners):
            house = listener.house
            seen = [e for e in events if visible(e, house)]
            try:
                listener.deliver(self.view_message(house, seen, listener.narrate))
                if over is not None:
                    listener.deliver(over)
            except Exception:
                log.exception("could not deliver an update to %s", house)
