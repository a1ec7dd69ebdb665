"""Resolving March orders (RULES.md 5.3) and attacks on neutral forces (5.5).

A house resolves one March order with one ``ResolveMarch`` action that names every group and its
destination (5.3.1) and whether a power token stays behind (5.3.9, §12.13). Order of resolution
(5.3.8): the March order leaves the origin, the power token is placed, the non-combat moves are
made, the consequence checks run (ports destroy the ships of an emptied castle area before the
combat, §12.39), then the one combat, if any, runs.

A neutral force (5.5.1, 5.5.3) may be attacked when the marching units, the March bonus and the
support the attacker can count on reach its value: the attacker's own adjacent Support orders
(with units the same march moves into them) and those of other houses that agree. When its own
support is not enough, the other houses with eligible support are asked in turn order
(``SupportNeutralAttack``) before anything moves; if too few agree, nothing moves and the
house resolves a March order again, no longer counting on the houses that declined.

``check`` is the one legality check of a march and ``random_march`` the one random legal march;
the prompt, the AI, the hints and the board all use them (the board through the hint reply)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from . import board, tracks, victory
from .action_phase import MARCH, areas_with
from .actions import Action, Choose
from .content import LAND
from .errors import (
    IllegalAction,
    IllegalChoice,
    IllegalMove,
    NeutralForceTooStrong,
    NotEnoughPower,
    NotYourOrder,
    PowerTokenNotAllowed,
    SupplyExceeded,
    TooManyCombats,
    UnitsCannotMove,
)
from .flow import Decision, Prompt, Step, off_limits, remembered
from .legality import Problem
from .state import State, Unit

HOUSE = "house"
NEUTRAL = "neutral"
NOTHING_CHANCE = 0.125
RANDOM_TRIES = 24
GROUP_REACH_CHANCE = 0.5
YES = "yes"
NO = "no"
Declined = tuple[tuple[str, str], ...]
"""(neutral force area, house) pairs: houses that refused to support an attack on it (5.5.1)."""


@dataclasses.dataclass(frozen=True, slots=True)
class ResolveMarch(Action):
    """Resolve the March order in ``area``: each move is (destination, unit types moving there);
    no moves just removes the order (5.3.1). ``leave_power`` leaves a power token (5.3.9)."""

    kind: ClassVar[str] = "resolve_march"
    area: str
    moves: tuple[tuple[str, tuple[str, ...]], ...]
    leave_power: bool = False


class Plan(NamedTuple):
    """A checked march: the non-combat moves and the one combat move (or None); for a neutral
    force the attacker's own strength cannot take alone, the other houses whose support it
    needs, in turn order (5.5.1)."""

    moves: tuple[tuple[str, tuple[str, ...]], ...]
    combat: tuple[str, tuple[str, ...]] | None
    combat_kind: str | None
    helpers: tuple[str, ...] = ()


def movable(state: State, area: str) -> list[str]:
    """Types of the units in ``area`` that may march (not routed, 1.2.4), sorted."""
    return sorted(u.type for u in state.units.get(area, ()) if not u.routed)


def target(state: State, house: str, area: str) -> tuple[str | None, str | None]:
    """What entering ``area`` triggers for ``house`` (5.3.4): (``HOUSE``, defender) for another
    house's units or a garrisoned enemy home area without units (§12.1), (``NEUTRAL``, None) for a
    neutral force, (None, None) otherwise (an enemy power token alone is no combat, §12.2)."""
    occupant = board.occupant(state, area)
    if occupant is not None:
        return (HOUSE, occupant) if occupant != house else (None, None)
    if area in state.neutral:
        return NEUTRAL, None
    if state.garrisons.get(area) and board.is_home_of_other(state, area, house):
        return HOUSE, state.rules.areas[area].home_of
    return None, None


def destinations(state: State, house: str, area: str, domain: str) -> list[str]:
    """Areas units of ``domain`` in ``area`` may march to (5.3.2, 5.3.5, 5.3.6), sorted: never an
    area that cannot be embattled while another house's units are in it (ports, 6.1.4), nor one
    a plugin puts off limits (``rule_off_limits``, 11.10.6). Worked out once per waiting state
    (``flow.memo``)."""
    key = ("destinations", house, area, domain)
    return list(remembered(state, key, _destinations, state, house, area, domain))


def _destinations(state: State, house: str, area: str, domain: str) -> list[str]:
    """``destinations`` worked out from the state."""
    rules = state.rules
    out = []
    for dst in sorted(board.reachable(state, house, area, domain)):
        occupant = board.occupant(state, dst)
        if occupant not in (None, house) and not rules.kind(dst).rules.may_be_embattled(state, dst):
            continue
        if rules.hooks.off_limits and off_limits(state, house, dst, MARCH):
            continue
        out.append(dst)
    return out


def group_reach(state: State, house: str, area: str, types: Sequence[str]) -> set[str]:
    """Extra areas the group of ``types`` marching from ``area`` may move to through the
    plugins' ``march_reach`` hooks (5.3.2), kept only where every unit of the group may stand
    and ``destinations`` would allow them (kind, entry rule, blocked areas, ports, the areas a
    plugin puts off limits: a flight obeys the family restriction too, 11.5.3 with
    11.10.6)."""
    rules = state.rules
    if not rules.hooks.march_reach:
        return set()
    domains = {rules.unit_types[t].domain for t in types}
    group = tuple(sorted(types))
    out: set[str] = set()
    for hook in rules.hooks.march_reach:
        for dst in hook(state, house, area, group):
            if dst == area or dst in state.blocked or {rules.domain[dst]} != domains:
                continue
            kind = rules.kind(dst).rules
            occupant = board.occupant(state, dst)
            if not kind.may_enter(state, house, dst):
                continue
            if occupant not in (None, house) and not kind.may_be_embattled(state, dst):
                continue
            if rules.hooks.off_limits and off_limits(state, house, dst, MARCH):
                continue
            out.add(dst)
    return out


def group_destinations(state: State, house: str, area: str) -> dict[str, list[str]]:
    """For each movable unit type in ``area``, the extra areas (``group_reach``) a group of all
    its movable units of that type may march to; types without any are left out."""
    if not state.rules.hooks.march_reach:
        return {}
    units = movable(state, area)
    out = {}
    for t in sorted(set(units)):
        extra = group_reach(state, house, area, [u for u in units if u == t])
        if extra:
            out[t] = sorted(extra)
    return out


def support_by_house(
    state: State, house: str, area: str, arriving: Mapping[str, tuple[str, ...]] | None = None
) -> dict[str, int]:
    """Strength each house's adjacent Support orders would add to ``house``'s attack on ``area``
    (5.4.1-5.4.2, 5.5.1), counting ``house``'s units ``arriving`` in its own supporting areas
    during the same march (5.5.3)."""
    rules = state.rules
    castle = rules.areas[area].castle > 0
    out: dict[str, int] = {}
    for src in board.support_sources(state, area):
        order = state.orders[src]
        units = state.units[src]
        if order.house == house and arriving and src in arriving:
            units = units + tuple(Unit(house, t) for t in arriving[src])
        value = sum(board.unit_strength(state, u, castle) for u in units)
        out[order.house] = out.get(order.house, 0) + value + rules.order_tokens[order.token].bonus
    return out


def marching_strength(state: State, house: str, token: str, area: str, types: Sequence[str]) -> int:
    """The marching units' strength against ``area`` plus the March order's modifier (5.5.1)."""
    castle = state.rules.areas[area].castle > 0
    units = sum(board.unit_strength(state, Unit(house, t), castle) for t in types)
    return units + state.rules.order_tokens[token].bonus


def possible_support(
    state: State,
    house: str,
    area: str,
    arriving: Mapping[str, tuple[str, ...]] | None = None,
    declined: Declined = (),
) -> dict[str, int]:
    """Support other houses could add to ``house``'s attack on the neutral force in ``area``
    if they agree (5.5.1), in turn order; houses that declined for ``area`` are left out."""
    support = support_by_house(state, house, area, arriving)
    return {
        h: support[h]
        for h in tracks.turn_order(state)
        if h != house and h in support and (area, h) not in declined
    }


def may_leave_power(state: State, house: str, area: str) -> bool:
    """May ``house`` leave a power token in ``area`` when every unit marches out (5.3.9)?"""
    rules = state.rules
    return (
        rules.domain[area] == LAND
        and rules.kind(area).rules.allows_power_token(state, area)
        and rules.areas[area].home_of != house
        and state.power_tokens.get(area) != house
        and state.power[house] > 0
        and all(not u.routed for u in state.units.get(area, ()))
    )


def check(state: State, house: str, action: ResolveMarch, declined: Declined = ()) -> Plan:
    """Check ``action`` against 5.3 and 5.5 without changing the state; return its plan.
    ``declined``: houses that refused to support an attack on a neutral force (5.5.1).

    Reads only public information, so it runs on a seat's public state as well as on the game
    (``public.public_state``). Raises the IllegalAction subclass naming the rule broken."""
    rules = state.rules
    area = action.area
    order = state.orders.get(area)
    if order is None or order.house != house or rules.order_tokens[order.token].type != MARCH:
        raise NotYourOrder(f"{house} has no March order in {area!r}", "5.3")
    pool: dict[str, int] = {}
    for t in movable(state, area):
        pool[t] = pool.get(t, 0) + 1
    used: dict[str, int] = {}
    reach: dict[str, list[str]] = {}
    seen: set[str] = set()
    override: dict[str, int] = {}
    moves: list[tuple[str, tuple[str, ...]]] = []
    combat: tuple[str, tuple[str, ...]] | None = None
    combat_kind: str | None = None
    for dst, types in action.moves:
        if not types:
            raise IllegalMove(f"the group for {dst!r} has no units", "5.3.1")
        if dst in seen:
            raise IllegalMove(f"two groups march to {dst!r}; each needs its own area", "5.3.1")
        seen.add(dst)
        for t in types:
            if t not in rules.unit_types:
                raise UnitsCannotMove(f"unknown unit type {t!r}")
        for t in types:
            used[t] = used.get(t, 0) + 1
        for t, n in used.items():
            if n > pool.get(t, 0):
                raise UnitsCannotMove(
                    f"{area} has only {pool.get(t, 0)} {t} that may march (routed units stay, "
                    "1.2.4)"
                )
        extra: set[str] | None = None
        for t in types:
            domain = rules.unit_types[t].domain
            if domain not in reach:
                reach[domain] = destinations(state, house, area, domain)
            if dst not in reach[domain]:
                if extra is None:
                    extra = group_reach(state, house, area, types)
                if dst not in extra:
                    raise IllegalMove(f"a {t} in {area} cannot march to {dst!r}", "5.3.2")
        kind, _ = target(state, house, dst)
        own = len(state.units[dst]) if board.occupant(state, dst) == house else 0
        cap = rules.kind(dst).rules.unit_cap(state, dst) if dst in rules.capped_areas else None
        if cap is not None and own + len(types) > cap:
            raise IllegalMove(f"{dst} holds at most {cap} units of one house", "6.1.3")
        override[dst] = own + len(types)
        if kind is None:
            moves.append((dst, tuple(types)))
        elif combat is not None:
            raise TooManyCombats(f"both {combat[0]} and {dst} would start a combat")
        else:
            combat, combat_kind = (dst, tuple(types)), kind
    helpers: tuple[str, ...] = ()
    if combat is not None and combat_kind == NEUTRAL:
        dst, types = combat
        strength = marching_strength(state, house, order.token, dst, types)
        strength += support_by_house(state, house, dst, dict(moves)).get(house, 0)
        others = possible_support(state, house, dst, dict(moves), declined)
        if strength + sum(others.values()) < state.neutral[dst]:
            raise NeutralForceTooStrong(
                f"attacking strength {strength} (other houses' support could add "
                f"{sum(others.values())}) is below the neutral force's {state.neutral[dst]}"
            )
        if strength < state.neutral[dst]:
            helpers = tuple(others)
    moved = sum(used.values())
    if action.leave_power:
        if moved != len(state.units[area]):
            raise PowerTokenNotAllowed("a power token stays only when every unit marches out")
        if state.power[house] < 1:
            raise NotEnoughPower(f"{house} has no available power token", "5.3.9")
        if not may_leave_power(state, house, area):
            raise PowerTokenNotAllowed(f"{house} may not leave a power token in {area}")
    if moved:
        override[area] = len(state.units[area]) - moved
        if not board.within_supply(state, house, override):
            raise SupplyExceeded(f"this march would break {house}'s supply limit", "5.3.7")
    return Plan(tuple(moves), combat, combat_kind, helpers)


def problem(
    state: State, house: str, action: ResolveMarch, declined: Declined = ()
) -> Problem | None:
    """Why ``action`` is not a legal march (rule, code, message), or None: ``check``'s verdict."""
    try:
        _checked(state, house, action, declined)
    except IllegalAction as error:
        return Problem.of(error)
    return None


def _checked(state: State, house: str, action: ResolveMarch, declined: Declined) -> Plan:
    """``check``, its plan remembered for a waiting state (``flow.memo``): a march checked for
    the prompt's answer is not checked again when it is applied."""
    key = ("march_plan", house, action, declined)
    return remembered(state, key, check, state, house, action, declined)


def area_options(state: State, house: str, area: str, declined: Declined = ()) -> dict[str, Any]:
    """The choices for the March order in ``area`` (prompt data, JSON-ready): movable units, for
    each unit domain the destinations and what entering each triggers, and the power-token rule."""
    rules = state.rules
    units = movable(state, area)
    order = state.orders[area]

    def entry(dst: str) -> dict[str, Any]:
        kind, against = target(state, house, dst)
        own = len(state.units[dst]) if board.occupant(state, dst) == house else 0
        cap = rules.kind(dst).rules.unit_cap(state, dst) if dst in rules.capped_areas else None
        out: dict[str, Any] = {
            "area": dst,
            "combat": kind,
            "against": against,
            "room": None if cap is None else cap - own,
        }
        if kind == NEUTRAL:
            out["neutral"] = state.neutral[dst]
            out["castle"] = rules.areas[dst].castle > 0
            out["support"] = support_by_house(state, house, dst).get(house, 0)
            out["other_support"] = possible_support(state, house, dst, None, declined)
        return out

    dests = {
        domain: [entry(dst) for dst in destinations(state, house, area, domain)]
        for domain in sorted({rules.unit_types[t].domain for t in units})
    }
    data: dict[str, Any] = {
        "token": order.token,
        "bonus": rules.order_tokens[order.token].bonus,
        "units": units,
        "staying": len(state.units[area]) - len(units),
        "destinations": dests,
        "may_leave_power": may_leave_power(state, house, area),
    }
    grouped = group_destinations(state, house, area)
    if grouped:
        data["group_reach"] = {t: [entry(dst) for dst in areas] for t, areas in grouped.items()}
    return data


def march_areas(state: State, house: str) -> list[str]:
    """Areas holding ``house``'s March orders, sorted (``areas_with``; worked out once per waiting
    state, ``flow.memo``: the prompt and a random march share it). Read-only."""
    return remembered(state, ("march_areas", house), areas_with, state, house, MARCH)


def _area_options(state: State, house: str, area: str, declined: Declined) -> dict[str, Any]:
    """``area_options``, worked out once per waiting state (``flow.memo``): the prompt and a
    random march share it. Read-only."""
    key = ("area_options", house, area, declined)
    return remembered(state, key, area_options, state, house, area, declined)


@dataclasses.dataclass(frozen=True, slots=True)
class MarchTurn(Decision):
    """``house`` resolves one of its March orders (5.1, 5.3). When none of its March orders can
    move a unit anywhere, neither by adjacency nor by a plugin's ``group_reach`` (e.g. only
    routed units, §12.4), one is removed without asking.
    ``declined``: houses that refused to support its attack on a neutral force (5.5.1)."""

    house: str
    declined: Declined = ()
    reads_first: ClassVar[bool] = True

    def prompts(self, state: State) -> dict[str, Prompt]:
        areas = march_areas(state, self.house)
        options = {a: _area_options(state, self.house, a, self.declined) for a in areas}
        if not any(
            entries
            for o in options.values()
            for entries in (*o["destinations"].values(), *o.get("group_reach", {}).values())
        ):
            return {}
        data = {
            "marches": options,
            "supply_limits": list(state.setup.supply_table[state.supply[self.house]]),
            "declined": [list(pair) for pair in self.declined],
        }
        return {self.house: Prompt(self.house, "march", (ResolveMarch.kind,), data)}

    def run(self, state: State) -> None:
        areas = areas_with(state, self.house, MARCH)
        if areas:
            resolve(state, self.house, ResolveMarch(areas[0], ()), Plan((), None, None))

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, ResolveMarch)
        plan = _checked(state, house, action, self.declined)
        state.pop()
        if plan.helpers:
            state.push(SupportNeutralAttack(house, action, plan.helpers, (), self.declined))
        else:
            resolve(state, house, action, plan)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return random_march(state, house, rnd, self.declined)


def random_march(
    state: State, house: str, rnd: random.Random, declined: Declined = ()
) -> ResolveMarch:
    """A random legal march of ``house``: a random March order, a random destination (or
    none) for each unit, a power token left behind half the time when allowed (5.3, 5.5).
    Reads only public information (see ``check``)."""
    area = rnd.choice(march_areas(state, house))
    units = movable(state, area)
    if not units or rnd.random() < NOTHING_CHANCE:
        return ResolveMarch(area, ())
    rules = state.rules
    key = ("march_choices", house, area, declined)
    reach, room, grouped, combat_of = remembered(
        state, key, _choices, _area_options(state, house, area, declined)
    )
    total = len(state.units[area])
    for _ in range(RANDOM_TRIES):
        groups: dict[str, list[str]] = {}
        fight: str | None = None
        extra: str | None = None
        if grouped and rnd.random() < GROUP_REACH_CHANCE:
            kind = rnd.choice(sorted(grouped))
            extra = rnd.choice(grouped[kind])
            groups[extra] = [u for u in units if u == kind]
            fight = extra if combat_of[extra] else None
        for t in rnd.sample(units, len(units)):
            if extra is not None and t in groups[extra]:
                continue
            choices: list[str | None] = [None]
            for dst in reach[rules.unit_types[t].domain]:
                if dst == extra or (combat_of[dst] and fight not in (None, dst)):
                    continue
                left = room[dst]
                if left is not None and len(groups.get(dst, ())) >= left:
                    continue
                choices.append(dst)
            pick = rnd.choice(choices)
            if pick is None:
                continue
            groups.setdefault(pick, []).append(t)
            if combat_of[pick]:
                fight = pick
        moved = sum(len(g) for g in groups.values())
        leave = moved == total and may_leave_power(state, house, area) and rnd.random() < 0.5
        action = ResolveMarch(
            area, tuple((d, tuple(sorted(g))) for d, g in sorted(groups.items())), leave
        )
        if problem(state, house, action, declined) is None:
            return action
    return ResolveMarch(area, ())


class Choices(NamedTuple):
    """What ``random_march`` draws from, read off ``area_options``: the destinations of each
    unit domain, the room left in each destination (None: no cap), the extra areas of each
    unit type's group (``group_reach``) and whether entering each area starts a combat."""

    reach: dict[str, list[str]]
    room: dict[str, int | None]
    grouped: dict[str, list[str]]
    combat_of: dict[str, bool]


def _choices(options: dict[str, Any]) -> Choices:
    """The ``Choices`` of the March order described by ``options`` (``area_options``)."""
    dests = options["destinations"]
    groups = options.get("group_reach", {})
    return Choices(
        {d: [e["area"] for e in entries] for d, entries in dests.items()},
        {e["area"]: e["room"] for entries in dests.values() for e in entries},
        {t: [e["area"] for e in entries] for t, entries in groups.items()},
        {
            e["area"]: e["combat"] is not None
            for entries in (*dests.values(), *groups.values())
            for e in entries
        },
    )


@dataclasses.dataclass(frozen=True, slots=True)
class SupportNeutralAttack(Decision):
    """Before ``house``'s march ``action`` moves, the other houses with eligible Support orders
    next to the neutral force it attacks are asked one at a time, in turn order (``waiting``),
    whether they support the attack (5.5.1, 5.5.3). As soon as the agreed support is enough the
    march resolves; as soon as the houses still to answer could no longer make it enough,
    nothing moves and ``house`` resolves a March order again, without the support of the houses
    that declined."""

    house: str
    action: ResolveMarch
    waiting: tuple[str, ...]
    agreed: tuple[str, ...] = ()
    declined: Declined = ()

    def prompts(self, state: State) -> dict[str, Prompt]:
        dst = self.target(state)
        asked = self.waiting[0]
        areas = [
            src for src in board.support_sources(state, dst) if state.orders[src].house == asked
        ]
        data = {
            "options": [YES, NO],
            "attacker": self.house,
            "area": dst,
            "neutral_force": state.neutral[dst],
            "support_areas": areas,
            "strength": support_by_house(state, self.house, dst)[asked],
            "reason": "support-neutral-attack",
        }
        return {asked: Prompt(asked, "support_neutral_attack", (Choose.kind,), data)}

    def target(self, state: State) -> str:
        """The neutral force's area the march attacks."""
        return next(dst for dst, _ in self.action.moves if dst in state.neutral)

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        if action.option not in (YES, NO):
            raise IllegalChoice(f"answer {YES!r} or {NO!r}, not {action.option!r}", "5.5.1")
        state.pop()
        dst = self.target(state)
        state.emit(
            "neutral_support_declared",
            house=house,
            attacker=self.house,
            area=dst,
            support=action.option == YES,
        )
        agreed = (*self.agreed, house) if action.option == YES else self.agreed
        declined = self.declined if action.option == YES else (*self.declined, (dst, house))
        plan = check(state, self.house, self.action)
        assert plan.combat is not None
        token = state.orders[self.action.area].token
        strength = marching_strength(state, self.house, token, dst, plan.combat[1])
        support = support_by_house(state, self.house, dst, dict(plan.moves))
        strength += support.get(self.house, 0) + sum(support[h] for h in agreed)
        still = sum(support.get(h, 0) for h in self.waiting[1:])
        if strength >= state.neutral[dst]:
            resolve(state, self.house, self.action, plan)
        elif strength + still >= state.neutral[dst]:
            state.push(
                dataclasses.replace(
                    self, waiting=self.waiting[1:], agreed=agreed, declined=declined
                )
            )
        else:
            state.emit("neutral_attack_called_off", house=self.house, area=dst)
            state.push(MarchTurn(self.house, declined))

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice((YES, NO)))


def resolve(state: State, house: str, action: ResolveMarch, plan: Plan) -> None:
    """Carry out a checked march (5.3.8); the MarchTurn is already popped. The consequence
    checks run after the non-combat moves, with the attacking units lifted off the board, and
    any decision they queue (a port take-over, 6.3.1) waits until the combat has ended: the
    combat's ``Attack`` is pushed above it (6.3.4)."""
    area = action.area
    token = state.orders.pop(area).token
    state.emit(
        "march",
        house=house,
        area=area,
        token=token,
        moves=[[dst, list(types)] for dst, types in action.moves],
        leave_power=action.leave_power,
    )
    if action.leave_power:
        state.power[house] -= 1
        state.power_tokens[area] = house
    for dst, types in plan.moves:
        board.remove_units(state, area, [Unit(house, t) for t in types])
        board.add_units(state, dst, house, types)
    if plan.combat is not None:
        dst, types = plan.combat
        board.remove_units(state, area, [Unit(house, t) for t in types])
        if not victory.consequences(state):
            state.push(Attack(house, area, dst, types, token, plan.combat_kind == NEUTRAL))
    else:
        victory.consequences(state)


@dataclasses.dataclass(frozen=True, slots=True)
class Attack(Step):
    """The combat move of a march, after its other moves and the consequence checks (5.3.8):
    a neutral force is removed from the game and the units move in (5.5.2); against a house the
    combat of 5.4 starts. The marching ``units`` have already left ``origin``."""

    house: str
    origin: str
    area: str
    units: tuple[str, ...]
    march_token: str
    neutral: bool

    def run(self, state: State) -> None:
        if self.neutral:
            value = state.neutral.pop(self.area)
            board.add_units(state, self.area, self.house, self.units)
            state.emit("neutral_force_defeated", house=self.house, area=self.area, value=value)
            victory.consequences(state)
            return
        from .combat import start_combat

        start_combat(
            state,
            attacker=self.house,
            origin=self.origin,
            area=self.area,
            units=tuple(Unit(self.house, t) for t in self.units),
            march_token=self.march_token,
        )
