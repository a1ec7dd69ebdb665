"""The evaluation function of the strong AI: how good a (simulated) position is for each house.

A house's *score* counts, in castle equivalents: castle areas (what wins, 9.1; or the victory
points a plugin scores the house by instead, ``victory.score``), land areas and supply (the
tie-breakers of 9.2), available power (1.5), units on the board (1.2.1), influence track
positions (1.6: turn order, the Blade, starred orders and the Raven), the house cards in hand
(8.3), minus the castles it is likely to lose to an adjacent enemy army next round and plus
a share of the enemy or neutral castles it could take (threats). Threats are left out in the
last round (no later round acts on them), and once the last round's Action phase is over only
the final ranking counts (9.2).

A house's *utility* is its chance to win, a softmax of the scores of all houses: what matters in
a six-player game is the lead over the best rival, not the score alone.

The score is linear in its ``Weights``: ``features`` gives each house's value of every term, so
weights can be fitted to game outcomes (``westeros.ai.learned``, used by ``HARD_LEARNED``)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

from ..engine import board, victory
from ..engine.content import LAND
from ..engine.round import LAST_ROUND
from ..engine.state import State

IRON_THRONE_VALUE = (0.45, 0.3, 0.2, 0.12, 0.06, 0.0, 0.0, 0.0)
FIEFDOMS_VALUE = (0.4, 0.25, 0.18, 0.12, 0.06, 0.0, 0.0, 0.0)
STAR_VALUE = 0.12
RAVEN_VALUE = 0.15
SHARPNESS = 1.6
NEUTRAL_TAKEN = 0.8


@dataclasses.dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the score (castle equivalents per unit of each feature); ``prey`` adds
    to ``reach`` for the castles of the house with the fewest castles."""

    castle: float = 1.0
    stronghold: float = 0.15
    land: float = 0.06
    supply: float = 0.08
    power: float = 0.05
    strength: float = 0.1
    tracks: float = 1.0
    hand: float = 0.03
    danger: float = 0.6
    reach: float = 0.2
    prey: float = 0.0


DEFAULT_WEIGHTS = Weights()
FEATURES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Weights))
"""The names of the score's features, one per weight."""


def track_value(state: State, house: str, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What ``house``'s three influence positions are worth (1.6.2-1.6.3)."""
    tracks = state.tracks
    stars = state.setup.star_limits
    it = tracks["iron_throne"].index(house)
    fi = tracks["fiefdoms"].index(house)
    kc = tracks["kings_court"].index(house)
    value = IRON_THRONE_VALUE[min(it, 7)] + FIEFDOMS_VALUE[min(fi, 7)]
    value += STAR_VALUE * (stars[kc] if kc < len(stars) else 0) + (RAVEN_VALUE if kc == 0 else 0.0)
    return weights.tracks * value


class Board:
    """Per-area facts of one state computed once: occupants, strengths and attack reach."""

    def __init__(self, state: State) -> None:
        self.state = state
        rules = state.rules
        self.control = {a: board.controller(state, a) for a in rules.areas}
        self.land_strength: dict[str, tuple[str, int]] = {}
        self.siege: dict[str, int] = {}
        self.all_strength: dict[str, int] = {}
        for area, units in state.units.items():
            house = units[0].house
            fighting = [u for u in units if not u.routed]
            self.all_strength[area] = sum(board.unit_strength(state, u, False) for u in units)
            if rules.domain[area] == LAND and fighting:
                plain = sum(board.unit_strength(state, u, False) for u in fighting)
                castle = sum(board.unit_strength(state, u, True) for u in fighting)
                self.land_strength[area] = (house, plain)
                self.siege[area] = castle
        self.reach: dict[str, set[str]] = {
            a: board.reachable(state, self.land_strength[a][0], a, LAND) for a in self.land_strength
        }

    def hold(self, area: str, house: str) -> float:
        """How well ``house`` holds ``area`` without orders: units, garrison, half its support."""
        state = self.state
        value = float(self.all_strength.get(area, 0)) if board.occupant(state, area) == house else 0
        if state.rules.areas[area].home_of == house:
            value += state.garrisons.get(area, 0)
        for n in state.rules.adjacency[area]:
            if n in self.all_strength and state.units[n][0].house == house:
                value += 0.5 * self.all_strength[n]
        return value

    def attacks(self, area: str) -> dict[str, float]:
        """For each house that could march on ``area``: its strongest attack (army + 1 for a
        March order + half of its other neighbouring strength)."""
        rules = self.state.rules
        castle = rules.areas[area].castle > 0
        best: dict[str, float] = {}
        for origin, targets in self.reach.items():
            if area not in targets:
                continue
            house, plain = self.land_strength[origin]
            value = (self.siege[origin] if castle else plain) + 1.0
            if value > best.get(house, 0.0):
                best[house] = value
        for house in list(best):
            for n in rules.adjacency[area]:
                if n in self.all_strength and self.state.units[n][0].house == house:
                    best[house] += 0.25 * self.all_strength[n]
        return best


def danger(attack: float, hold: float) -> float:
    """0..1: how likely an attack of strength ``attack`` takes an area held with ``hold``."""
    return min(1.0, max(0.0, (attack - hold + 1.5) / 4.0))


def scores(state: State, weights: Mapping[str, Weights] | None = None) -> dict[str, float]:
    """Every house's score (see module docstring); ``weights`` per house (default weights for
    houses not named)."""
    w = {h: (weights or {}).get(h, DEFAULT_WEIGHTS) for h in state.houses}
    return weighted(state, Board(state), w)


def features(state: State) -> dict[str, dict[str, float]]:
    """Every house's score features, by ``FEATURES`` name: the score is linear in the weights,
    so a feature is the score with weight 1 for it and 0 for every other weight (the learned
    evaluation, ``westeros.ai.learned``, fits the weights to these)."""
    info = Board(state)
    zero = Weights(**dict.fromkeys(FEATURES, 0.0))
    out: dict[str, dict[str, float]] = {h: {} for h in state.houses}
    for name in FEATURES:
        unit = dataclasses.replace(zero, **{name: 1.0})
        for house, value in weighted(state, info, dict.fromkeys(state.houses, unit)).items():
            out[house][name] = value
    return out


def weighted(state: State, info: Board, w: Mapping[str, Weights]) -> dict[str, float]:
    """Every house's score in ``state`` (its per-area facts ``info``) with weights ``w``."""
    rules = state.rules
    houses = state.houses
    control = info.control
    out = dict.fromkeys(houses, 0.0)
    castles = dict.fromkeys(houses, 0)
    for area in rules.castle_areas:
        owner = control[area]
        if owner in out:
            castles[owner] += 1
            out[owner] += w[owner].castle + w[owner].stronghold * (rules.areas[area].castle - 1)
    for h in houses:  # a house a plugin scores otherwise counts its victory points (1.9.1)
        out[h] += w[h].castle * (victory.score(state, h, castles[h]) - castles[h])
    for area in rules.land_areas:
        owner = control[area]
        if owner in out:
            out[owner] += w[owner].land
    cards = rules.house_cards
    for h in houses:
        wh = w[h]
        out[h] += wh.supply * state.supply[h] + wh.power * state.power[h]
        out[h] += wh.hand * sum(cards[c].strength for c in state.hands[h])
        out[h] += track_value(state, h, wh)
    for area, strength in info.all_strength.items():
        h = state.units[area][0].house
        if h in out:
            out[h] += w[h].strength * strength
    left = LAST_ROUND - state.round
    if left <= 0:
        return out
    weakest = min(houses, key=lambda h: (castles[h], h))
    for area in rules.castle_areas:
        attacks = info.attacks(area)
        if not attacks:
            continue
        owner = control[area]
        neutral = state.neutral.get(area) if owner is None else None
        hold = info.hold(area, owner) if owner is not None else 0.0
        for house, attack in attacks.items():
            if house == owner or house not in out:
                continue
            if neutral is not None:
                p = NEUTRAL_TAKEN if attack >= neutral else 0.0
            else:
                p = danger(attack, hold)
            if owner in out:
                out[owner] -= w[owner].danger * p
            bonus = w[house].reach + (w[house].prey if owner == weakest else 0.0)
            out[house] += bonus * p
    return out


def utilities(state: State, weights: Mapping[str, Weights] | None = None) -> dict[str, float]:
    """Every house's chance to win (0..1, summing to 1): certain once the game is decided or the
    last round's Action phase is over (9.2), else a softmax of the scores."""
    houses = state.houses
    winner = state.winner
    if winner is None and state.round >= LAST_ROUND and not state.stack:
        winner = victory.ranking(state)[0]
    if winner is not None:
        return {h: float(h == winner) for h in houses}
    s = scores(state, weights)
    top = max(s.values())
    exp = {h: math.exp(SHARPNESS * (s[h] - top)) for h in houses}
    total = sum(exp.values())
    return {h: exp[h] / total for h in houses}
