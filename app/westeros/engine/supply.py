"""Supply (1.7, 3.4.3): moving the supply tokens and reconciling armies to the new limits."""

from __future__ import annotations

import dataclasses
import random

from . import board, tracks, victory
from .actions import Action, SelectUnits
from .choices import pick_units, units_to_pairs
from .errors import IllegalChoice
from .flow import Decision, Prompt, Step
from .state import State, Unit

REASON = "supply (3.4.3)"


def update_supply(state: State) -> None:
    """Every house sets its supply position to the barrels it controls, max 6 (3.4.3)."""
    counts = board.barrel_counts(state)
    for house in state.houses:
        state.supply[house] = counts.get(house, 0)
    state.emit("supply", supply={h: state.supply[h] for h in state.houses})


def army_units(state: State, house: str) -> list[tuple[str, Unit]]:
    """``house``'s units standing in its armies (2+ units in one area, 1.7.2), area by area."""
    return [
        (area, u)
        for area, units in sorted(state.units.items())
        if len(units) >= 2 and units[0].house == house
        for u in units
    ]


def choices(state: State, house: str) -> list[tuple[str, str]]:
    """The distinct (area, unit type) picks ``house`` may destroy to reconcile, sorted."""
    return sorted(set(units_to_pairs(army_units(state, house))))


@dataclasses.dataclass(frozen=True, slots=True)
class ReconcileAll(Step):
    """In turn order, every house over its supply limit destroys units of its choice from its
    armies until it is within the limit (3.4.3); then the consequence checks run."""

    def run(self, state: State) -> None:
        state.push(*(Reconcile(h) for h in tracks.turn_order(state)), ReconcileDone())


@dataclasses.dataclass(frozen=True, slots=True)
class Reconcile(Decision):
    """``house`` destroys one unit of one of its armies at a time while it breaks its supply
    limit (3.4.3, §12.43). When only one kind of pick exists it is made without asking."""

    house: str

    def over(self, state: State) -> bool:
        """Does ``house`` break its supply limit now?"""
        return not board.within_supply(state, self.house)

    def prompts(self, state: State) -> dict[str, Prompt]:
        if not self.over(state):
            return {}
        picks = choices(state, self.house)
        if len(picks) < 2:
            return {}
        row = state.setup.supply_table[state.supply[self.house]]
        return {
            self.house: Prompt(
                self.house,
                "reconcile_supply",
                (SelectUnits.kind,),
                {
                    "count": 1,
                    "units": [list(p) for p in picks],
                    "armies": board.army_sizes(state, self.house),
                    "allowed": list(row),
                    "reason": REASON,
                },
            )
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectUnits)
        try:
            chosen = pick_units(army_units(state, house), action.units, 1)
        except IllegalChoice as err:
            raise IllegalChoice(
                f"{err.message}: destroy one unit of an army", rule="3.4.3"
            ) from None
        state.pop()
        self.destroy(state, chosen)

    def run(self, state: State) -> None:
        if self.over(state):
            picks = choices(state, self.house)
            self.destroy(state, pick_units(army_units(state, self.house), (picks[0],), 1))

    def destroy(self, state: State, chosen: list[tuple[str, Unit]]) -> None:
        """Remove ``chosen`` and ask again while the house is still over its limit."""
        for area, unit in chosen:
            board.remove_units(state, area, [unit])
        state.emit("destroyed", house=self.house, units=units_to_pairs(chosen), reason=REASON)
        state.push(self)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return SelectUnits((rnd.choice(choices(state, house)),))


@dataclasses.dataclass(frozen=True, slots=True)
class ReconcileDone(Step):
    """After reconciling: consequence checks and the victory check (Appendix A.3)."""

    def run(self, state: State) -> None:
        victory.consequences(state)
