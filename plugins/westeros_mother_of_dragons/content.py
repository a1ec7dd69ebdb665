"""The Mother of Dragons content (RULES.md 11.1-11.4, 11.7.1-11.7.2) built from ``data/``
(written from the shared fact file; tests/mod cross-check it): Houses Arryn and Targaryen,
their house cards, the 7-player board overlay (The Bite, The Vale of Arryn, the Port of the
Eyrie, the Eyrie as Arryn's home), Essos (``essos``) and the 7- and 8-player setups."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from westeros.engine.content import (
    AreaDef,
    HouseCard,
    HouseDef,
    MapShapes,
    Setup,
    StartingUnit,
    house_cards_from_data,
)

from . import essos
from .arryn_cards import ABILITIES
from .targaryen_b_cards import B_ABILITIES
from .targaryen_cards import TARGARYEN_ABILITIES

CASTLE = {None: 0, "castle": 1, "stronghold": 2}
PORT_ATTRS = ("port_of", "port_sea")
COLOURS = {"arryn": "#7fa7d4", "targaryen": "#6b2d8f"}
"""House colours on the board (sky blue for the Vale, purple for Targaryen)."""


@cache
def data() -> Any:
    """The parsed ``data/mother_of_dragons.json``."""
    text = resources.files(__package__).joinpath("data", "mother_of_dragons.json").read_text()
    return json.loads(text)


def _area(a: dict[str, Any]) -> AreaDef:
    return AreaDef(
        id=a["id"],
        name=a["name"],
        kind=a["kind"],
        castle=CASTLE[a["castle"]],
        crowns=a["crowns"],
        barrels=a["barrels"],
        home_of=a.get("home_of"),
        garrison=a.get("garrison", 0),
        attrs={k: a[k] for k in PORT_ATTRS if k in a},
    )


def areas() -> list[AreaDef]:
    """The areas the 7-player board adds (11.1): The Bite, The Vale of Arryn, Port of the
    Eyrie; and Essos (11.4.1), blocked unless Targaryen plays (``essos``)."""
    return [_area(a) for a in data()["map_7p"]["areas"] + essos.essos_areas(data())]


def area_overrides() -> list[AreaDef]:
    """Base areas the overlays change (11.1, 11.3.1): the Eyrie becomes Arryn's home
    stronghold (garrison 4); the Port of White Harbor now opens on The Bite."""
    return [_area(a) for a in data()["map_7p"]["overrides"]]


def adjacency() -> list[tuple[str, str]]:
    """Pairs the overlays and Essos make adjacent (11.1, 11.4.2)."""
    return [(a, b) for a, b in data()["map_7p"]["adjacent"]] + essos.essos_adjacency(data())


def removed_adjacency() -> list[tuple[str, str]]:
    """Base pairs The Bite separates (11.1): The Narrow Sea no longer touches White Harbor,
    its port, Moat Cailin or The Twins."""
    return [(a, b) for a, b in data()["map_7p"]["removed_adjacent"]]


def houses() -> list[HouseDef]:
    """House Arryn (11.3) and House Targaryen (11.4.3)."""
    return [
        HouseDef(h, d["name"], d["home"], dict(d["unit_limits"]), COLOURS[h])
        for h, d in data()["houses"].items()
    ]


def cards() -> list[HouseCard]:
    """Arryn's and Targaryen's seven house cards each (11.7.1, 11.7.2) with their abilities, and
    Targaryen's alternative B deck (11.7.3)."""
    b_deck = {"targaryen": {"house_cards": data()["targaryen_b_deck"]}}
    return house_cards_from_data(data()["houses"], ABILITIES | TARGARYEN_ABILITIES) + (
        house_cards_from_data(b_deck, B_ABILITIES)
    )


def targaryen_deck(b_deck: bool) -> tuple[str, ...]:
    """The ids of the Targaryen deck a game uses: A (11.7.2) or, with the option, B (11.7.3)."""
    cards = data()["targaryen_b_deck"] if b_deck else data()["houses"]["targaryen"]["house_cards"]
    return tuple(c["id"] for c in cards)


def starting_units() -> list[StartingUnit]:
    """Arryn's and Targaryen's starting units (11.2.6)."""
    return [
        StartingUnit(h, u["area"], u["unit"], u["count"])
        for h, units in data()["starting_units"].items()
        for u in units
    ]


def setups() -> list[Setup]:
    """The 7-player setup (11.2.1, 11.2.4): six base houses + Arryn on the 7-player board, its
    tracks, King's Landing as the only neutral force, the base supply table (1.7.3), Essos
    blocked; the 8-player setup (11.2.2-11.2.4): + Targaryen and Essos, Braavos's neutral
    force too, star limits for positions 1-8."""
    table = tuple(tuple(row) for row in data()["supply_limits"])
    return [
        Setup(
            player_count=s["player_count"],
            houses=tuple(s["houses"]),
            tracks={t: tuple(order) for t, order in s["tracks"].items()},
            neutral_forces=dict(s["neutral_forces"]),
            blocked_areas=essos.blocked_areas(data(), s["houses"]),
            units_not_placed_in=frozenset(),
            supply_table=table,
            star_limits=tuple(s["star_limits"]),
        )
        for s in data()["setups"]
    ]


SHAPE_FILES = ("shapes_7p.json", "shapes_essos.json")
"""Our map's geometry for the boards (``register_map_shapes``): the 7-player board, then the
Essos side board of the 8-player game (each drawn only in games that have its areas)."""


def map_shapes() -> list[MapShapes]:
    """The layouts of ``SHAPE_FILES`` that exist, in that order."""
    folder = resources.files(__package__).joinpath("data")
    return [
        MapShapes(json.loads(folder.joinpath(name).read_text("utf-8")))
        for name in SHAPE_FILES
        if folder.joinpath(name).is_file()
    ]
