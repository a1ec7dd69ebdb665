"""The base game registers itself through the public hooks (DESIGN §3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros import hookimpl

from ..engine.actions import Action, engine_kinds
from ..engine.content import (
    AreaDef,
    AreaKind,
    EventText,
    HouseCard,
    HouseDef,
    OrderToken,
    Setup,
    StartingUnit,
    StateHook,
    UnitType,
    WesterosCard,
    WildlingCard,
)
from . import content, guide, log_texts, westeros_cards, wildling_cards

NAME = "westeros-base"


@hookimpl
def register_area_kinds() -> list[AreaKind]:
    return content.area_kinds()


@hookimpl
def register_areas() -> list[AreaDef]:
    return content.areas()


@hookimpl
def register_adjacency() -> list[tuple[str, str]]:
    return content.adjacency()


@hookimpl
def register_unit_types() -> list[UnitType]:
    return content.unit_types()


@hookimpl
def register_order_tokens() -> list[OrderToken]:
    return content.order_tokens()


@hookimpl
def register_houses() -> list[HouseDef]:
    return content.houses()


@hookimpl
def register_house_cards() -> list[HouseCard]:
    return content.cards()


@hookimpl
def register_starting_units() -> list[StartingUnit]:
    return content.starting_units()


@hookimpl
def register_setups() -> list[Setup]:
    return content.setups()


@hookimpl
def register_westeros_cards() -> list[WesterosCard]:
    return westeros_cards.westeros_cards()


@hookimpl
def register_wildling_cards() -> list[WildlingCard]:
    return wildling_cards.wildling_cards()


@hookimpl
def register_action_kinds() -> list[type[Action]]:
    return list(engine_kinds().values())


@hookimpl
def register_event_texts() -> list[EventText]:
    return log_texts.event_texts()


@hookimpl
def rule_setup(options: Mapping[str, Any]) -> StateHook | None:
    return guide.guide_setup(options)
