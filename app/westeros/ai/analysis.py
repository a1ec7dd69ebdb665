"""What the baseline AI reads off one view: area values, strengths, reach, threats and battle
estimates, all from the seat's public state (``engine.public.public_state``), computed lazily
and once per decision.

Numbers here are heuristics, not rules: they only rank legal choices. Rules are cited where a
figure follows one (unit strength 1.2.1, garrisons 1.10.1, support 5.4.1-5.4.2, victor 5.4.8)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from ..engine import board
from ..engine.content import LAND, Ruleset
from ..engine.public import public_state
from ..engine.state import State, Unit

DEFENSE = "defense"
SUPPORT = "support"
FIEFDOMS = "fiefdoms"


def win_chance(margin: float) -> float:
    """A rough chance to win a combat whose expected strength difference is ``margin``: even at
    0, falling off steeply below (cards and support can still turn a fight)."""
    p = min(0.97, max(0.03, 0.5 + 0.15 * margin))
    return p * p * (3 - 2 * p)


def top_mean(values: Iterable[int], n: int = 2) -> float:
    """Mean of the ``n`` largest ``values`` (0 for none)."""
    best = sorted(values, reverse=True)[:n]
    return sum(best) / len(best) if best else 0.0


class Situation:
    """The seat's picture of the game at one decision (see module docstring)."""

    def __init__(self, view: Mapping[str, Any], rules: Ruleset) -> None:
        self.view = view
        self.rules = rules
        self.me: str = view["house"]
        self.state: State = public_state(view, rules)

    # ------------------------------------------------------------------ board facts
    @cached_property
    def control(self) -> dict[str, str | None]:
        """Controller of every area (1.3)."""
        return {a: board.controller(self.state, a) for a in self.rules.areas}

    @cached_property
    def castles(self) -> dict[str, int]:
        """Castle areas controlled by each house (9.1)."""
        out = dict.fromkeys(self.state.houses, 0)
        for area in self.rules.castle_areas:
            owner = self.control[area]
            if owner in out:
                out[owner] += 1
        return out

    def occupant(self, area: str) -> str | None:
        """The house whose units stand in ``area``."""
        units = self.state.units.get(area)
        return units[0].house if units else None

    def units(self, area: str) -> tuple[Unit, ...]:
        """The units in ``area``."""
        return self.state.units.get(area, ())

    def is_castle(self, area: str) -> bool:
        """Does ``area`` hold a castle or stronghold (1.1.4)?"""
        return self.rules.areas[area].castle > 0

    def strength(self, units: Iterable[Unit], vs_castle: bool = False) -> int:
        """Combat strength of ``units`` (1.2.1; siege engines only against a castle)."""
        return sum(board.unit_strength(self.state, u, vs_castle) for u in units)

    def area_strength(self, area: str, vs_castle: bool = False) -> int:
        """Combat strength of the units standing in ``area``."""
        return self.strength(self.units(area), vs_castle)

    def defender_of(self, area: str) -> str | None:
        """Who would defend ``area`` against ``me``: its occupant, or the home house of an empty
        home area that keeps its garrison (1.10.2); None for no combat."""
        occupant = self.occupant(area)
        if occupant is not None:
            return occupant if occupant != self.me else None
        home = self.rules.areas[area].home_of
        if home and home != self.me and home in self.state.houses and area in self.state.garrisons:
            return home
        return None

    def garrison(self, area: str, house: str) -> int:
        """The garrison ``house`` defends ``area`` with (1.10.1)."""
        return self.state.garrisons.get(area, 0) if self.rules.areas[area].home_of == house else 0

    # ------------------------------------------------------------------ values
    def value(self, area: str, house: str | None = None) -> float:
        """How much controlling ``area`` is worth to ``house`` (default: me): castles first
        (they win the game, 9.1), then crowns, barrels and home areas."""
        house = house or self.me
        a = self.rules.areas[area]
        if self.rules.domain[area] != LAND:
            return 0.6
        v = 0.5 + 0.6 * a.crowns + 0.6 * a.barrels
        v += (0.0, 3.0, 4.0)[a.castle]
        if a.home_of == house:
            v += 3.0
        elif a.home_of in self.state.houses:
            v += 1.0
        return v

    @cached_property
    def leader(self) -> str | None:
        """The house with the most castle areas, if one leads alone."""
        best = max(self.castles.values())
        top = [h for h, n in self.castles.items() if n == best]
        return top[0] if len(top) == 1 else None

    def card_power(self, house: str) -> float:
        """What ``house``'s next house card is likely worth: the mean of its two best."""
        cards = self.rules.house_cards
        return top_mean(cards[c].strength for c in self.state.hands.get(house, ()))

    # ------------------------------------------------------------------ reach and threats
    @cached_property
    def reach(self) -> dict[str, set[str]]:
        """For every area with units: where they could march (5.3.2, 5.3.5-5.3.6)."""
        out = {}
        for area, units in self.state.units.items():
            domain = self.rules.domain[area]
            out[area] = board.reachable(self.state, units[0].house, area, domain)
        return out

    def supporters(self, target: str, house: str) -> list[str]:
        """Areas of ``house`` that could support a combat in ``target`` (5.4.1)."""
        kind = self.rules.areas[target].kind
        return [
            a
            for a in board.neighbours(self.state, target)
            if self.occupant(a) == house and kind in self.rules.kind(a).supports
        ]

    @cached_property
    def _support(self) -> dict[tuple[str, str, str | None], int]:
        """``support_potential`` of the questions asked so far (the state stays as it is)."""
        return {}

    def support_potential(self, target: str, house: str, exclude: str | None = None) -> int:
        """Strength ``house``'s neighbouring units could add by supporting in ``target``."""
        key = (target, house, exclude)
        found = self._support.get(key)
        if found is None:
            castle = self.is_castle(target)
            found = self._support[key] = sum(
                self.area_strength(a, castle)
                for a in self.supporters(target, house)
                if a != exclude
            )
        return found

    @cached_property
    def _attacks(self) -> dict[tuple[str, str], tuple[int, str]]:
        """(house, target) → (strongest single march into target, its origin)."""
        out: dict[tuple[str, str], tuple[int, str]] = {}
        for origin, targets in self.reach.items():
            units = tuple(u for u in self.units(origin) if not u.routed)
            if not units:
                continue
            house = units[0].house
            against = {castle: self.strength(units, castle) for castle in (False, True)}
            for target in targets:
                value = against[self.is_castle(target)]
                key = (house, target)
                if value > out.get(key, (-1, ""))[0]:
                    out[key] = (value, origin)
        return out

    def attack_potential(self, house: str, target: str, support_share: float = 0.5) -> float:
        """How hard ``house`` could attack ``target`` next: its strongest march there, +1 for
        a March bonus, ``support_share`` of its other neighbouring strength as support
        (5.4.2)."""
        best = self._attacks.get((house, target))
        if best is None:
            return 0.0
        strength, origin = best
        return strength + 1 + support_share * self.support_potential(target, house, exclude=origin)

    @cached_property
    def _threats(self) -> dict[str, float]:
        """``threat`` of the areas asked about so far (the state stays as it is)."""
        return {}

    def threat(self, area: str) -> float:
        """The strongest attack an enemy could bring against ``area`` (0: none can reach)."""
        found = self._threats.get(area)
        if found is None:
            found = self._threats[area] = max(
                (self.attack_potential(h, area) for h in self.state.houses if h != self.me),
                default=0.0,
            )
        return found

    def hold(self, area: str) -> float:
        """How well I would hold ``area`` without orders: units, garrison, half my support."""
        return (
            self.area_strength(area)
            + self.garrison(area, self.me)
            + 0.5 * self.support_potential(area, self.me, exclude=area)
        )

    def danger(self, area: str, extra: float = 0.0) -> float:
        """0..1: how likely I lose ``area`` to an attack (with ``extra`` defence added)."""
        threat = self.threat(area)
        if threat <= 0:
            return 0.0
        return min(1.0, max(0.0, (threat - self.hold(area) - extra + 2) / 4))

    # ------------------------------------------------------------------ combat estimates
    def battle_margin(
        self, origin: str, target: str, types: Iterable[str], bonus: int
    ) -> float | None:
        """Expected strength difference of my attack from ``origin`` on ``target`` with units
        ``types`` and March ``bonus``, with the orders on the board as they stand (5.4.2): my and
        the defender's own Support orders, its Defense order and garrison, and the likely house
        cards. Ties go up the Fiefdoms track (5.4.8). None when no house defends ``target``."""
        defender = self.defender_of(target)
        if defender is None:
            return None
        s = self.state
        castle = self.is_castle(target)
        mine = self.strength((Unit(self.me, t) for t in types), castle) + bonus
        theirs = float(self.area_strength(target) + self.garrison(target, defender))
        tokens = self.rules.order_tokens
        order = s.orders.get(target)
        if order is not None and order.house == defender and tokens[order.token].type == DEFENSE:
            theirs += tokens[order.token].bonus
        for src in board.support_sources(s, target):
            o = s.orders[src]
            if src == origin:
                continue
            if o.house == self.me:
                mine += self.area_strength(src, castle) + tokens[o.token].bonus
            elif o.house == defender:
                theirs += self.area_strength(src) + tokens[o.token].bonus
        fief = s.tracks[FIEFDOMS]
        tie = 0.4 if fief.index(self.me) < fief.index(defender) else -0.4
        return mine + self.card_power(self.me) - theirs - self.card_power(defender) + tie

    def planned_margin(self, origin: str, target: str) -> float | None:
        """Like ``battle_margin`` before orders are placed: my whole army in ``origin`` with a
        March +1, half of each side's neighbouring strength as support, a Defense +1 guessed for
        the defender."""
        defender = self.defender_of(target)
        if defender is None:
            return None
        castle = self.is_castle(target)
        mine: float = self.strength((u for u in self.units(origin) if not u.routed), castle) + 1
        mine += 0.5 * self.support_potential(target, self.me, exclude=origin)
        theirs: float = self.area_strength(target) + self.garrison(target, defender) + 1
        theirs += 0.5 * self.support_potential(target, defender)
        return mine + self.card_power(self.me) - theirs - self.card_power(defender)
