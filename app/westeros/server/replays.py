"""Replays: step through a stored game action by action or jump by round, re-running the
deterministic engine from its log (``store.Timeline``; every recorded hash is checked).

Who may see what (RULES.md 0.4.4, DESIGN §2):

- **A seat's view** (``viewer`` a house): at every step exactly ``player_view(state, house)``
  (its own prompt at that moment included) and the events of that step that the house may see
  (``visible``), never more than the seat was shown when the step was live. While the game
  runs only the people's seats may be replayed, each from its own view; another house's
  action is named (who acted is public) but its content is not. After the game, any seat.
- **The full view** (``viewer`` None), only once the game is over: ``player_view(state,
  None)`` — the board, tracks, power, every hand and discard pile (house-card hands are public,
  0.4.4) — plus ``secrets``: each commitment still hidden at that step (placed orders, bids,
  chosen house cards: ``commitments``), what every deciding house was asked (``prompts``), the
  order of the Westeros and wildling decks (``decks``), the plugins' hidden state (``ext``,
  e.g. the Tides of Battle deck) and the combat's hidden data (``combat``, e.g. drawn Tides of
  Battle cards); the log holds every event, private ones with the houses they went to
  (``to``), and every action in full.

The chat of an online game comes with each step, as ``transcript.readable`` gives it to the
one who asks (public lines; a raven only to its two houses, also after the game), up to the
step's round. Who asks: on the online server the player whose key holds the seat; on the
app that hosted the game, its host (``own``: the houses the asker plays; a local game's
person plays every human seat)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from westeros.engine import State, pending, player_view
from westeros.engine.flow import Simultaneous
from westeros.engine.view import event_view, visible
from westeros.online.records import ChatLine, LobbyInfo
from westeros.online.store import OnlineStore
from westeros.store import HUMAN, GameInfo, GameStore, Timeline

Narrate = Callable[[Mapping[str, Any]], str]
CACHED_GAMES = 8


class ReplayRefused(Exception):
    """A replay this viewer may not see (now). ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def finished(info: GameInfo) -> bool:
    """Has the game ended (9.1, 9.2)?"""
    return info.winner is not None


def check_viewer(info: GameInfo, viewer: str | None, own: Collection[str] | None = None) -> None:
    """Refuse a replay that would show more than the rules in the module docstring allow
    (``own``: the houses the one who asks plays; None: every human seat)."""
    seats = {s.house: s for s in info.setup.seats}
    if viewer is None:
        if not finished(info):
            raise ReplayRefused("The full replay opens when the game is over.")
        return
    seat = seats.get(viewer)
    if seat is None:
        raise ReplayRefused(f"{viewer!r} does not play in this game.", status=404)
    if not finished(info) and (seat.kind != HUMAN or (own is not None and viewer not in own)):
        raise ReplayRefused(
            "While the game runs, a replay shows only your own house's view.", status=403
        )


def _plain(value: Any) -> Any:
    """JSON-ready: tuples and frozensets become lists, dicts keep their keys."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def secrets(state: State) -> dict[str, Any]:
    """Everything the full view adds to ``player_view(state, None)`` (module docstring)."""
    combat = state.combat
    return {
        "commitments": [
            {"step": type(step).__name__, "house": house, "action": action.to_json()}
            for step in state.stack
            if isinstance(step, Simultaneous)
            for house, action in step.commits
        ],
        "prompts": {
            house: {"kind": p.kind, "actions": list(p.actions), "data": p.data}
            for house, p in sorted(pending(state).items())
        },
        "decks": {
            "westeros": [list(deck) for deck in state.westeros_decks],
            "wildling": list(state.wildling_deck),
        },
        "ext": {k: _plain(v) for k, v in sorted(state.ext.items()) if k.startswith("_")},
        "combat": (
            {k: _plain(v) for k, v in combat.data if k.startswith("_")}
            if combat is not None
            else None
        ),
    }


def step_message(
    info: GameInfo,
    timeline: Timeline,
    seq: int,
    viewer: str | None,
    narrate: Narrate,
    *,
    own: Collection[str] | None = None,
    chat: Sequence[ChatLine] = (),
) -> dict[str, Any]:
    """The ``replay`` message for step ``seq`` as ``viewer`` may see it (checked first, with
    ``own`` as ``check_viewer``); ``chat``: the lines the one who asks may read."""
    check_viewer(info, viewer, own)
    if not 0 <= seq <= timeline.total:
        raise ReplayRefused(f"There is no step {seq}: the game has {timeline.total}.", 404)
    state = timeline.state(seq)
    view = player_view(state, viewer)
    entries = []
    for event in timeline.events(seq):
        if viewer is None or visible(event, viewer):
            data = event_view(event)
            entry = {**data, "text": narrate(data)}
            if viewer is None and event.to is not None:
                entry["to"] = sorted(event.to)
            entries.append(entry)
    logged = timeline.entry(seq)
    actor: dict[str, Any] | None = None
    if logged is not None:
        actor = {"house": logged.house, "action": None}
        if viewer is None or viewer == logged.house:
            actor["action"] = logged.action
    message: dict[str, Any] = {
        "type": "replay",
        "game_id": info.id,
        "house": viewer,
        "full": viewer is None,
        "seq": seq,
        "state_id": seq,
        "total": timeline.total,
        "round": state.round,
        "rounds": [[number, first] for number, first in timeline.round_starts()],
        "over": finished(info),
        "actor": actor,
        "view": view,
        "log": entries,
        "chat": [line.entry() for line in chat if line.round <= state.round],
    }
    if viewer is None:
        message["secrets"] = secrets(state)
    return message


class Replays:
    """Timelines of recently replayed games, re-run from the store's log and extended as a
    running game goes on (a few games are kept)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.online = OnlineStore(store.engine)
        self._timelines: OrderedDict[str, Timeline] = OrderedDict()
        self._lock = threading.Lock()

    def timeline(self, game_id: str) -> tuple[GameInfo, Timeline]:
        """The game's record and its timeline up to the last stored action (GameNotFound,
        CorruptGame, MissingPlugins as the store raises them)."""
        info, entries = self.store.game_log(game_id)
        with self._lock:
            timeline = self._timelines.pop(game_id, None)
            if timeline is None or timeline.total > len(entries):
                timeline = Timeline(self.store.first_state(info))
            timeline.extend(entries[timeline.total :])
            self._timelines[game_id] = timeline
            while len(self._timelines) > CACHED_GAMES:
                self._timelines.popitem(last=False)
        return info, timeline

    def lobby(self, game_id: str) -> LobbyInfo | None:
        """The lobby of an online game (None: a local game)."""
        return self.online.lobby_of_game(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game's timeline (the game was deleted)."""
        with self._lock:
            self._timelines.pop(game_id, None)
