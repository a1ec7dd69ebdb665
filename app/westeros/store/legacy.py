"""Reading saves of format 1, the format before the versioned state encoding.

Their logs record, after every action, the SHA-256 of the ``repr`` of a tuple of the state's
fields (the ``State.canonical`` of that time, kept here word for word). Such a game is
replayed once from its first state, every format-1 hash checked, and then rewritten with the
hashes of ``State.hash`` (``GameStore`` does it the first time it reads the game; import does
it for a file of format version 1). The golden saves under tests/golden/saves/ keep this
working."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from typing import Any

from westeros.engine import State

from .errors import StoreError
from .replay import LogEntry, step

LEGACY_HASH_FORMAT = 1

#: Fields that state-held classes gained after format 1, by class name: format 1's ``repr``
#: did not show them, so they are left out of its hash while they hold their default value
#: (a game of format 1 never set them). Add a class's new field here when it gains one.
ADDED_SINCE_V1: dict[str, frozenset[str]] = {
    "MarchTurn": frozenset({"declined"}),  # 5.5.1: houses that refused to support
}


def canonical_v1(state: State) -> tuple[Any, ...]:
    """The rule-relevant fields in the order format 1 hashed them."""
    return (
        state.seed,
        state.round,
        state.houses,
        sorted(state.tracks.items()),
        sorted(state.units.items()),
        sorted(state.orders.items()),
        sorted(state.power_tokens.items()),
        sorted(state.power.items()),
        sorted(state.garrisons.items()),
        sorted(state.neutral.items()),
        sorted(state.blocked),
        sorted(state.supply.items()),
        sorted(state.hands.items()),
        sorted(state.discards.items()),
        sorted((h, sorted(t)) for h, t in state.placed.items()),
        state.westeros_decks,
        state.revealed,
        state.wildling_deck,
        state.threat,
        sorted(state.wildling_seen),
        sorted(state.restrictions),
        state.blade_used,
        state.raven_used,
        state.stack,
        state.combat,
        state.winner,
        sorted((k, repr(v)) for k, v in state.ext.items()),
        sorted(state.options.items()),
        state.serial,
    )


def repr_v1(value: Any) -> str:
    """``repr(value)`` as format 1 wrote it: the same text, but for the ``ADDED_SINCE_V1``
    fields of dataclasses, left out while they hold their default."""
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        inner = ", ".join(repr_v1(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(repr_v1(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{repr_v1(k)}: {repr_v1(v)}" for k, v in value.items()) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        added = ADDED_SINCE_V1.get(type(value).__name__, frozenset())
        shown = [
            f"{f.name}={repr_v1(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if f.repr and not (f.name in added and getattr(value, f.name) == f.default)
        ]
        return f"{type(value).__qualname__}({', '.join(shown)})"
    return repr(value)


def hash_v1(state: State) -> str:
    """The state hash of format 1."""
    return hashlib.sha256(repr_v1(canonical_v1(state)).encode()).hexdigest()


def upgrade_log(
    first: State,
    log: Iterable[LogEntry],
    fail: type[StoreError],
    keep: Iterable[int] = (),
) -> tuple[State, tuple[LogEntry, ...], dict[int, State]]:
    """Replay a format-1 log from ``first``, checking every format-1 hash; returns the final
    state, the log with ``State.hash`` hashes, and the states after the ``keep`` actions (0:
    the first state), to write as snapshots."""
    wanted = set(keep)
    kept = {0: first} if 0 in wanted else {}
    state = first
    upgraded = []
    for entry in log:
        state, _, _ = step(state, entry, fail, hash_v1)
        upgraded.append(entry._replace(state_hash=state.hash()))
        if entry.seq in wanted:
            kept[entry.seq] = state
    return state, tuple(upgraded), kept
