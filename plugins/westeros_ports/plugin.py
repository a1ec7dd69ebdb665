"""Hook implementations of the ports plugin (RULES.md 6)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.content import SEA, AreaDef, AreaKind, StartingUnit

from . import rules
from .rules import PORT, PortRules


@cache
def _data() -> Any:
    return json.loads(
        resources.files(__package__).joinpath("data", "ports.json").read_text("utf-8")
    )


@hookimpl
def register_area_kinds() -> list[AreaKind]:
    return [
        AreaKind(PORT, SEA, supports=frozenset({SEA}), raids=frozenset({SEA}), rules=PortRules())
    ]


@hookimpl
def register_areas() -> list[AreaDef]:
    return [
        AreaDef(
            a["id"], a["name"], PORT, attrs={"port_of": a["port_of"], "port_sea": a["port_sea"]}
        )
        for a in _data()["areas"]
    ]


@hookimpl
def register_adjacency() -> list[tuple[str, str]]:
    return [(a, b) for a, b in _data()["adjacent"]]


@hookimpl
def register_starting_units() -> list[StartingUnit]:
    return [
        StartingUnit(h, u["area"], u["unit"], u["count"])
        for h, units in _data()["starting_units"].items()
        for u in units
    ]


@hookimpl
def rule_after_resolution(options: Mapping[str, Any]) -> Callable[..., None] | None:
    return rules.after_resolution


@hookimpl
def rule_muster_targets(options: Mapping[str, Any]) -> Callable[..., list[str]] | None:
    return rules.muster_targets


@hookimpl
def rule_power_income(options: Mapping[str, Any]) -> Callable[..., int] | None:
    return rules.power_income


@hookimpl
def register_translations() -> list[str]:
    """This plugin's gettext catalogs (``locale/<lang>/LC_MESSAGES/westeros.po``)."""
    return [str(Path(__file__).resolve().parent / "locale")]
