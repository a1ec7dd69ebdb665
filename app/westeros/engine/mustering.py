"""Mustering (3.4.4, 3.5): each castle area musters on its own with 1 (castle) or 2
(stronghold) points, one recruit or upgrade at a time, until its owner stops or no points
are left. Used by the Mustering card, starred Consolidate Power (5.6.2) and The Horde
Descends (7.3.8)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Iterator
from typing import ClassVar

from . import board, tracks
from .actions import Action, Choose, SelectArea
from .errors import IllegalAction, IllegalChoice, SupplyExceeded, UnitUnavailable
from .flow import Decision, Prompt, Step, left_out, memo, remembered
from .state import State, Unit

DONE = "done"


@dataclasses.dataclass(frozen=True, slots=True)
class MusterUnit(Action):
    """Muster one ``unit`` into ``area`` (3.5.2-3.5.3); with ``replace`` set, upgrade a unit of
    that type standing in the mustering area into ``unit`` instead (1.2.5)."""

    kind: ClassVar[str] = "muster_unit"
    unit: str
    area: str
    replace: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class MusteringAll(Step):
    """Mustering (3.4.4): in turn order, each house musters in every castle area it controls."""

    def run(self, state: State) -> None:
        state.push(*(MusterHouse(h) for h in tracks.turn_order(state)))


@dataclasses.dataclass(frozen=True, slots=True)
class MusterHouse(Step):
    """``house`` musters in each castle area it controls now (3.5.1; only its home area if a
    plugin leaves it out of "muster_away_from_home", 11.10.6), area by area. They are
    queued in name order, but the house may take any queued area first (``MusterIn``): each
    area has its own points, yet a short pool or supply makes the order matter."""

    house: str

    def run(self, state: State) -> None:
        castles = tuple(state.rules.castle_areas)
        owners = board.controllers(state, castles)
        areas = sorted(a for a, h in zip(castles, owners, strict=True) if h == self.house)
        if left_out(state, self.house, "muster_away_from_home"):
            areas = [a for a in areas if state.rules.areas[a].home_of == self.house]
        state.push(*(MusterIn(self.house, a) for a in areas))


@dataclasses.dataclass(frozen=True, slots=True)
class MusterIn(Decision):
    """``house`` musters in castle area ``area`` (3.5). ``points`` left (None: the area's full
    points, castle 1 / stronghold 2); ``fresh`` lists the types placed in ``area`` by this
    mustering, which cannot be upgraded (3.5.4). Without a legal recruit it ends by itself.
    Instead of recruiting here, the house may switch to another of its areas queued in the same
    mustering (``SelectArea``, 3.5.1: any order); this one keeps its points and waits."""

    house: str
    area: str
    points: int | None = None
    fresh: tuple[str, ...] = ()
    reads_first: ClassVar[bool] = True

    def left(self, state: State) -> int:
        """Mustering points still unused."""
        return state.rules.areas[self.area].castle if self.points is None else self.points

    # ------------------------------------------------------------------ legality
    def targets(self, state: State, unit_type: str) -> list[str]:
        """Areas a new ``unit_type`` may be placed in, before cost, pool and supply (3.5.3)."""
        domain = state.rules.unit_types[unit_type].domain
        return self._with_hooks(state, unit_type, domain, self._own_targets(state, domain))

    def _own_targets(self, state: State, domain: str) -> list[str]:
        """``targets`` of a unit of ``domain`` before the plugins' ``muster_targets``: the area
        itself, or (ships of a land area) the adjacent sea areas no other house controls."""
        if domain == state.rules.domain[self.area]:
            candidates: Iterable[str] = (self.area,)
        else:
            seas = state.rules.seas_near[self.area]
            candidates = [a for a in seas if board.controller(state, a) in (None, self.house)]
        return sorted(a for a in candidates if self._open(state, a, domain))

    def _with_hooks(self, state: State, unit_type: str, domain: str, own: list[str]) -> list[str]:
        """``own`` targets (``_own_targets``) with the open areas the plugins'
        ``muster_targets`` add for ``unit_type`` (ports, 6.2.4), sorted."""
        hooks = state.rules.hooks.muster_targets
        if not hooks:
            return own
        extra = {
            a
            for hook in hooks
            for a in hook(state, self.area, self.house, unit_type)
            if a not in own and self._open(state, a, domain)
        }
        return sorted((*own, *extra)) if extra else own

    def _open(self, state: State, area: str, domain: str) -> bool:
        """May a unit of ``domain`` mustered here stand in ``area`` (its domain, not blocked,
        no other house's units, room under the area's cap)?"""
        return (
            state.rules.domain[area] == domain
            and area not in state.blocked
            and board.occupant(state, area) in (None, self.house)
            and not self.full(state, area)
        )

    def full(self, state: State, area: str) -> bool:
        """Is ``area`` at its kind's unit cap for this house (ports: 3 ships, 6.1.3)?"""
        rules = state.rules
        cap = rules.kind(area).rules.unit_cap(state, area) if area in rules.capped_areas else None
        return cap is not None and len(state.units.get(area, ())) >= cap

    def upgradable(self, state: State, unit_type: str) -> int:
        """Units of ``unit_type`` in the area present before this mustering (3.5.4)."""
        here = sum(1 for u in state.units.get(self.area, ()) if u.type == unit_type)
        return here - self.fresh.count(unit_type)

    def problem(self, state: State, action: MusterUnit) -> IllegalAction | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        rules = state.rules
        kind = rules.unit_types.get(action.unit)
        if kind is None or not kind.musterable:
            return IllegalChoice(f"{action.unit!r} cannot be mustered", rule="3.5.6")
        if action.replace is None:
            cost = kind.muster_cost
        else:
            if action.replace not in kind.upgrade_from:
                return IllegalChoice(
                    f"a {action.replace} cannot be upgraded to a {action.unit}", rule="3.5.2"
                )
            if action.area != self.area:
                return IllegalChoice(f"upgrades happen in {self.area}", rule="1.2.5")
            cost = kind.upgrade_cost
        if cost > self.left(state):
            return IllegalChoice(
                f"{action.unit} costs {cost}, {self.left(state)} point(s) left", rule="3.5.2"
            )
        if board.available(state, self.house, action.unit) < 1:
            return UnitUnavailable(f"no {action.unit} left in {self.house}'s pool")
        if action.replace is not None:
            if self.upgradable(state, action.replace) < 1:
                return IllegalChoice(
                    f"no {action.replace} present in {self.area} before this mustering",
                    rule="3.5.4",
                )
            return None
        if action.area not in self.targets(state, action.unit):
            return IllegalChoice(
                f"a {action.unit} mustered in {self.area} cannot be placed in {action.area}",
                rule="3.5.3",
            )
        count = len(state.units.get(action.area, ()))
        if not board.within_supply(state, self.house, {action.area: count + 1}):
            return SupplyExceeded(f"a {action.unit} in {action.area} breaks supply", rule="3.5.5")
        return None

    def candidates(self, state: State) -> list[MusterUnit]:
        """Every recruit and upgrade of a musterable type, legal or not (for tests and tools)."""
        out: list[MusterUnit] = []
        for kind in state.rules.unit_types.values():
            if kind.musterable:
                out.extend(MusterUnit(kind.id, a) for a in self.targets(state, kind.id))
                out.extend(MusterUnit(kind.id, self.area, f) for f in kind.upgrade_from)
        return out

    def legal_actions(self, state: State) -> list[MusterUnit]:
        """Every legal recruit and upgrade now: the actions ``problem`` accepts, computed with
        one pass over the pool and one supply check per target area (once per waiting state:
        ``flow.memo``)."""
        return list(remembered(state, ("muster", self), self._legal_list, state))

    def can_muster(self, state: State) -> bool:
        """Is any recruit or upgrade legal now (``legal_actions`` is not empty)?"""
        found = memo(state)
        legal = None if found is None else found.get(("muster", self))
        if legal is not None:
            return bool(legal)
        return next(self._legal(state), None) is not None

    def _legal_list(self, state: State) -> list[MusterUnit]:
        """``legal_actions`` worked out from the state."""
        return list(self._legal(state))

    def _legal(self, state: State) -> Iterator[MusterUnit]:
        """``legal_actions`` one by one, in their order."""
        points = self.left(state)
        house = self.house
        pool = remembered(state, ("unit_counts", house), board.unit_counts, state, house)
        limits = state.rules.houses[house].unit_limits
        own: dict[str, list[str]] = {}
        fits: dict[str, bool] = {}
        room = None
        for kind in state.rules.unit_types.values():
            if not kind.musterable or limits.get(kind.id, 0) - pool.get(kind.id, 0) < 1:
                continue
            if kind.muster_cost <= points:
                domain = kind.domain
                if domain not in own:
                    own[domain] = self._own_targets(state, domain)
                for a in self._with_hooks(state, kind.id, domain, own[domain]):
                    if a not in fits:
                        if room is None:
                            room = remembered(
                                state, ("supply_room", house), board.supply_room, state, house
                            )
                        fits[a] = room(a, len(state.units.get(a, ())) + 1)
                    if fits[a]:
                        yield MusterUnit(kind.id, a)
            if kind.upgrade_cost <= points:
                for f in kind.upgrade_from:
                    if self.upgradable(state, f) > 0:
                        yield MusterUnit(kind.id, self.area, f)

    def queued(self, state: State) -> list[int]:
        """Stack positions of the house's other areas waiting in this mustering (the
        ``MusterIn`` steps of the same house right below this one) that can muster now."""
        out = []
        for i in range(len(state.stack) - 2, -1, -1):
            step = state.stack[i]
            if not isinstance(step, MusterIn) or step.house != self.house:
                break
            if step.can_muster(state):
                out.append(i)
        return out

    def other_areas(self, state: State) -> list[str]:
        """The areas the house may muster in before this one (3.5.1)."""
        return [state.stack[i].area for i in self.queued(state)]

    # ------------------------------------------------------------------ decision
    def prompts(self, state: State) -> dict[str, Prompt]:
        legal = self.legal_actions(state)
        if not legal:
            return {}
        costs = state.rules.unit_types
        recruits: dict[str, list[str]] = {}
        upgrades = []
        for a in legal:
            if a.replace is None:
                recruits.setdefault(a.unit, []).append(a.area)
            else:
                upgrades.append(
                    {"from": a.replace, "to": a.unit, "cost": costs[a.unit].upgrade_cost}
                )
        data = {
            "area": self.area,
            "points": self.left(state),
            "recruits": [
                {"unit": u, "cost": costs[u].muster_cost, "areas": areas}
                for u, areas in recruits.items()
            ],
            "upgrades": upgrades,
            "options": [DONE],
            "other_areas": self.other_areas(state),
        }
        switch = (SelectArea.kind,) if data["other_areas"] else ()
        kinds = (MusterUnit.kind, Choose.kind, *switch)
        return {self.house: Prompt(self.house, "muster", kinds, data)}

    def act(self, state: State, house: str, action: Action) -> None:
        if isinstance(action, Choose):
            if action.option != DONE:
                raise IllegalChoice(f"{action.option!r} is not one of {[DONE]}", rule="3.5.6")
            state.pop()
            state.emit("muster_done", house=house, area=self.area, unused=self.left(state))
            return
        if isinstance(action, SelectArea):
            self.switch(state, action.area)
            return
        assert isinstance(action, MusterUnit)
        known = memo(state)
        legal = None if known is None else known.get(("muster", self))
        if legal is None or action not in legal:  # the legal ones, if already worked out
            error = self.problem(state, action)
            if error is not None:
                raise error
        kind = state.rules.unit_types[action.unit]
        fresh = self.fresh
        if action.replace is None:
            cost = kind.muster_cost
            board.add_units(state, action.area, house, [action.unit])
            state.emit(
                "mustered", house=house, area=action.area, unit=action.unit, source=self.area
            )
            if action.area == self.area:
                fresh = (*fresh, action.unit)
        else:
            cost = kind.upgrade_cost
            self.upgrade(state, action.replace, action.unit)
            fresh = (*fresh, action.unit)
        points = self.left(state) - cost
        if points > 0:
            state.replace_top(MusterIn(house, self.area, points, tuple(sorted(fresh))))
        else:
            state.pop()

    def switch(self, state: State, area: str | None) -> None:
        """Muster in queued ``area`` first; this area waits right below it (3.5.1)."""
        chosen = next((i for i in self.queued(state) if state.stack[i].area == area), None)
        if chosen is None:
            raise IllegalChoice(
                f"{area!r} is not one of the areas {self.house} may muster in next: "
                f"{self.other_areas(state)}",
                rule="3.5.1",
            )
        stack = state.stack
        state.stack = (*stack[:chosen], *stack[chosen + 1 :], stack[chosen])

    def upgrade(self, state: State, old: str, new: str) -> None:
        """Replace one ``old`` unit in the area by ``new`` in place (1.2.5)."""
        units = state.units[self.area]
        i = next(i for i, u in enumerate(units) if u.type == old)
        state.units[self.area] = (
            *units[:i],
            Unit(self.house, new, units[i].routed),
            *units[i + 1 :],
        )
        state.emit("upgraded", house=self.house, area=self.area, unit=old, to=new)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        """A random recruit, upgrade or done; switching areas (``SelectArea``) is left out so
        that random games seeded before it existed still play the same way."""
        options: list[Action] = [*self.legal_actions(state), Choose(DONE)]
        return rnd.choice(options)
