"""A game as one JSON file (export) and the checks a file must pass to be imported.

The file holds the setup (players, seats, seed, options, plugins with versions), the whole
action log with the state hash after each action, and the hash of the final state. Import
trusts nothing in it: its size (``MAX_FILE_BYTES``) and nesting (``MAX_DEPTH``) are checked
before it is parsed, the shape is validated against ``GameFile`` (with a bound on every list),
the format version must be one this version reads, the plugins must be installed, every option
must be one they offer, and every action is replayed through the engine, must be legal and
must lead to the recorded hash. Only then is anything written.

An online game's file may hold its chat (``chat``: only the lines the one who exported it may
read — the public table and their own ravens, ``online.transcript``); it is a record for the
reader: its shape is checked on import, and it is not stored again.

Format version 2 records ``State.hash``; version 1 (files exported before the state
encoding) the hash of ``legacy``: such a file is checked against those hashes and stored with
the new ones."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import accumulate
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from westeros.engine import Ruleset, State
from westeros.engine.errors import ContentError

from . import legacy
from .errors import InvalidGameFile
from .records import GameInfo, GameSetup, SeatSpec
from .replay import LogEntry, replay, start

FORMAT = "westeros-game"
FORMAT_VERSION = 2
MAX_FILE_BYTES = 8 * 1024 * 1024
"""A finished 6-player game exports to about 100 KB."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects in a file (a game file needs 7)."""
MAX_ACTIONS = 20_000
MAX_CHAT_LINES = 20_000
MAX_OPTIONS = 64
MAX_ERRORS_SHOWN = 5

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}

Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Name = Annotated[str, Field(min_length=1, max_length=60)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PluginEntry(_Strict):
    """A plugin the game needs."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    version: Annotated[str, Field(max_length=60)]


class SeatEntry(_Strict):
    """A seat: house and who plays it (an AI seat: level and personality; files written
    before seats had a personality have none: the balanced default)."""

    house: Name
    kind: Literal["human", "ai"]
    name: Annotated[str, Field(max_length=100)] = ""
    personality: Annotated[str, Field(max_length=60)] = ""


class ActionEntry(_Strict):
    """One action of the log and the hash of the state it led to."""

    seq: Annotated[StrictInt, Field(ge=1)]
    house: Name
    action: Annotated[dict[str, Any], Field(max_length=32)]
    state_hash: Hash


class ChatEntry(_Strict):
    """One chat line: who wrote it (name, house; None: a spectator), to whom (None: the
    public table), when (UTC, round and phase)."""

    name: Annotated[str, Field(max_length=100)]
    house: Name | None
    to: Name | None
    text: Annotated[str, Field(min_length=1, max_length=500)]
    round: Annotated[StrictInt, Field(ge=0, le=1000)]
    phase: Annotated[str, Field(max_length=40)]
    at: datetime


class GameEntry(_Strict):
    """The game's setup and identity."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9-]{1,36}$")]
    name: Annotated[str, Field(max_length=200)]
    players: Annotated[StrictInt, Field(ge=1, le=64)]
    seed: Annotated[StrictInt, Field(ge=-(2**63), lt=2**64)] | Annotated[str, Field(max_length=200)]
    options: Annotated[dict[str, Any], Field(max_length=MAX_OPTIONS)]
    plugins: Annotated[list[PluginEntry], Field(min_length=1, max_length=64)]
    seats: Annotated[list[SeatEntry], Field(max_length=64)]
    engine_version: Annotated[str, Field(max_length=40)]
    created_at: datetime
    updated_at: datetime


class GameFile(_Strict):
    """The whole file (format ``westeros-game``, version 1 or ``FORMAT_VERSION``)."""

    format: Literal["westeros-game"]
    version: Literal[1, 2]
    exported_at: datetime
    game: GameEntry
    actions: Annotated[list[ActionEntry], Field(max_length=MAX_ACTIONS)]
    final_hash: Hash
    chat: Annotated[list[ChatEntry], Field(max_length=MAX_CHAT_LINES)] = []


@dataclasses.dataclass(frozen=True, slots=True)
class ValidGame:
    """An imported game that passed every check, ready to be written."""

    id: str
    setup: GameSetup
    engine_version: str
    created_at: datetime
    updated_at: datetime
    log: tuple[LogEntry, ...]
    state: State


def export_document(
    info: GameInfo, log: Sequence[LogEntry], final_hash: str, exported_at: datetime
) -> dict[str, Any]:
    """The JSON-ready file for a game (see ``GameFile``)."""
    setup = info.setup
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": exported_at.isoformat(),
        "game": {
            "id": info.id,
            "name": setup.name,
            "players": setup.players,
            "seed": setup.seed,
            "options": dict(setup.options),
            "plugins": [{"name": n, "version": v} for n, v in setup.plugins],
            "seats": [
                {"house": s.house, "kind": s.kind, "name": s.name, "personality": s.personality}
                for s in setup.seats
            ],
            "engine_version": info.engine_version,
            "created_at": info.created_at.isoformat(),
            "updated_at": info.updated_at.isoformat(),
        },
        "actions": [
            {"seq": e.seq, "house": e.house, "action": e.action, "state_hash": e.state_hash}
            for e in log
        ],
        "final_hash": final_hash,
    }


def with_chat(document: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``document`` with the chat ``lines`` (``ChatEntry`` fields), already filtered for the
    one who exports; a game without chat keeps its file as it was."""
    return {**document, "chat": list(lines)} if lines else dict(document)


def to_text(document: Mapping[str, Any]) -> str:
    """The file's text."""
    return json.dumps(document, indent=1, ensure_ascii=False)


def _text(data: str | bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise InvalidGameFile(f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidGameFile(f"the file is not UTF-8 text ({exc})") from exc


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (no recursion)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _check_header(text: str) -> None:
    if _depth(text) > MAX_DEPTH:
        raise InvalidGameFile(
            f"the file nests arrays or objects deeper than {MAX_DEPTH} levels: not a game file"
        )
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidGameFile(
            f"the file is not valid JSON, damaged or cut short? ({exc.msg}: "
            f"line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise InvalidGameFile(f"the file is not a Westeros game file (no format {FORMAT!r})")
    version = raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidGameFile("the file has no format version")
    if version > FORMAT_VERSION:
        raise InvalidGameFile(
            f"the file was made by a newer Westeros (format version {version}; "
            f"this version reads up to {FORMAT_VERSION})"
        )
    if version < 1:
        raise InvalidGameFile(f"format version {version} is not supported")


def _describe(exc: ValidationError) -> str:
    problems = [
        f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg']}"
        for err in exc.errors(include_url=False)
    ]
    more = len(problems) - MAX_ERRORS_SHOWN
    shown = "; ".join(problems[:MAX_ERRORS_SHOWN])
    return shown + (f"; and {more} more" if more > 0 else "")


def parse(data: str | bytes) -> GameFile:
    """Read and shape-check a game file; InvalidGameFile says what is wrong."""
    text = _text(data)
    _check_header(text)
    try:
        return GameFile.model_validate_json(text)
    except ValidationError as exc:
        raise InvalidGameFile(f"the file's content is not as expected: {_describe(exc)}") from exc


def _setup(game: GameEntry) -> GameSetup:
    seats = tuple(SeatSpec(s.house, s.kind, s.name, personality=s.personality) for s in game.seats)
    if len(seats) != game.players:
        raise InvalidGameFile(f"the game has {game.players} players but {len(seats)} seats")
    houses = [s.house for s in seats]
    if len(set(houses)) != len(houses):
        raise InvalidGameFile("two seats play the same house")
    return GameSetup(
        players=game.players,
        seats=seats,
        seed=game.seed,
        plugins=tuple((p.name, p.version) for p in game.plugins),
        options=dict(game.options),
        name=game.name,
    )


def _check_options(setup: GameSetup, rules: Ruleset) -> None:
    unknown = sorted(set(setup.options) - set(rules.options))
    if unknown:
        raise InvalidGameFile(
            f"the file sets option(s) the game's plugins do not offer: {', '.join(unknown)}"
        )
    for key, value in setup.options.items():
        default = rules.options[key].default
        if default is not None and type(value) is not type(default):
            raise InvalidGameFile(
                f"option {key} must be a {type(default).__name__}, not {type(value).__name__}"
            )


def validate(doc: GameFile, rulesets: Callable[[GameSetup], Ruleset]) -> ValidGame:
    """Check a parsed file against the installed plugins and the engine; InvalidGameFile names
    the first problem (missing plugin, unknown option, a seat that is not a house of the game,
    an illegal or altered action, a final state that differs)."""
    setup = _setup(doc.game)
    log = tuple(LogEntry(a.seq, a.house, a.action, a.state_hash) for a in doc.actions)
    for number, entry in enumerate(log, start=1):
        if entry.seq != number:
            raise InvalidGameFile(f"action number {number} is numbered {entry.seq}")
    try:
        rules = rulesets(setup)
    except ContentError as exc:
        raise InvalidGameFile(str(exc)) from exc
    _check_options(setup, rules)
    state = start(rules, setup.players, setup.seed, setup.options, InvalidGameFile)
    if sorted(s.house for s in setup.seats) != sorted(state.setup.seated_houses()):
        raise InvalidGameFile(
            f"the seats ({', '.join(s.house for s in setup.seats)}) are not the houses of a "
            f"{setup.players}-player game ({', '.join(state.setup.seated_houses())})"
        )
    if doc.version == 1:
        state, log, _ = legacy.upgrade_log(state, log, InvalidGameFile)
        final = legacy.hash_v1(state)
    else:
        state = replay(state, log, InvalidGameFile)
        final = state.hash()
    if final != doc.final_hash:
        raise InvalidGameFile("the final state is not the one recorded (actions missing?)")
    return ValidGame(
        id=doc.game.id,
        setup=setup,
        engine_version=doc.game.engine_version,
        created_at=doc.game.created_at,
        updated_at=doc.game.updated_at,
        log=log,
        state=state,
    )
