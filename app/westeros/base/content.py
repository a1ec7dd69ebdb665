"""The base game's content objects (RULES.md 1-2), built from the data files."""

from __future__ import annotations

from collections import Counter

from ..engine.content import (
    LAND,
    SEA,
    AreaDef,
    AreaKind,
    HouseCard,
    HouseDef,
    OrderToken,
    Setup,
    StartingUnit,
    UnitType,
    house_cards_from_data,
)
from . import house_cards
from .data import load

CASTLE_VALUES = {None: 0, "castle": 1, "stronghold": 2}
COLOURS = {
    "stark": "#e6e6e6",
    "greyjoy": "#1a1a1a",
    "lannister": "#c8102e",
    "baratheon": "#f2c300",
    "tyrell": "#2e8b57",
    "martell": "#f28c28",
}


def area_kinds() -> list[AreaKind]:
    """Land and sea (1.1.1): land supports and raids land only, sea supports and raids land and
    sea (5.2.1, 5.4.1). Kinds added by plugins declare their own relations to these."""
    return [
        AreaKind(
            LAND, LAND, supports=frozenset({LAND}), raids=frozenset({LAND}), counts_as_land=True
        ),
        AreaKind(SEA, SEA, supports=frozenset({LAND, SEA}), raids=frozenset({LAND, SEA})),
    ]


def areas() -> list[AreaDef]:
    """The 50 land and sea areas of the base map (ports come from the ports plugin)."""
    return [
        AreaDef(
            id=a["id"],
            name=a["name"],
            kind=a["kind"],
            castle=CASTLE_VALUES[a["castle"]],
            crowns=a["crowns"],
            barrels=a["barrels"],
            home_of=a.get("home_of"),
            garrison=a.get("garrison", 0) if a.get("home_of") else 0,
        )
        for a in load("map")["areas"]
    ]


def adjacency() -> list[tuple[str, str]]:
    """Adjacent pairs between land and sea areas (1.1.1)."""
    return [(a, b) for a, b in load("map")["adjacent"]]


def unit_types() -> list[UnitType]:
    """Footman, knight, siege engine, ship (1.2.1, 3.5.2)."""
    return [
        UnitType("footman", "Footman", LAND, strength=1, muster_cost=1),
        UnitType("knight", "Knight", LAND, strength=2, muster_cost=2, upgrade_from=("footman",)),
        UnitType(
            "siege_engine",
            "Siege engine",
            LAND,
            strength=0,
            muster_cost=2,
            vs_castle=4,
            upgrade_from=("footman",),
        ),
        UnitType("ship", "Ship", SEA, strength=1, muster_cost=1),
    ]


def order_tokens() -> list[OrderToken]:
    """The 15 order tokens of a house (1.4.1); ids like ``march+1*`` or ``defense+1.2``."""
    seen: Counter[str] = Counter()
    out = []
    for t in load("setups")["order_tokens"]:
        base = f"{t['type']}{t['bonus']:+d}{'*' if t['star'] else ''}"
        seen[base] += 1
        token_id = base if seen[base] == 1 else f"{base}.{seen[base]}"
        out.append(OrderToken(token_id, t["type"], t["bonus"], t["star"]))
    return out


def houses() -> list[HouseDef]:
    """The six houses (2.3)."""
    return [
        HouseDef(h, d["name"], d["home"], dict(d["unit_limits"]), COLOURS[h])
        for h, d in load("houses")["houses"].items()
    ]


def cards() -> list[HouseCard]:
    """The 42 house cards (8.2) with their abilities."""
    return house_cards_from_data(load("houses")["houses"], house_cards.ABILITIES)


def starting_units() -> list[StartingUnit]:
    """Starting units outside ports (2.3.1)."""
    return [
        StartingUnit(h, u["area"], u["unit"], u["count"])
        for h, d in load("houses")["houses"].items()
        for u in d["starting_units"]
    ]


def setups() -> list[Setup]:
    """Setups for 3-6 players (2.1-2.4)."""
    data = load("setups")
    table = tuple(tuple(row) for row in data["supply_limits"])
    stars = data["starred_orders_by_kings_court_position"]
    return [
        Setup(
            player_count=int(n),
            houses=tuple(s["houses"]),
            tracks={t: tuple(o) for t, o in s["tracks"].items()},
            neutral_forces=dict(s["neutral_forces"]),
            blocked_areas=frozenset(s["blocked_areas"]),
            units_not_placed_in=frozenset(s["units_not_placed_in"]),
            supply_table=table,
            star_limits=tuple(stars["3-4 players" if int(n) <= 4 else "5-6 players"]),
        )
        for n, s in data["setups"].items()
    ]
