"""Hook implementations of the Tides of Battle plugin (RULES.md 10).

The rule hooks always return their callables; each checks the game's option when it runs (see
``tides``), so a Ruleset built once serves games with Tides of Battle on and off."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.content import GameOption

from . import tides
from .tides import OPTION


@hookimpl
def register_game_options() -> list[GameOption]:
    return [
        GameOption(OPTION, "Tides of Battle", False, "Draw a Tides of Battle card in every combat.")
    ]


@hookimpl
def rule_setup(options: Mapping[str, Any]) -> Callable[..., None] | None:
    return tides.setup


@hookimpl
def rule_combat_step(options: Mapping[str, Any]) -> Callable[..., list[Any]] | None:
    return tides.combat_steps


@hookimpl
def rule_strength_modifier(options: Mapping[str, Any]) -> Callable[..., int] | None:
    return tides.strength_modifier


@hookimpl
def rule_icon_modifier(options: Mapping[str, Any]) -> Callable[..., tuple[int, int]] | None:
    return tides.icon_modifier


@hookimpl
def rule_after_casualties(options: Mapping[str, Any]) -> Callable[..., None] | None:
    return tides.after_casualties


@hookimpl
def register_translations() -> list[str]:
    """This plugin's gettext catalogs (``locale/<lang>/LC_MESSAGES/westeros.po``)."""
    return [str(Path(__file__).resolve().parent / "locale")]
