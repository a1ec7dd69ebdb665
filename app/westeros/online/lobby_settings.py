"""A new lobby's settings as ``POST /api/lobbies`` sends them, checked before anything is made
(issue 35 findings 14 and 17; docs/online.md "Limits"): every field of its JSON type, the game
options against the options the installed plugins register (the value of each option's own
type, an option that requires another only with that one on), and ``disable`` only names of
installed plugins that a new game may switch off — the same plugins and options the local
core's new-game form offers (``pages.toggleable_plugins``, ``Ruleset.options``). Anything else
is ``BadSetting`` (422) naming the field; the counts and ranges are the hub's to check."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from westeros.engine.content import GameOption
from westeros.plugins import LoadedPlugins
from westeros.server.games import DEFAULT_AI_LEVEL
from westeros.server.pages import start_context, toggleable_plugins

from .errors import OnlineError
from .pace import BY_TURNS, LIVE, Pace, PaceError

MAX_TEXT = 200
"""The longest text a setting (a name, a house, a text option) may hold."""
RANDOM = "random"


class BadSetting(OnlineError):
    """A lobby setting of the wrong type, an unknown option or plugin, or an option without
    the option it requires."""

    code = "online/bad-setting"
    status = 422


@dataclasses.dataclass(frozen=True, slots=True)
class LobbySettings:
    """Checked settings of a new lobby, as ``OnlineHub.create_lobby`` takes them."""

    name: str
    players: int
    options: dict[str, Any]
    disable: list[str]
    ai_level: str
    ai_personality: str
    open_houses: list[str] | None
    host_house: str | None
    clock_seconds: int
    grace_seconds: int
    spectators_hear: bool
    pace: dict[str, Any]
    ranked: bool
    min_reliability: int
    anonymous: bool

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``OnlineHub.create_lobby``."""
        return dataclasses.asdict(self)


def lobby_settings(data: Mapping[str, Any], loaded: LoadedPlugins) -> LobbySettings:
    """The settings of ``data`` (a request body) checked against the plugins of ``loaded``;
    BadSetting names the first field that is wrong."""
    house = data.get("house", RANDOM)
    return LobbySettings(
        name=_text(data, "name", ""),
        players=_whole(data, "players", None),
        options=options(data.get("options"), loaded),
        disable=disable(data.get("disable"), loaded),
        ai_level=_text(data, "ai_level", DEFAULT_AI_LEVEL),
        ai_personality=_text(data, "ai_personality", "balanced"),
        open_houses=_houses(data.get("open_houses")),
        host_house=None if house is None else _text(data, "house", RANDOM),
        clock_seconds=_whole(data, "clock_seconds", 0),
        grace_seconds=_whole(data, "grace_seconds", 60),
        spectators_hear=_flag(data, "spectators_hear", False),
        pace=pace(data),
        ranked=_flag(data, "ranked", False),
        min_reliability=min_reliability(data),
        anonymous=_flag(data, "anonymous", False),  # names hidden until the end (issue 40)
    )


def min_reliability(data: Mapping[str, Any]) -> int:
    """The reliability a person needs to take a seat (issue 40, ``westeros.online.ratings``):
    a whole percentage from 0 (none, the default) to 100."""
    value = _whole(data, "min_reliability", 0)
    if not 0 <= value <= 100:
        raise BadSetting(f"'min_reliability' is a percentage from 0 to 100, not {value}")
    return value


def pace(data: Mapping[str, Any]) -> dict[str, Any]:
    """The game's pace (issue 40, ``westeros.online.pace``): ``pace`` ``live`` (the default)
    or ``by_turns`` with ``deadline_seconds``, ``skip_weekends``, ``time_zone``,
    ``vacation_days``, ``max_missed`` and ``after_missed`` (``offer`` or ``keep_ai``); a
    game by turns has no turn clock (``clock_seconds`` 0)."""
    mode = _text(data, "pace", LIVE)
    if mode == BY_TURNS and _whole(data, "clock_seconds", 0):
        raise BadSetting("a game by turns has a deadline per decision: 'clock_seconds' must be 0")
    defaults = Pace()
    try:
        if mode != BY_TURNS:
            return Pace(mode=mode).settings()
        return Pace(
            mode=mode,
            deadline_seconds=_whole(data, "deadline_seconds", defaults.deadline_seconds),
            skip_weekends=_flag(data, "skip_weekends", defaults.skip_weekends),
            time_zone=_text(data, "time_zone", defaults.time_zone),
            vacation_days=_whole(data, "vacation_days", defaults.vacation_days),
            max_missed=_whole(data, "max_missed", defaults.max_missed),
            after_missed=_text(data, "after_missed", defaults.after_missed),
        ).settings()
    except PaceError as exc:
        raise BadSetting(str(exc)) from exc


def options(raw: object, loaded: LoadedPlugins) -> dict[str, Any]:
    """Game options: an object of registered option ids and values of each option's type;
    an option that requires another is set (to anything but its default) only with that one
    on."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BadSetting("'options' must be an object of game option names and values")
    known = loaded.ruleset.options
    unknown = sorted(str(name)[:MAX_TEXT] for name in raw if name not in known)
    if unknown:
        offered = ", ".join(sorted(known)) or "none"
        raise BadSetting(f"unknown game option(s) {', '.join(unknown)} (offered: {offered})")
    for name, value in raw.items():
        _check_value(known[name], value)
    for name, value in raw.items():
        needed = known[name].requires
        if needed is None or value == known[name].default:
            continue
        if needed not in known or not raw.get(needed, known[needed].default):
            raise BadSetting(f"the game option {name} needs the game option {needed} on")
    return dict(raw)


def _check_value(option: GameOption, value: object) -> None:
    default = option.default
    if isinstance(default, bool):
        right = isinstance(value, bool)
        kind = "true or false"
    elif isinstance(default, int | float):
        right = isinstance(value, int | float) and not isinstance(value, bool)
        kind = "a number"
    else:
        right = isinstance(value, str) and len(value) <= MAX_TEXT
        kind = f"a text of at most {MAX_TEXT} characters"
    if not right:
        raise BadSetting(f"the game option {option.id} is {kind}, not {_shown(value)}")


def house_names(loaded: LoadedPlugins) -> dict[str, str]:
    """The content's name of every house a game of the installed plugins may seat, by id
    (those of every option, as the new-game screen lists them); pages translate them."""
    return {house["id"]: house["name"] for house in start_context(loaded, [])["houses"]}


def disable(raw: object, loaded: LoadedPlugins) -> list[str]:
    """Plugins switched off: a list of names of installed plugins a new game may switch off
    (each once)."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise BadSetting("'disable' must be a list of plugin names")
    allowed = [p["id"] for p in toggleable_plugins(loaded)]
    strangers = sorted({name[:MAX_TEXT] for name in raw if name not in allowed})
    if strangers:
        offered = ", ".join(allowed) or "none"
        raise BadSetting(
            f"{', '.join(strangers)}: not a plugin a game may switch off (those are: {offered})"
        )
    return list(dict.fromkeys(raw))


def _text(data: Mapping[str, Any], field: str, default: str) -> str:
    value = data.get(field)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise BadSetting(f"'{field}' must be a text of at most {MAX_TEXT} characters")
    return value or default


def _whole(data: Mapping[str, Any], field: str, default: int | None) -> int:
    value = data.get(field)
    if value is None and default is not None:
        return default
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadSetting(f"'{field}' must be a whole number, not {_shown(value)}")
    return value


def _flag(data: Mapping[str, Any], field: str, default: bool) -> bool:
    value = data.get(field)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadSetting(f"'{field}' must be true or false, not {_shown(value)}")
    return value


def _houses(raw: object) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(h, str) and len(h) <= MAX_TEXT for h in raw):
        raise BadSetting("'open_houses' must be a list of house names")
    return list(raw)


def _shown(value: object) -> str:
    """``value`` as a short JSON-ish text for an error message."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
