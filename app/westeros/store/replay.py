"""Rebuilding a game from its setup and log (DESIGN §2, §5): a game is its seed plus its action
log, so loading one replays the log through the engine and checks, after every action, that the
state hash is the one recorded when the action was accepted. ``Timeline`` keeps such a re-run
at hand for replays: any state by its number, the events and round of every step."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from westeros.engine import Action, IllegalAction, Ruleset, State, apply, new_game
from westeros.engine.state import Event

from .errors import CorruptGame, StoreError

CHECKPOINT_EVERY = 32

Rulesets = Callable[[Sequence[tuple[str, str]], Mapping[str, Any]], Ruleset]
"""Builds the Ruleset of a game from its plugins ((name, version) pairs) and options; raises
an engine ``ContentError`` (the plugin manager's MissingPlugins, PluginError) when it cannot.
The store is handed one (``westeros.saves.ruleset_for``); it never loads plugins itself."""


class LogEntry(NamedTuple):
    """One action of a log: its number (from 1), who sent it, the action's JSON and the hash of
    the state it led to."""

    seq: int
    house: str
    action: dict[str, Any]
    state_hash: str


def start(
    rules: Ruleset,
    players: int,
    seed: int | str,
    options: Mapping[str, Any],
    fail: type[StoreError],
) -> State:
    """The game's first state; ``fail`` is raised if the engine refuses the setup."""
    try:
        return new_game(rules, players, seed, dict(options))
    except Exception as exc:
        raise fail(f"the game cannot be set up ({type(exc).__name__}: {exc})") from exc


def replay(
    state: State,
    log: Iterable[LogEntry],
    fail: type[StoreError],
    checkpoints: Mapping[int, str] | None = None,
) -> State:
    """Apply every action of ``log`` to ``state`` (the first state), checking each recorded hash
    and the ``checkpoints`` ({seq: state hash}, seq 0 being the first state).

    Any action that cannot be read, is illegal, makes the engine fail or leads to another state
    than recorded raises ``fail`` naming the action."""
    checks = dict(checkpoints or {})
    if 0 in checks and state.hash() != checks[0]:
        raise fail("the game's first state is not the one recorded (setup or seed differ)")
    for entry in log:
        state, _, _ = step(state, entry, fail)
        if checks.get(entry.seq, entry.state_hash) != entry.state_hash:
            raise fail(
                f"the state after action {entry.seq} ({entry.house}) differs from the snapshot "
                "taken there"
            )
    return state


def step(
    state: State,
    entry: LogEntry,
    fail: type[StoreError],
    digest: Callable[[State], str] = State.hash,
) -> tuple[State, list[Event], Action]:
    """Apply one logged action and check the hash recorded with it (``digest``: the hash
    format of the log)."""
    where = f"action {entry.seq} ({entry.house})"
    try:
        action = Action.from_json(entry.action, state.rules.action_kinds)
        state, events = apply(state, entry.house, action)
    except IllegalAction as exc:
        raise fail(f"{where} is not legal: {exc}") from exc
    except Exception as exc:
        raise fail(f"{where} could not be replayed ({type(exc).__name__}: {exc})") from exc
    if digest(state) != entry.state_hash:
        raise fail(f"{where} does not lead to the state recorded with it")
    return state, events, action


class Timeline:
    """A game re-run through the engine from its first state and log (DESIGN §2), checking
    every recorded hash (``fail`` is raised otherwise). Holds a state every
    ``CHECKPOINT_EVERY`` actions and re-runs from the nearest one on demand, plus the events,
    the house and the round of every step. Step 0 is the first state (its events: the
    setup's); step ``n`` the state after action ``n``."""

    def __init__(
        self,
        first: State,
        entries: Iterable[LogEntry] = (),
        *,
        fail: type[StoreError] = CorruptGame,
    ) -> None:
        self.fail = fail
        self._checkpoints: dict[int, State] = {0: first}
        self._last = first
        self._actions: list[Action | None] = [None]
        self._houses: list[str | None] = [None]
        self._entries: list[LogEntry | None] = [None]
        self._events: list[tuple[Event, ...]] = [tuple(first.events)]
        self._rounds: list[int] = [first.round]
        self._round_starts: list[tuple[int, int]] = [(first.round, 0)]
        self.extend(entries)

    def extend(self, entries: Iterable[LogEntry]) -> None:
        """Re-run the actions that follow the last one (numbered without gaps)."""
        for entry in entries:
            if entry.seq != self.total + 1:
                raise self.fail(f"action {entry.seq} does not follow action {self.total}")
            state, events, action = step(self._last, entry, self.fail)
            self._last = state
            self._actions.append(action)
            self._houses.append(entry.house)
            self._entries.append(entry)
            self._events.append(tuple(events))
            self._rounds.append(state.round)
            if state.round != self._round_starts[-1][0]:
                self._round_starts.append((state.round, entry.seq))
            if entry.seq % CHECKPOINT_EVERY == 0:
                self._checkpoints[entry.seq] = state

    @property
    def total(self) -> int:
        """The number of actions."""
        return len(self._actions) - 1

    @property
    def final(self) -> State:
        """The state after the last action."""
        return self._last

    def state(self, seq: int) -> State:
        """The state after ``seq`` actions (0 ≤ seq ≤ total)."""
        if not 0 <= seq <= self.total:
            raise IndexError(f"no step {seq}: the game has {self.total} actions")
        if seq == self.total:
            return self._last
        base = seq - seq % CHECKPOINT_EVERY
        state = self._checkpoints[base]
        for number in range(base + 1, seq + 1):
            house, action = self._houses[number], self._actions[number]
            assert house is not None and action is not None
            state, _ = apply(state, house, action)
        return state

    def events(self, seq: int) -> tuple[Event, ...]:
        """What happened in step ``seq`` (step 0: the setup's events)."""
        return self._events[seq]

    def entry(self, seq: int) -> LogEntry | None:
        """The logged action of step ``seq`` (None for step 0)."""
        return self._entries[seq]

    def round_of(self, seq: int) -> int:
        """The round the game is in after ``seq`` actions."""
        return self._rounds[seq]

    def round_starts(self) -> list[tuple[int, int]]:
        """(round, first step in that round), in order."""
        return list(self._round_starts)

    def start_of_round(self, number: int) -> int:
        """The first step in round ``number`` (the nearest round that was reached)."""
        rounds = [r for r, _ in self._round_starts]
        index = min(max(bisect.bisect_left(rounds, number), 0), len(rounds) - 1)
        return self._round_starts[index][1]

    def history(self, upto: int | None = None) -> list[tuple[int, Event]]:
        """(step, event) of every step up to ``upto`` (default: all), in order."""
        last = self.total if upto is None else upto
        return [(seq, e) for seq in range(last + 1) for e in self._events[seq]]
