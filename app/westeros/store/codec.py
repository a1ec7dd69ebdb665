"""A whole engine state as JSON, for snapshots to resume from (DESIGN §5).

Not a pickle: only plain data is written (None, bool, int, str, tuples, frozensets, dicts in
their insertion order, named tuples and dataclasses by class path), and reading it back creates
only named tuples and dataclasses of modules that are already loaded — it imports nothing and
calls nothing else. The Ruleset is not stored: it is rebuilt from the game's plugins and
handed to ``decode_state``. A decoded state is only trusted when its hash is the one the log
recorded (the store checks); anything this codec cannot read raises ``CodecError`` and the
store falls back to an older snapshot or to the first state.

Tags: ``{"t": [...]}`` tuple, ``{"f": [...]}`` frozenset (sorted), ``{"d": [[k, v], ...]}``
dict, ``{"n": "module:Class", "v": [...]}`` named tuple, ``{"c": "module:Class", "v": {...}}``
dataclass. A JSON object is always a tag, so no plain value can be mistaken for one."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

from westeros.engine import Ruleset, State

SKIPPED = ("rules", "setup", "events", "cache")
FIELDS = tuple(name for name in State.__slots__ if name not in SKIPPED)


class CodecError(ValueError):
    """A value that cannot be written or read as a snapshot state."""


def _path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _sort_key(item: Any) -> str:
    return json.dumps(item, sort_keys=True)


def encode(value: Any) -> Any:
    """``value`` as JSON-ready tagged data (see the module docstring)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        if hasattr(type(value), "_fields"):
            return {"n": _path(type(value)), "v": [encode(v) for v in value]}
        return {"t": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"f": sorted((encode(v) for v in value), key=_sort_key)}
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"c": _path(type(value)), "v": fields}
    raise CodecError(f"cannot store a {type(value).__name__} in a snapshot")


def _class(path: Any) -> type:
    if not isinstance(path, str) or ":" not in path:
        raise CodecError(f"not a class path: {path!r}")
    module_name, qualname = path.split(":", 1)
    module = sys.modules.get(module_name)
    if module is None:
        raise CodecError(f"module {module_name} is not loaded")
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not isinstance(found, type):
        raise CodecError(f"no class {path}")
    return found


def decode(data: Any) -> Any:
    """The value ``encode`` wrote."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise CodecError(f"unexpected value {str(data)[:80]!r}")
    if "t" in data:
        return tuple(decode(v) for v in data["t"])
    if "f" in data:
        return frozenset(decode(v) for v in data["f"])
    if "d" in data:
        return {decode(k): decode(v) for k, v in data["d"]}
    if "n" in data:
        cls = _class(data["n"])
        if not (issubclass(cls, tuple) and hasattr(cls, "_fields")):
            raise CodecError(f"{data['n']} is not a named tuple")
        return cls(*(decode(v) for v in data["v"]))
    if "c" in data:
        cls = _class(data["c"])
        if not dataclasses.is_dataclass(cls):
            raise CodecError(f"{data['c']} is not a dataclass")
        values = {k: decode(v) for k, v in data["v"].items()}
        fields = {f.name: f for f in dataclasses.fields(cls)}
        if set(values) != set(fields):
            raise CodecError(f"{data['c']} has other fields now")
        made = cls(**{k: v for k, v in values.items() if fields[k].init})
        for name, value in values.items():
            if not fields[name].init:
                object.__setattr__(made, name, value)
        return made
    raise CodecError(f"unknown tag in {str(data)[:80]!r}")


def encode_state(state: State) -> dict[str, Any]:
    """Every field of ``state`` but its Ruleset (and the transient events and cache)."""
    return {name: encode(getattr(state, name)) for name in FIELDS}


def decode_state(data: Any, rules: Ruleset) -> State:
    """The state ``encode_state`` wrote, on ``rules`` (the game's Ruleset)."""
    if not isinstance(data, dict) or set(data) != set(FIELDS):
        raise CodecError("the snapshot does not hold a state of this engine version")
    state = State.__new__(State)
    try:
        for name in FIELDS:
            setattr(state, name, decode(data[name]))
        state.rules = rules
        state.setup = rules.setups[len(state.houses)]
    except CodecError:
        raise
    except Exception as exc:
        raise CodecError(f"the snapshot cannot be read ({type(exc).__name__}: {exc})") from exc
    state.events = []
    state.cache = None
    return state
