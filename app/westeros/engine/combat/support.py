"""Step 1 of a combat: the call for support (5.4.1).

Eligible support comes from ``board.support_sources`` (adjacent Support orders of a kind allowed
to support the embattled area: land never supports sea, a port only its own sea; never by ship
transport). A combatant's own support always counts for itself; every other house with eligible
support declares once, in turn order, for the attacker, the defender or nobody; all of one
house's support goes the same way (S&R)."""

from __future__ import annotations

import dataclasses
import random

from .. import board, tracks
from ..actions import Action, Choose
from ..errors import IllegalChoice
from ..flow import Decision, Prompt, Step
from ..state import State
from .context import ATTACKER, DEFENDER, Combat

NOBODY = "none"
DECLARATIONS = (ATTACKER, DEFENDER, NOBODY)


def with_own_support(state: State, combat: Combat) -> tuple[Combat, dict[str, list[str]]]:
    """``combat`` with each combatant's own eligible support counted (5.4.1), and the eligible
    support areas of every other house, which must declare."""
    by_house: dict[str, list[str]] = {}
    for area in board.support_sources(state, combat.area):
        by_house.setdefault(state.orders[area].house, []).append(area)
    for which in (ATTACKER, DEFENDER):
        side = combat.side(which)
        own = tuple(by_house.pop(side.house, ()))
        combat = combat.with_side(which, dataclasses.replace(side, support=own))
    return combat, by_house


@dataclasses.dataclass(frozen=True, slots=True)
class CallForSupport(Step):
    """Count the combatants' own support and ask every other eligible house, in turn order."""

    def run(self, state: State) -> None:
        combat, others = with_own_support(state, state.combat)
        state.combat = combat
        state.push(
            *(
                DeclareSupport(house, tuple(others[house]))
                for house in tracks.turn_order(state)
                if house in others
            )
        )


@dataclasses.dataclass(frozen=True, slots=True)
class DeclareSupport(Decision):
    """``house`` declares whom its support ``areas`` help: ``attacker``, ``defender`` or
    ``none`` (5.4.1). Declarations are public and final."""

    house: str
    areas: tuple[str, ...]

    def options(self, state: State) -> tuple[str, ...]:
        """The declarations open to the house: all three unless a plugin narrows them
        (``rule_support_options``; a vassal always supports its family, 11.10.6)."""
        for hook in state.rules.hooks.support_options:
            narrowed = hook(state, state.combat, self.house)
            if narrowed is not None:
                return tuple(o for o in DECLARATIONS if o in narrowed)
        return DECLARATIONS

    def prompts(self, state: State) -> dict[str, Prompt]:
        combat: Combat = state.combat
        options = self.options(state)
        if len(options) == 1:
            return {}
        return {
            self.house: Prompt(
                self.house,
                "declare_support",
                (Choose.kind,),
                {
                    "options": list(options),
                    "attacker": combat.attacker.house,
                    "defender": combat.defender.house,
                    "area": combat.area,
                    "support_areas": list(self.areas),
                },
            )
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        options = self.options(state)
        if action.option not in options:
            raise IllegalChoice(
                f"support goes to {', '.join(options)}, not {action.option!r}", rule="5.4.1"
            )
        state.pop()
        self.declare(state, action.option)

    def run(self, state: State) -> None:
        """A single open declaration is made without asking."""
        self.declare(state, self.options(state)[0])

    def declare(self, state: State, option: str) -> None:
        """The support goes to ``option`` (a side, or nobody)."""
        combat: Combat = state.combat
        if option != NOBODY:
            side = combat.side(option)
            support = side.support + self.areas
            state.combat = combat.with_side(option, dataclasses.replace(side, support=support))
        state.emit("support_declared", house=self.house, side=option, areas=list(self.areas))

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice(self.options(state)))
