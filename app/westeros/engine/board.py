"""Board queries and unit bookkeeping: control (1.3), supply (1.7), unit pools (1.2.2),
adjacency and ship transport (5.3.5-5.3.6). Pure functions of the state."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping

from .content import LAND, Ruleset
from .flow import remembered
from .state import State, Unit


def controller(state: State, area: str) -> str | None:
    """The house controlling ``area`` (1.3), or None."""
    units = state.units.get(area)
    if units:
        return units[0].house
    rules = state.rules
    if area in rules.default_control:
        return state.power_tokens.get(area) or homes_in_play(rules, state.houses).get(area)
    if area in rules.custom_control:
        custom = rules.kind(area).rules.controller(state, area)
        if custom is not False:
            return custom  # type: ignore[return-value]
    if rules.domain[area] != LAND:
        return None
    token = state.power_tokens.get(area)
    if token is not None:
        return token
    home = rules.home_areas.get(area)
    if home is not None and home in state.houses:
        return home
    return None


def controllers(state: State, areas: Iterable[str]) -> list[str | None]:
    """``controller`` of each of ``areas``, in order: the same answers, worked out in one pass
    (the victory check, supply and mustering ask it of every castle or barrel area)."""
    here = state.units.get
    token = state.power_tokens.get
    home = homes_in_play(state.rules, state.houses).get
    plain = state.rules.default_control
    return [
        units[0].house
        if (units := here(area))
        else (token(area) or home(area) if area in plain else controller(state, area))
        for area in areas
    ]


@functools.lru_cache(maxsize=64)
def homes_in_play(rules: Ruleset, houses: tuple[str, ...]) -> dict[str, str]:
    """The home areas of ``houses`` (the houses in play) with their house (1.3: a home area
    without units or power token is controlled by its house). Shared, read-only."""
    return {area: house for area, house in rules.home_areas.items() if house in houses}


def occupant(state: State, area: str) -> str | None:
    """The house whose units stand in ``area``, or None."""
    units = state.units.get(area)
    return units[0].house if units else None


def castle_counts(state: State) -> Counter[str | None]:
    """Castle and stronghold areas each house controls (1.9.1, 9.1), in one pass."""
    return Counter(controllers(state, state.rules.castle_areas))


def most_castles(state: State) -> int:
    """The most castle areas any house controls (``castle_counts``, 9.1). When every castle
    area follows the default rule (1.3) it is read off the castle areas with units, those with
    power tokens and the home areas, without asking each castle area."""
    rules = state.rules
    castles = rules.castle_areas
    if not castles <= rules.default_control:
        counts = castle_counts(state)
        counts.pop(None, None)
        return max(counts.values(), default=0)
    units = state.units
    tokens = state.power_tokens
    occupied = units.keys() & castles
    held = (tokens.keys() & castles) - occupied
    homes = homes_in_play(rules, state.houses)
    owners = [units[a][0].house for a in occupied]
    owners += [tokens[a] for a in held]
    owners += [homes[a] for a in (homes.keys() & castles) - occupied - held]
    return max(map(owners.count, state.houses), default=0)


def castle_count(state: State, house: str) -> int:
    """Castle and stronghold areas ``house`` controls (1.9.1, 9.1)."""
    return castle_counts(state)[house]


def land_count(state: State, house: str) -> int:
    """Land areas ``house`` controls (9.2 tie-breaker 1)."""
    return land_counts(state)[house]


def land_counts(state: State) -> Counter[str | None]:
    """``land_count`` of every house, in one pass."""
    return Counter(controllers(state, state.rules.land_areas))


def barrels(state: State, house: str) -> int:
    """Supply icons in areas ``house`` controls, capped at 6 (1.7.1)."""
    return barrel_counts(state).get(house, 0)


def barrel_counts(state: State) -> dict[str | None, int]:
    """``barrels`` of every house controlling a barrel area, in one pass (3.4.3)."""
    areas = state.rules.barrel_areas
    totals: dict[str | None, int] = {}
    for (_, n), h in zip(areas, controllers(state, [a for a, _ in areas]), strict=True):
        totals[h] = totals.get(h, 0) + n
    return {h: min(6, n) for h, n in totals.items()}


def army_sizes(state: State, house: str, override: Mapping[str, int] | None = None) -> list[int]:
    """Sizes of ``house``'s armies (2+ units in one area), largest first (1.7.2).

    ``override`` maps areas to hypothetical unit counts of ``house`` (after a planned move)."""
    if override:
        counts = {**army_counts(state, house), **override}
        sizes = [n for n in counts.values() if n >= 2]
    else:
        sizes = [len(u) for u in state.units.values() if len(u) >= 2 and u[0].house == house]
    sizes.sort(reverse=True)
    return sizes


def fits_supply(sizes: list[int], allowed: tuple[int, ...]) -> bool:
    """Do army ``sizes`` (largest first) fit the table row ``allowed`` (1.7.3)?"""
    if len(sizes) > len(allowed):
        return False
    return all(map(operator.le, sizes, allowed))


def within_supply(
    state: State, house: str, override: Mapping[str, int] | None = None, level: int | None = None
) -> bool:
    """Is ``house`` within its supply limit (optionally after ``override``, at ``level``)?"""
    row = state.setup.supply_table[state.supply[house] if level is None else level]
    return fits_supply(army_sizes(state, house, override), row)


def army_counts(state: State, house: str) -> dict[str, int]:
    """How many units ``house`` has in each area it occupies (worked out once per waiting
    state, ``flow.memo``: plans weigh many hypothetical moves against it). Read-only."""
    return remembered(state, ("army_counts", house), _army_counts, state, house)


def _army_counts(state: State, house: str) -> dict[str, int]:
    """``army_counts`` worked out from the state."""
    return {a: len(u) for a, u in state.units.items() if u[0].house == house}


def supply_room(state: State, house: str) -> Callable[[str, int], bool]:
    """A test of ``within_supply(state, house, {area: count})`` for one changed area at a
    time, from one pass over the board (a mustering weighs each area it may place in)."""
    counts = army_counts(state, house)
    row = state.setup.supply_table[state.supply[house]]

    def fits(area: str, count: int) -> bool:
        sizes = [n for a, n in counts.items() if n >= 2 and a != area]
        if count >= 2:
            sizes.append(count)
        sizes.sort(reverse=True)
        return fits_supply(sizes, row)

    return fits


def units_of(state: State, house: str) -> Counter[str]:
    """How many units of each type ``house`` has on the board."""
    return Counter(unit_counts(state, house))


def unit_counts(state: State, house: str) -> dict[str, int]:
    """``units_of`` as a plain dict (the types ``house`` has none of left out)."""
    out: dict[str, int] = {}
    for units in state.units.values():
        if units[0].house == house:
            for u in units:
                out[u.type] = out.get(u.type, 0) + 1
    return out


def available(state: State, house: str, unit_type: str) -> int:
    """Units of ``unit_type`` left in ``house``'s pool (1.2.2)."""
    limit = state.rules.houses[house].unit_limits.get(unit_type, 0)
    return limit - units_of(state, house)[unit_type]


def add_units(
    state: State, area: str, house: str, types: Iterable[str], routed: bool = False
) -> None:
    """Place units of ``house`` in ``area`` (caller checks availability and supply)."""
    new = tuple(Unit(house, t, routed) for t in types)
    if not new:
        return
    current = state.units.get(area, ())
    if current and current[0].house != house:
        raise AssertionError(f"two houses in {area}")
    state.units[area] = current + new
    if state.power_tokens.get(area) not in (None, house):
        del state.power_tokens[area]


def remove_units(state: State, area: str, units: Iterable[Unit]) -> None:
    """Remove the given units (matched by value, one each) from ``area``."""
    remaining = list(state.units.get(area, ()))
    for u in units:
        remaining.remove(u)
    if remaining:
        state.units[area] = tuple(remaining)
    else:
        state.units.pop(area, None)
        state.orders.pop(area, None)


def passable(state: State, area: str) -> bool:
    """False for areas blocked in this setup (1.10.4)."""
    return area not in state.blocked


def neighbours(state: State, area: str) -> list[str]:
    """Adjacent areas that are not blocked."""
    return [a for a in state.rules.adjacency[area] if a not in state.blocked]


def transport_reach(state: State, house: str, origin: str) -> set[str]:
    """Land areas a land unit in ``origin`` reaches by ``house``'s ship chains (5.3.6)."""
    rules = state.rules
    seas_of = rules.seas_near
    units = state.units
    seas = [a for a in seas_of[origin] if (here := units.get(a)) and here[0].house == house]
    if not seas:
        return set()
    seen = set(seas)
    frontier = seas
    while frontier:
        sea = frontier.pop()
        for nxt in seas_of[sea]:
            if nxt not in seen and (here := units.get(nxt)) and here[0].house == house:
                seen.add(nxt)
                frontier.append(nxt)
    shores_of = rules.shores
    blocked = state.blocked
    return {a for sea in seen for a in shores_of[sea] if a != origin and a not in blocked}


Reach = dict[tuple[str, str, str], frozenset[str]]
_UNCHANGED: contextvars.ContextVar[tuple[State, Reach] | None] = contextvars.ContextVar(
    "unchanged", default=None
)


@contextlib.contextmanager
def unchanged(state: State) -> Iterator[None]:
    """A block in which the caller leaves ``state`` as it is: ``reachable`` answers repeated
    questions about it from memory (a player weighing many plans for one decision). Nested
    blocks on the same state share what is remembered."""
    held = _UNCHANGED.get()
    if held is not None and held[0] is state:
        yield
        return
    token = _UNCHANGED.set((state, {}))
    try:
        yield
    finally:
        _UNCHANGED.reset(token)


def reachable(state: State, house: str, origin: str, domain: str) -> set[str]:
    """Areas units of ``domain`` in ``origin`` can move to: adjacency plus, for land units,
    transport; filtered by kind and the kind's own entry rule (5.3.2, 5.3.5). Inside an
    ``unchanged`` block on ``state`` each answer is worked out once."""
    held = _UNCHANGED.get()
    if held is None or held[0] is not state:
        return _reachable(state, house, origin, domain)
    key = (house, origin, domain)
    found = held[1].get(key)
    if found is None:
        found = held[1][key] = frozenset(_reachable(state, house, origin, domain))
    return set(found)


def _reachable(state: State, house: str, origin: str, domain: str) -> set[str]:
    """``reachable`` worked out from the state."""
    rules = state.rules
    out = set(rules.open_near(state.blocked)[origin].get(domain, ()))
    if domain == LAND:
        out |= transport_reach(state, house, origin)
    ruled = rules.entry_ruled_areas
    if ruled.isdisjoint(out):
        return out
    return {a for a in out if a not in ruled or rules.kind(a).rules.may_enter(state, house, a)}


def is_home_of_other(state: State, area: str, house: str) -> bool:
    """Is ``area`` the home area of another house in play?"""
    home = state.rules.areas[area].home_of
    return home is not None and home != house and home in state.houses


def unit_strength(state: State, unit: Unit, attacking_castle: bool) -> int:
    """Combat strength of ``unit`` (1.2.1): 0 when routed; a siege engine's ``vs_castle``
    value only on the attacker's side against a castle area; then the plugins'
    ``unit_strength`` hooks. Card effects add on top."""
    if unit.routed:
        return 0
    kind = state.rules.unit_types[unit.type]
    value = kind.vs_castle if attacking_castle and kind.vs_castle is not None else kind.strength
    for hook in state.rules.hooks.unit_strength:
        value = hook(state, unit, value)
    return value


def support_sources(state: State, area: str) -> list[str]:
    """Areas whose Support order may support a combat in ``area`` (5.4.1): adjacent, holding a
    Support order, and of a kind allowed to support ``area``'s kind. Sorted by area id."""
    rules = state.rules
    target_kind = rules.areas[area].kind
    out = []
    for src in sorted(rules.adjacency[area]):
        order = state.orders.get(src)
        if order is None or rules.order_tokens[order.token].type != "support":
            continue
        if target_kind in rules.kind(src).supports and src in state.units:
            out.append(src)
    return out


def refresh_areas(state: State) -> None:
    """Give ``state`` the Ruleset with the areas its game changed in play (improvements, a
    castle upgraded: ``rule_area_changes``), so every rule reads them as they are now."""
    base = state.rules.base
    state.rules = base.with_area_changes(a for hook in base.hooks.area_changes for a in hook(state))
