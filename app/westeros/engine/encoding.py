"""The state as versioned, explicit JSON-ready data: the hash and the snapshots (DESIGN §2, §5).

``encode_state`` writes every field of a State but its Ruleset (``rules``, ``setup``) and the
transient ``events`` and ``cache``. Values are written as plain JSON:

- None, booleans, integers and strings as themselves; tuples as arrays;
- dicts with text keys as objects (in their insertion order), other dicts as
  ``{"@map": [[key, value], ...]}``; frozensets as ``{"@set": [sorted values]}``;
- records (steps, actions, combat data, units, orders: frozen dataclasses and named tuples) as
  ``{"@": name, field: value, ...}`` under a registered stable name, never a class path; a
  field at its plain default (None, a number, a text, ``()``) is left out, so adding a field
  with a default changes neither old encodings nor their hashes.

A record's name is ``encoding_name`` when its class sets one, ``action:<kind>`` for an Action,
else the class name, prefixed outside the engine by its package (``base.TyrionCancel``,
``westeros_ports.TakeOver``). A class renamed later keeps its old name with
``encoding_name = "OldName"``; ``encoding_aliases`` lists further names it is read under.
Names are collected from the loaded subclasses of ``Step`` and ``Action`` and from the engine's
own record types, so decoding needs the game's plugins loaded (building its Ruleset does that)
and imports nothing itself.

Beside the fields an encoded state names its setup by player count (``players``): a game with
vassals is played on a larger board than its player count's (RULES.md 11.2.5), so the houses
alone do not tell the setup; with the players' houses chosen, the setup is the one
``setup.setup_for`` the state's options (the choice is an option: nothing more is written).
Encodings written before it lack ``players``; ``decode_state`` then takes the count its caller
knows (the store: the game's own) or the one setup of those houses. The count is not hashed
(the hash predates it, and the saved games record it).

``ENCODING_VERSION`` is the layout version written in every encoded state; reading an older
one goes through ``MIGRATIONS`` (version → function to the next version) first. The hash of a
state is the SHA-256 of its encoding as JSON text (``state_hash``)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any

from . import board
from . import setup as _setups
from . import westeros_phase as _westeros_phase  # noqa: F401 (its steps are imported lazily elsewhere)
from .actions import Action
from .combat.context import Combat, Side
from .content import Ruleset, Setup
from .errors import ContentError
from .flow import Step
from .state import Order, State, Unit

ENCODING_VERSION = 1
SKIPPED = ("rules", "setup", "events", "cache")
FIELDS = tuple(name for name in State.__slots__ if name not in SKIPPED)
RECORD_TYPES: tuple[type, ...] = (Unit, Order, Combat, Side)

# An encoding is a tree (shared records are never cyclic): no cycle check needed.
_HASH_TEXT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
MEMO_SIZE = 20_000
_PLAIN = frozenset({str, int, bool, type(None)})
_MEMO: dict[int, tuple[Any, Any]] = {}
TEXT_MEMO_SIZE = 50_000
"""Texts ``state_hash`` keeps: with 200 games hashed in turn (``benchmarks/state_hash.py``)
0.63 → 0.37 ms per hash, for about 24 MB more at the peak."""
_TEXT_MEMO: dict[int, tuple[Any, str]] = {}
_key_text: Callable[[str], str] = json.encoder.encode_basestring

Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[int, Migration] = {}
"""For each old version, the function turning its ``fields`` into the next version's."""


class EncodingError(ValueError):
    """A value that cannot be written, or data that cannot be read back, as a state."""


_NO_DEFAULT = object()


@dataclasses.dataclass(frozen=True, slots=True)
class _Record:
    name: str
    fields: tuple[str, ...]
    named_tuple: bool
    defaults: tuple[Any, ...]
    """For each field, the plain default it is left out at, else ``_NO_DEFAULT``."""


_BY_TYPE: dict[type, _Record] = {}
_BY_NAME: dict[str, type] = {}


def _package(cls: type) -> str:
    parts = cls.__module__.split(".")
    if parts[:2] == ["westeros", "engine"]:
        return ""
    return parts[1] if parts[0] == "westeros" and len(parts) > 1 else parts[0]


def record_name(cls: type) -> str:
    """The stable name ``cls`` is written under (see the module docstring)."""
    own = cls.__dict__.get("encoding_name")
    if isinstance(own, str) and own:
        return own
    if issubclass(cls, Action) and cls.kind:
        return f"action:{cls.kind}"
    package = _package(cls)
    return f"{package}.{cls.__qualname__}" if package else cls.__qualname__


def _subclasses(root: type) -> list[type]:
    found: list[type] = []
    todo: list[type] = [root]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        found.extend(subs)
        todo.extend(subs)
    return found


def _describe(cls: type) -> _Record:
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        names: tuple[str, ...] = getattr(cls, "_fields")  # noqa: B009 (a named tuple's)
        known: dict[str, Any] = getattr(cls, "_field_defaults", {})
        defaults = tuple(_plain_default(known.get(n, _NO_DEFAULT)) for n in names)
        return _Record(record_name(cls), names, True, defaults)
    if dataclasses.is_dataclass(cls):
        fields = dataclasses.fields(cls)
        defaults = tuple(_plain_default(f.default) if f.init else _NO_DEFAULT for f in fields)
        return _Record(record_name(cls), tuple(f.name for f in fields), False, defaults)
    raise EncodingError(f"cannot store a {cls.__qualname__} in a state")


def _plain_default(value: Any) -> Any:
    """``value`` when a field at it may be left out (a plain immutable default)."""
    if value is None or type(value) in (str, int, bool) or value == ():
        return value
    return _NO_DEFAULT


def _register(cls: type) -> None:
    """Record ``cls`` under its names; a class of the same module and name supersedes the one
    it replaces (a single-file plugin imported again after its file changed)."""
    record = _describe(cls)
    names = (record.name, *getattr(cls, "encoding_aliases", ()))
    path = (cls.__module__, cls.__qualname__)
    for name in names:
        other = _BY_NAME.get(name)
        if (
            other is not None
            and other is not cls
            and (other.__module__, other.__qualname__) != path
        ):
            raise EncodingError(
                f"two record types are written as {name!r}: {other.__module__}."
                f"{other.__qualname__} and {cls.__module__}.{cls.__qualname__} "
                "(give one an encoding_name)"
            )
    for name in names:
        _BY_NAME[name] = cls
    _BY_TYPE[cls] = record


def registered() -> dict[str, type]:
    """Every record type by the names it is read under (refreshed from the loaded classes)."""
    latest: dict[tuple[str, str], type] = {}
    for cls in (*RECORD_TYPES, *_subclasses(Step), *_subclasses(Action)):
        key = (cls.__module__, cls.__qualname__)
        # dataclass(slots=True) replaces the class it decorates; the first one lingers among
        # the base's subclasses until collected: the one holding __slots__ is the real one.
        if key not in latest or "__slots__" in cls.__dict__:
            latest[key] = cls
    for cls in latest.values():
        if cls not in _BY_TYPE and (dataclasses.is_dataclass(cls) or hasattr(cls, "_fields")):
            _register(cls)
    return dict(_BY_NAME)


def _record(cls: type) -> _Record:
    record = _BY_TYPE.get(cls)
    if record is None:
        registered()
        record = _BY_TYPE.get(cls)
        if record is None:
            raise EncodingError(
                f"cannot store a {cls.__module__}.{cls.__qualname__} in a state "
                "(not a step, an action or an engine record)"
            )
    return record


def encode(value: Any) -> Any:
    """``value`` as JSON-ready data (see the module docstring). Tuples, frozensets and records
    are immutable and shared between copies of a state, so the data written for one is kept
    (by identity, holding the value, at most ``MEMO_SIZE``) and shared: treat it as read-only."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        if _text_keys(value):
            return {k: v if type(v) in _PLAIN else encode(v) for k, v in value.items()}
        return {"@map": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is list:
        return [v if type(v) in _PLAIN else encode(v) for v in value]
    return _kept(_MEMO, MEMO_SIZE, value, _encode_immutable)


def _text_keys(value: dict[Any, Any]) -> bool:
    """Whether a map is written as a JSON object (text keys, none starting with ``@``)."""
    return all(type(k) is str and k[:1] != "@" for k in value)


def _kept(
    memo: dict[int, tuple[Any, Any]], size: int, value: Any, make: Callable[[Any], Any]
) -> Any:
    """``make(value)`` for an immutable ``value``, kept in ``memo`` by identity (holding the
    value, so that its id is not reused meanwhile); the memo is emptied at ``size`` entries."""
    kept = memo.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    done = make(value)
    if len(memo) >= size:
        memo.clear()
    memo[id(value)] = (value, done)
    return done


def _encode_immutable(value: Any) -> Any:
    kind = type(value)
    if kind is tuple:
        return [v if type(v) in _PLAIN else encode(v) for v in value]
    if kind is frozenset:
        return {"@set": sorted((encode(v) for v in value), key=_order)}
    return _encode_record(value, kind)


def _encode_record(value: Any, kind: type) -> dict[str, Any]:
    record = _BY_TYPE.get(kind) or _record(kind)
    out: dict[str, Any] = {"@": record.name}
    items = (
        zip(record.fields, value, strict=True)
        if record.named_tuple
        else ((name, getattr(value, name)) for name in record.fields)
    )
    for (name, item), default in zip(items, record.defaults, strict=True):
        if default is _NO_DEFAULT or item != default or type(item) is not type(default):
            out[name] = item if type(item) in _PLAIN else encode(item)
    return out


def _order(item: Any) -> Any:
    return (0, item) if type(item) is str else (1, json.dumps(item, sort_keys=True))


def decode(data: Any) -> Any:
    """The value ``encode`` wrote; EncodingError for anything else."""
    kind = type(data)
    if kind is str or kind is int or kind is bool or data is None:
        return data
    if kind is list:
        return tuple(decode(v) for v in data)
    if kind is not dict:
        raise EncodingError(f"unexpected value {str(data)[:80]!r}")
    if "@" in data:
        return _decode_record(data)
    if "@set" in data and len(data) == 1:
        return frozenset(decode(v) for v in _array(data["@set"]))
    if "@map" in data and len(data) == 1:
        pairs = _array(data["@map"])
        if not all(type(p) is list and len(p) == 2 for p in pairs):
            raise EncodingError("a map holds [key, value] pairs")
        return {decode(k): decode(v) for k, v in pairs}
    if any(k.startswith("@") for k in data):
        raise EncodingError(f"unknown tag in {str(data)[:80]!r}")
    return {k: decode(v) for k, v in data.items()}


def _array(data: Any) -> list[Any]:
    if type(data) is not list:
        raise EncodingError(f"expected an array, not {str(data)[:80]!r}")
    return data


def _decode_record(data: dict[str, Any]) -> Any:
    name = data["@"]
    cls = _BY_NAME.get(name) if isinstance(name, str) else None
    if cls is None and isinstance(name, str):
        cls = registered().get(name)
    if cls is None:
        raise EncodingError(f"no record type {name!r} is loaded (is its plugin installed?)")
    record = _BY_TYPE[cls]
    values = {k: decode(v) for k, v in data.items() if k != "@"}
    unknown = set(values) - set(record.fields)
    if unknown:
        raise EncodingError(f"{name} has no field(s) {', '.join(sorted(unknown))} now")
    if record.named_tuple:
        try:
            return cls(**values)
        except TypeError as exc:
            raise EncodingError(f"{name}: {exc}") from exc
    fields = {f.name: f for f in dataclasses.fields(cls)}
    try:
        made = cls(**{k: v for k, v in values.items() if fields[k].init})
    except TypeError as exc:
        raise EncodingError(f"{name}: {exc}") from exc
    for key, value in values.items():
        if not fields[key].init:
            object.__setattr__(made, key, value)
    return made


def encode_state(state: State) -> dict[str, Any]:
    """``{"encoding": ENCODING_VERSION, "players": n, "fields": {...}}``: every field of
    ``state`` but its Ruleset and the transient events and cache, and the player count of its
    setup (see the module docstring)."""
    return {
        "encoding": ENCODING_VERSION,
        "players": state.setup.player_count,
        "fields": {name: encode(getattr(state, name)) for name in FIELDS},
    }


def decode_state(data: Any, rules: Ruleset, players: int | None = None) -> State:
    """The state ``encode_state`` wrote (any version ``MIGRATIONS`` reads), on ``rules``, the
    game's Ruleset. ``players`` is the game's player count when the caller knows it: it must
    match the one written, and names the setup of an encoding that lacks it (see the module
    docstring). EncodingError says what does not fit."""
    if not isinstance(data, dict) or not {"encoding", "fields"} <= set(data) <= _STATE_KEYS:
        raise EncodingError("the data is not an encoded state")
    version, fields = data["encoding"], data["fields"]
    if type(version) is not int or not 1 <= version <= ENCODING_VERSION:
        raise EncodingError(
            f"state encoding {version!r} is not one this version reads (1 to {ENCODING_VERSION})"
        )
    written = data.get("players")
    if written is not None and (type(written) is not int or players not in (None, written)):
        raise EncodingError(
            f"the encoded state is set up for {written!r} players, the game for {players}"
        )
    while version < ENCODING_VERSION:
        fields = MIGRATIONS[version](fields)
        version += 1
    if not isinstance(fields, dict) or set(fields) != set(FIELDS):
        raise EncodingError("the encoded state does not hold the fields of a state")
    state = State.__new__(State)
    try:
        for name in FIELDS:
            setattr(state, name, decode(fields[name]))
        state.rules = rules
        count = written if written is not None else players
        state.setup = _setup(rules, state.houses, count, state.options)
        board.refresh_areas(state)
    except EncodingError:
        raise
    except Exception as exc:
        raise EncodingError(f"the state cannot be read ({type(exc).__name__}: {exc})") from exc
    for name in ("tracks", "units", "orders", "power_tokens", "power", "garrisons", "neutral"):
        if type(getattr(state, name)) is not dict:
            raise EncodingError(f"the state's {name} is not a map")
    state.events = []
    state.cache = None
    return state


_STATE_KEYS = frozenset({"encoding", "players", "fields"})


def _setup(
    rules: Ruleset, houses: tuple[str, ...], players: int | None, options: dict[str, Any]
) -> Setup:
    """The setup of a decoded state: the one for ``players`` and the state's ``options``
    (``setup.setup_for``), else the only one seating exactly ``houses``."""
    if players is None:
        fits = [n for n, s in rules.setups.items() if tuple(s.houses) == houses]
        if len(fits) != 1:
            fit = f"the setups for {sorted(fits)} players" if fits else "no setup"
            raise EncodingError(
                f"the encoded state does not name its player count, and its houses fit {fit}"
            )
        players = fits[0]
    try:
        setup = _setups.setup_for(rules, players, options)
    except ContentError as exc:
        raise EncodingError(f"the state's setup cannot be made: {exc}") from exc
    if tuple(setup.houses) != houses:
        raise EncodingError(f"the state's houses are not those of the {players}-player setup")
    return setup


def state_hash(state: State) -> str:
    """SHA-256 of the state's encoding as JSON text (no spaces), the state's maps written in
    key order (so the hash does not depend on their insertion order); records and nested
    values keep their own order, which replay and ``decode_state`` preserve.

    The text is put together from the text of each map entry and field: that of an immutable
    value (a tuple, a frozenset, a record) is kept by identity (``_text``), and a state
    shares those with the one it was copied from, so an action re-encodes only what it
    changed. It is the same text as one ``json`` call on the whole encoding would write."""
    parts = []
    for name in FIELDS:
        value = getattr(state, name)
        if type(value) is dict and _text_keys(value):
            entries = ",".join(f"{_key_text(k)}:{_text(value[k])}" for k in sorted(value))
            parts.append(f"{_key_text(name)}:{{{entries}}}")
        elif type(value) is tuple or type(value) in _PLAIN:
            parts.append(f"{_key_text(name)}:{_text(value)}")
        else:  # a record, a set or another map: its encoding is a map, written in key order
            encoded = encode(value)
            parts.append(f"{_key_text(name)}:{_HASH_TEXT.encode(dict(sorted(encoded.items())))}")
    text = f'{{"encoding":{ENCODING_VERSION},"fields":{{{",".join(parts)}}}}}'
    return hashlib.sha256(text.encode()).hexdigest()


def _text(value: Any) -> str:
    """``value``'s encoding as JSON text (as ``_HASH_TEXT`` writes it); kept by identity for
    the immutable kinds, at most ``TEXT_MEMO_SIZE`` (see ``state_hash``)."""
    kind = type(value)
    if kind is str:
        return _key_text(value)
    if kind is bool or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if kind is int:
        return int.__repr__(value)
    if kind is dict or kind is list:
        return _json_text(value)
    return _kept(_TEXT_MEMO, TEXT_MEMO_SIZE, value, _json_text)


def _json_text(value: Any) -> str:
    return _HASH_TEXT.encode(encode(value))
