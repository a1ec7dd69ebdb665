"""The baseline AI's combat decisions (RULES.md 5.4): house cards, support, casualties,
retreats, Tides of Battle redraws, and the units it loses to supply (3.4.3)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...engine.actions import Action, Choose, SelectUnits
from ...engine.combat.context import Combat
from ...engine.combat.strength import totals, victor
from ..analysis import FIEFDOMS, Situation
from .policy import UNIT_WORTH, Data, Policy


class CombatPolicy(Policy):
    """Combat (5.4): the card that wins cheapest, support against the bigger danger, the
    cheapest losses, the safest retreat."""

    def wins(
        self, sit: Situation, combat: Combat, which: str, mine: str | None, theirs: str | None
    ) -> bool:
        """Would ``which`` win ``combat`` with card ``mine`` against ``theirs`` (5.4.7-5.4.8),
        the unused Valyrian Steel Blade added for its holder (5.4.6)?"""
        other = combat.other(which)
        trial = combat.with_side(which, dataclasses.replace(combat.side(which), card=mine))
        trial = trial.with_side(other, dataclasses.replace(trial.side(other), card=theirs))
        s = sit.state
        blade = None
        if not s.blade_used:
            blade = trial.side_of(s.tracks[FIEFDOMS][0])
        return victor(s, trial, *totals(s, trial, blade)) == which

    def choose_house_card(self, sit: Situation, data: Data) -> Action:
        """House card (5.4.3; also a forced replacement, 5.4.4): weigh each card's chance to win
        against the opponent's likely cards by the stakes, minus what playing it costs — the
        cheapest sure winner, the weakest card in a lost fight."""
        combat = sit.state.combat
        cards = sit.rules.house_cards
        which = data["side"]
        other = combat.other(which)
        enemy = combat.side(other)
        opp: list[str | None] = (
            [enemy.card] if enemy.card is not None else list(sit.state.hands.get(enemy.house, ()))
        )
        if not opp:
            opp = [None]
        weight = {o: 1.0 + (cards[o].strength if o else 0) for o in opp}
        stake = 2.0 + sit.value(combat.area)
        best: tuple[float, str] | None = None
        for card in data["cards"]:
            c = cards[card]
            p = sum(weight[o] for o in opp if self.wins(sit, combat, which, card, o))
            p /= sum(weight.values())
            worth = c.strength + 0.25 * (c.swords + c.fortifications)
            score = p * stake - 0.35 * worth + 0.15 * (c.swords * p + c.fortifications * (1 - p))
            score += self.noise()
            if best is None or score > best[0]:
                best = (score, card)
        assert best is not None
        return Choose(best[1])

    def declare_support(self, sit: Situation, data: Data) -> Action:
        """Support (5.4.1): help the side whose opponent is the bigger danger — never the house
        leading the game; with no difference, the defender (no change of control)."""

        def danger(house: str) -> float:
            near = sum(
                sit.attack_potential(house, a) for a in sit.state.units if sit.occupant(a) == sit.me
            )
            return sit.castles.get(house, 0) + 0.1 * near

        attacker, defender = data["attacker"], data["defender"]
        gap = danger(attacker) - danger(defender)
        side, house = ("defender", defender) if gap >= 0 else ("attacker", attacker)
        if house == sit.leader or (abs(gap) < 0.3 and house == attacker):
            return Choose("none")
        return Choose(side)

    def destroy_units(self, sit: Situation, data: Data) -> Action:
        """Destroy units of my choice (casualties 5.4.9, wildlings 7.3, Tides 10.4): the least
        valuable ones, never emptying a valuable area if another choice exists."""
        return SelectUnits(self.cheapest(sit, list(data["units"]), data["count"]))

    def cheapest(self, sit: Situation, units: list[Any], count: int) -> tuple[tuple[str, str], ...]:
        """``count`` of ``units`` ((area, type) pairs, one per unit) that cost me least."""
        left = {a: len(sit.units(a)) for a, _ in units}
        chosen: list[tuple[str, str]] = []
        pool = [(a, t) for a, t in units]

        def cost(pair: tuple[str, str]) -> float:
            area, unit = pair
            value = UNIT_WORTH.get(unit, 1.0) * (1 + 0.5 * sit.danger(area))
            if left[area] == 1 and sit.rules.areas[area].home_of != sit.me:
                value += sit.value(area)
            return value

        for _ in range(count):
            pick = min(pool, key=cost)
            pool.remove(pick)
            chosen.append(pick)
            left[pick[0]] -= 1
        return tuple(chosen)

    def reconcile_supply(self, sit: Situation, data: Data) -> Action:
        """Reconcile (3.4.3): destroy the unit that brings my armies closest to the limit."""
        allowed = list(data["allowed"])
        sizes = {a: len(u) for a, u in sit.state.units.items() if u[0].house == sit.me}

        def excess(new: dict[str, int]) -> int:
            armies = sorted((n for n in new.values() if n >= 2), reverse=True)
            over = sum(max(0, n - cap) for n, cap in zip(armies, allowed, strict=False))
            return over + sum(n - 1 for n in armies[len(allowed) :])

        def key(pair: list[str]) -> tuple[int, float]:
            area, unit = pair
            after = excess({**sizes, area: sizes[area] - 1})
            return after, UNIT_WORTH.get(unit, 1.0) + sit.value(area) * 0.1

        area, unit = min(data["units"], key=key)
        return SelectUnits(((area, unit),))

    def retreat(self, sit: Situation, areas: list[str]) -> str:
        """Retreat (5.4.10): my units go where they are safest and hold most; choosing for the
        opponent (Robb Stark), the area where my armies can reach them best."""
        combat = sit.state.combat
        loser = combat.side(combat.other(combat.winner or "attacker")).house
        if loser == sit.me:
            return max(
                areas,
                key=lambda a: (
                    (sit.value(a) if sit.control[a] == sit.me else 0.0)
                    + (0.5 if sit.occupant(a) == sit.me else 0.0)
                    - 0.4 * sit.threat(a)
                ),
            )
        return max(areas, key=lambda a: sit.attack_potential(sit.me, a) - 0.2 * sit.value(a, loser))
