"""The round sequence (3.1, 5.7): Westeros phase (from round 2), Planning, Action, Clean Up."""

from __future__ import annotations

import dataclasses

from . import victory
from .flow import Step
from .state import State, Unit

LAST_ROUND = 10


@dataclasses.dataclass(frozen=True, slots=True)
class Round(Step):
    """Start a round: queue its phases (3.1)."""

    def run(self, state: State) -> None:
        from .action_phase import ActionPhase
        from .planning import PlanningPhase
        from .westeros_phase import WesterosPhase

        state.emit("round", round=state.round)
        steps: list[Step] = [PlanningPhase(), ActionPhase(), CleanUp()]
        if state.round > 1:
            steps.insert(0, WesterosPhase())
        state.push(*steps)
        for hook in state.rules.hooks.round_start:
            hook(state)


@dataclasses.dataclass(frozen=True, slots=True)
class CleanUp(Step):
    """Clean Up (5.7): remove orders, restore routed units, refresh Raven and Blade; end the
    game after round 10 (9.2) or start the next round."""

    def run(self, state: State) -> None:
        state.orders.clear()
        for area, units in list(state.units.items()):
            if any(u.routed for u in units):
                state.units[area] = tuple(Unit(u.house, u.type) for u in units)
        state.raven_used = False
        state.blade_used = False
        state.restrictions = frozenset()
        state.placed = {h: frozenset() for h in state.houses}
        for hook in state.rules.hooks.round_end:
            hook(state)
        if victory.consequences(state):
            return
        if state.round >= LAST_ROUND:
            victory.end_game(state, victory.ranking(state)[0])
            return
        state.round += 1
        state.push(Round())
