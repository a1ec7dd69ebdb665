"""Step 10 of a combat: retreat (5.4.10).

- A losing attacker goes back to the area it marched from; if that area is no longer open to it
  (another house now controls it, e.g. a captured home area that reverted, §12.12) the army is
  destroyed. With Robb Stark the defender picks among the areas a losing defender could use,
  plus the origin (S&R).
- A losing defender (or the winner, with Robb Stark, §12.36) picks an area reachable from the
  embattled area by adjacency or the loser's own ship transport, of the right kind, not the
  attacker's origin even if empty (§12.10), not controlled by another house (its units, power
  token or home area), without a neutral force, not blocked; ports only if the loser holds the
  port's land area (the area kind's ``may_enter``) and within the port's unit cap; never an
  area a plugin puts off limits to the loser (``rule_off_limits``, kind "retreat": a vassal
  never enters a port, 6.3.5 with 11.10.6).
- Only candidates with the fewest supply losses may be chosen; the loser destroys that many of
  the retreating units (§12.11). No candidate, or losing every unit, destroys the army.
- Retreating units are routed (1.2.4)."""

from __future__ import annotations

import dataclasses

from .. import board
from ..actions import SelectArea
from ..errors import IllegalMove
from ..flow import Prompt, Step, off_limits
from ..state import State, Unit
from .abilities import ChooseArea, ability_of
from .context import ATTACKER, DEFENDER, Combat
from .units import DestroyParticipants, destroy, put_in_area, set_units, take_from_area

RETREAT = "retreat"
"""The ``rule_off_limits`` kind asked for a retreat area."""


def retreat_areas(state: State, combat: Combat, which: str) -> list[str]:
    """Areas ``which``'s units could retreat to from the embattled area, ignoring supply
    (5.4.10; none a plugin puts off limits, 6.3.5 with 11.10.6)."""
    house = combat.side(which).house
    domain = state.rules.domain[combat.area]
    hooked = bool(state.rules.hooks.off_limits)
    out = []
    for area in sorted(board.reachable(state, house, combat.area, domain)):
        if area in (combat.origin, combat.area) or area in state.neutral:
            continue
        if board.controller(state, area) not in (None, house):
            continue
        if hooked and off_limits(state, house, area, RETREAT):
            continue
        out.append(area)
    return out


def origin_open(state: State, combat: Combat) -> bool:
    """May the attacking army go back to its origin (5.4.10, §12.12)?"""
    origin = combat.origin
    house = combat.attacker.house
    if origin in state.blocked or origin in state.neutral:
        return False
    if not state.rules.kind(origin).rules.may_enter(state, house, origin):
        return False
    return board.controller(state, origin) in (None, house)


def supply_losses(state: State, combat: Combat, which: str, area: str) -> int:
    """How many of ``which``'s retreating (or returning, 5.4.11) units must be destroyed to go
    into ``area`` within supply (1.7) and the area's unit cap (ports, 6.1.3)."""
    side = combat.side(which)
    house = side.house
    count = len(side.units)
    units = state.units.get(area, ())
    present = len(units) if units and units[0].house == house else 0
    cap = state.rules.kind(area).rules.unit_cap(state, area)
    leaving = {combat.area: 0} if which == DEFENDER else {}
    for kept in range(count, 0, -1):
        if cap is not None and present + kept > cap:
            continue
        if board.within_supply(state, house, {**leaving, area: present + kept}):
            return count - kept
    return count


@dataclasses.dataclass(frozen=True, slots=True)
class Retreat(Step):
    """Find where the loser's surviving participating units may retreat and who chooses."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        winner = combat.winner
        assert winner is not None
        loser = combat.other(winner)
        side = combat.side(loser)
        if not side.units:
            return
        card = combat.side(winner).card
        overridden = card is not None and ability_of(state, card).chooses_retreat
        chooser = combat.side(winner if overridden else loser).house
        if loser == ATTACKER:
            candidates = [combat.origin] if origin_open(state, combat) else []
            if overridden:
                candidates = sorted({*candidates, *retreat_areas(state, combat, loser)})
        else:
            candidates = retreat_areas(state, combat, loser)
        losses = {a: supply_losses(state, combat, loser, a) for a in candidates}
        fewest = min(losses.values(), default=len(side.units))
        if fewest >= len(side.units):
            destroy(state, loser, list(side.units), "no retreat (5.4.10)")
            return
        best = tuple(a for a in candidates if losses[a] == fewest)
        if len(best) == 1:
            begin_retreat(state, loser, best[0], fewest)
        else:
            state.push(ChooseRetreat(chooser, best, False, "retreat (5.4.10)", loser, fewest))


def begin_retreat(state: State, which: str, area: str, losses: int) -> None:
    """Retreat ``which`` into ``area``, first destroying ``losses`` units of its choice."""
    house = state.combat.side(which).house
    steps: list[Step] = []
    if losses:
        steps.append(DestroyParticipants(house, which, losses, "supply on retreat (5.4.10)"))
    steps.append(MoveRetreat(which, area))
    state.push(*steps)


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseRetreat(ChooseArea):
    """The loser (or the winner with Robb Stark) picks the retreat area among ``areas``, all of
    which cause the fewest supply losses (5.4.10)."""

    which: str
    losses: int

    rule = "5.4.10"
    error = IllegalMove

    def prompts(self, state: State) -> dict[str, Prompt]:
        """A ``retreat`` prompt naming whose units retreat (``loser``: the chooser's own, or
        the opponent's when Robb Stark lets the winner choose)."""
        data = {
            "areas": list(self.areas),
            "optional": False,
            "reason": self.reason,
            "loser": state.combat.side(self.which).house,
        }
        return {self.house: Prompt(self.house, "retreat", (SelectArea.kind,), data)}

    def chosen(self, state: State, area: str | None) -> None:
        assert area is not None
        begin_retreat(state, self.which, area, self.losses)


@dataclasses.dataclass(frozen=True, slots=True)
class MoveRetreat(Step):
    """Move ``which``'s surviving participating units into ``area``, routed (1.2.4)."""

    which: str
    area: str

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        side = combat.side(self.which)
        if not side.units:
            return
        if self.which == DEFENDER:
            take_from_area(state, combat.area, side.units)
        routed = tuple(Unit(u.house, u.type, True) for u in side.units)
        put_in_area(state, self.area, routed)
        set_units(state, self.which, routed)
        state.combat = state.combat.with_data("retreated_to", self.area)
        state.emit(
            "retreat",
            house=side.house,
            to=self.area,
            units=[u.type for u in routed],
        )
