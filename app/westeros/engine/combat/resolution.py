"""Steps 5-9 of a combat: plugin steps (Tides of Battle, 5.4.5), the Valyrian Steel Blade
(5.4.6), final strength and the victor (5.4.7-5.4.8) and casualties (5.4.9)."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from .. import tracks
from ..choices import ChooseOption
from ..flow import Step, answering_house
from ..state import State, Unit
from .abilities import ability_of
from .context import DEFENDER, SIDES, Combat
from .strength import garrison, icons, played, totals, victor
from .units import DestroyParticipants, destroy

USE = "use"
PASS = "pass"


@dataclasses.dataclass(frozen=True, slots=True)
class PluginSteps(Step):
    """Run the steps of ``state.rules.hooks.combat_steps`` (Tides of Battle, 5.4.5)."""

    def run(self, state: State) -> None:
        steps = []
        for hook in state.rules.hooks.combat_steps:
            steps.extend(hook(state, state.combat))
        if steps:
            state.push(*steps)


@dataclasses.dataclass(frozen=True, slots=True)
class ValyrianSteelBlade(Step):
    """5.4.6: the Blade holder, if fighting (itself or through a house it answers for, a
    vassal: ``rule_answering_house``, 11.10.8) and the Blade is unused this round, may add +1.
    As in S&R he is asked only when the +1 would change the victor, or when a played card
    depends on the gap between the final strengths (``uses_strength_gap``)."""

    def run(self, state: State) -> None:
        if state.blade_used:
            return
        combat: Combat = state.combat
        holder = tracks.holder(state, tracks.FIEFDOMS)
        which = combat.side_of(holder)
        if which is None:
            which = next(
                (w for w in SIDES if answering_house(state, combat.side(w).house) == holder), None
            )
        if which is None:
            return
        without = victor(state, combat, *totals(state, combat, None))
        gap = any(ability.uses_strength_gap for _, ability in played(state, combat))
        if not gap and victor(state, combat, *totals(state, combat, which)) == without:
            return
        state.push(UseBlade(holder, (USE, PASS), "valyrian-steel-blade", which))


@dataclasses.dataclass(frozen=True, slots=True)
class UseBlade(ChooseOption):
    """The Blade holder uses the Blade (+1 for ``which``) or not (5.4.6, 1.6.2)."""

    which: str

    prompt_kind = "use_blade"

    def chosen(self, state: State, option: str) -> None:
        if option == USE:
            state.blade_used = True
            state.combat = state.combat.with_data("blade", self.which)
            state.emit("valyrian_steel_blade", house=self.house)


@dataclasses.dataclass(frozen=True, slots=True)
class DetermineWinner(Step):
    """5.4.7-5.4.8: final totals, the victor (tie: higher on Fiefdoms), and both played cards
    to their owners' discard piles (8.3.1)."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        attacker, defender = totals(state, combat, combat.get("blade"))
        winner = victor(state, combat, attacker, defender)
        combat = dataclasses.replace(combat, winner=winner)
        combat = combat.with_data("strength", (attacker, defender))
        state.combat = combat
        for which in SIDES:
            side = combat.side(which)
            if side.card is not None:
                state.discards[side.house] = (*state.discards[side.house], side.card)
        state.emit(
            "combat_won",
            winner=combat.side(winner).house,
            loser=combat.side(combat.other(winner)).house,
            area=combat.area,
            strength=[attacker, defender],
        )


class Losses(NamedTuple):
    """What losing costs the loser (5.4.9): its garrison (if defending its home), its routed
    units and siege engines (destroyed, not casualties), and ``casualties`` more units of its
    choice: winner's swords − its fortifications, or 0 when its card prevents them
    (``prevented`` then says how many, The Blackfish)."""

    garrison: bool
    doomed: tuple[Unit, ...]
    casualties: int
    prevented: int

    def units_lost(self, army: int) -> int:
        """Units an army of ``army`` units loses in all (it cannot lose more than it has)."""
        return len(self.doomed) + min(self.casualties, army - len(self.doomed))


def losses(state: State, combat: Combat, loser: str) -> Losses:
    """The losses of side ``loser`` of ``combat`` (5.4.9), as they stand now."""
    side = combat.side(loser)
    kinds = state.rules.unit_types
    doomed = tuple(u for u in side.units if u.routed or kinds[u.type].vs_castle is not None)
    swords = icons(state, combat, combat.other(loser))[0]
    forts = icons(state, combat, loser)[1]
    count = max(0, swords - forts)
    prevented = 0
    if count and side.card is not None and ability_of(state, side.card).prevents_casualties:
        count, prevented = 0, count
    lose_garrison = loser == DEFENDER and garrison(state, combat, DEFENDER) > 0
    return Losses(lose_garrison, doomed, count, prevented)


@dataclasses.dataclass(frozen=True, slots=True)
class Casualties(Step):
    """5.4.9: the loser's garrison goes, its routed units and siege engines are destroyed (not
    casualties), then it destroys winner's swords − its fortifications units of its choice,
    unless its card prevents casualties (The Blackfish); see ``losses``."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        loser = combat.loser()
        assert loser is not None
        side = combat.side(loser)
        lost = losses(state, combat, loser)
        if lost.garrison:
            del state.garrisons[combat.area]
            state.emit("garrison_removed", house=side.house, area=combat.area)
        destroy(state, loser, list(lost.doomed), "routed units and siege engines (5.4.9)")
        if lost.prevented:
            state.emit(
                "casualties_prevented", house=side.house, card=side.card, count=lost.prevented
            )
        if lost.casualties:
            state.push(
                DestroyParticipants(side.house, loser, lost.casualties, "casualties (5.4.9)")
            )


@dataclasses.dataclass(frozen=True, slots=True)
class AfterCasualties(Step):
    """Run ``state.rules.hooks.after_casualties`` (Tides of Battle skulls, 5.4.9 item 5)."""

    def run(self, state: State) -> None:
        for hook in state.rules.hooks.after_casualties:
            hook(state, state.combat)
