"""Typed, frozen decisions that round-trip through JSON (DESIGN §2).

Each Action subclass declares ``kind``. Kinds are not registered by defining a class: the
engine's own kinds are listed by ``engine_kinds``; a game's ``Ruleset.action_kinds`` adds those
its plugins register (``register_action_kinds``, conflicts refused by the plugin host).
``Action.from_json`` rebuilds an action of one of the given kinds and checks every field against
its annotation, raising MalformedAction on anything else."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Union

from .errors import MalformedAction

ActionKinds = Mapping[str, type["Action"]]


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base of every decision a house can send."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"kind": ..., field: value, ...}`` (tuples become lists)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in field_names(type(self)):
            value = getattr(self, name)
            out[name] = _plain(value) if isinstance(value, tuple) else value
        return out

    @staticmethod
    def from_json(data: Any, kinds: ActionKinds | None = None) -> Action:
        """Rebuild an action from ``to_json`` output; MalformedAction if it does not fit.

        ``kinds``: the kinds a game knows (``state.rules.action_kinds``); by default the
        engine's own (``engine_kinds``), which excludes every plugin's kinds."""
        if not isinstance(data, dict):
            raise MalformedAction("an action must be a JSON object")
        known = engine_kinds() if kinds is None else kinds
        kind = data.get("kind")
        cls = known.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedAction(f"unknown action kind {kind!r}")
        hints = _field_types(cls)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is not dataclasses.MISSING:
                    continue
                raise MalformedAction(f"{cls.kind}: missing field {f.name!r}")
            values[f.name] = _coerce(data[f.name], hints[f.name], f"{cls.kind}.{f.name}")
        extra = set(data) - {"kind"} - {f.name for f in dataclasses.fields(cls)}
        if extra:
            raise MalformedAction(f"{cls.kind}: unknown field(s) {sorted(extra)}")
        return cls(**values)


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The names of the fields of dataclass ``cls``, in order, read once per class (``to_json``
    runs on every action a game logs; ``flow.apply`` compares simultaneous decisions)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _field_types(cls: type) -> dict[str, Any]:
    """The resolved annotations of ``cls``, resolved once per class (``from_json`` runs on
    every action a server receives; resolving took five times as long as the rest)."""
    hints = _FIELD_TYPES.get(cls)
    if hints is None:
        hints = _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return hints


@functools.cache
def _engine_kinds() -> tuple[type[Action], ...]:
    from .bidding import TrackOrder
    from .consolidate import ResolveConsolidate
    from .march import ResolveMarch
    from .mustering import MusterUnit
    from .planning import PlaceOrders, ReplaceOrder
    from .raid import ResolveRaid

    return (
        Choose,
        Bid,
        SelectUnits,
        SelectArea,
        PlaceOrders,
        ReplaceOrder,
        TrackOrder,
        ResolveRaid,
        ResolveMarch,
        ResolveConsolidate,
        MusterUnit,
    )


def engine_kinds() -> dict[str, type[Action]]:
    """The action kinds the engine's own decisions ask for, by kind (plugins add theirs)."""
    return {cls.kind: cls for cls in _engine_kinds()}


def action_kinds() -> dict[str, type[Action]]:
    """The engine's action kinds (``engine_kinds``; for documentation and tests)."""
    return engine_kinds()


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _coerce(value, option, where)
            except MalformedAction:
                continue
        raise MalformedAction(f"{where}: {value!r} does not fit {hint}")
    if hint is type(None):
        if value is None:
            return None
        raise MalformedAction(f"{where}: expected null")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise MalformedAction(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0], where) for v in value)
        if len(args) != len(value):
            raise MalformedAction(f"{where}: expected {len(args)} items")
        return tuple(_coerce(v, a, where) for v, a in zip(value, args, strict=True))
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise MalformedAction(f"{where}: expected true or false")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise MalformedAction(f"{where}: expected an integer")
    if hint is str:
        if isinstance(value, str):
            return value
        raise MalformedAction(f"{where}: expected a string")
    raise MalformedAction(f"{where}: unsupported field type {hint}")


@dataclasses.dataclass(frozen=True, slots=True)
class Choose(Action):
    """Pick one of the named options a prompt offers (card choices, yes/no questions)."""

    kind: ClassVar[str] = "choose"
    option: str


@dataclasses.dataclass(frozen=True, slots=True)
class Bid(Action):
    """A secret bid of available power tokens (3.6, 7.2)."""

    kind: ClassVar[str] = "bid"
    amount: int


@dataclasses.dataclass(frozen=True, slots=True)
class SelectUnits(Action):
    """Choose units by (area, unit type) pairs, e.g. casualties or units to destroy."""

    kind: ClassVar[str] = "select_units"
    units: tuple[tuple[str, str], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class SelectArea(Action):
    """Choose one area (or none, with ``area`` null, where a prompt allows it)."""

    kind: ClassVar[str] = "select_area"
    area: str | None
