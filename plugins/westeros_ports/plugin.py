"""Hook implementations of the ports plugin (RULES.md 6)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.actions import Action
from westeros.engine.content import (
    SEA,
    AiAnswer,
    AreaDef,
    AreaKind,
    EventText,
    MusterTargets,
    PowerIncome,
    StartingUnit,
    StateHook,
)

from . import log_texts, rules
from .rules import PORT, PortRules, TakeOverShips

HERE = Path(__file__).resolve().parent
STATIC_PREFIX = "ports"


@cache
def _data() -> Any:
    return json.loads(
        resources.files(__package__).joinpath("data", "ports.json").read_text("utf-8")
    )


@hookimpl
def register_area_kinds() -> list[AreaKind]:
    """A port (6.1): its orders support and raid the sea next to it; sea orders may raid it
    (6.2.1)."""
    return [
        AreaKind(
            PORT,
            SEA,
            supports=frozenset({SEA}),
            raids=frozenset({SEA}),
            rules=PortRules(),
            raided_by=frozenset({SEA}),
        )
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
def rule_after_resolution(options: Mapping[str, Any]) -> StateHook | None:
    return rules.after_resolution


@hookimpl
def rule_muster_targets(options: Mapping[str, Any]) -> MusterTargets | None:
    return rules.muster_targets


@hookimpl
def rule_power_income(options: Mapping[str, Any]) -> PowerIncome | None:
    return rules.power_income


@hookimpl
def register_action_kinds() -> list[type[Action]]:
    return [TakeOverShips]


@hookimpl
def register_event_texts() -> list[EventText]:
    return log_texts.event_texts()


@hookimpl
def register_static() -> list[tuple[str, str]]:
    return [(STATIC_PREFIX, str(HERE / "static"))]


@hookimpl
def register_client_scripts() -> list[str | tuple[str, str]]:
    return [f"/static/{STATIC_PREFIX}/ports.js"]


@hookimpl
def register_translations() -> list[str]:
    return [str(HERE / "locale")]


@hookimpl
def register_ai_answers() -> list[AiAnswer]:
    return [AiAnswer("port_takeover", rules.most_ships)]
