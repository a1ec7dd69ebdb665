"""Small reusable decisions: pick an option, destroy units of one's choice."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from . import board
from .actions import Action, Choose, SelectUnits
from .errors import IllegalChoice
from .flow import Decision, Prompt
from .state import State, Unit


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseOption(Decision):
    """``house`` picks one of ``options``; subclasses implement ``chosen`` (0.4.2).

    ``reason`` names the rule or card that asks (shown to the player); ``prompt_kind`` is the
    prompt's kind, which a decision with its own screen overrides (the board chooses screens by
    kind, never by reason)."""

    house: str
    options: tuple[str, ...]
    reason: str

    prompt_kind: ClassVar[str] = "choose_option"
    logged: ClassVar[bool] = True
    """Whether the choice is logged as such ("chose"); False for a step whose own events say
    what was chosen, when its options are built in play and are no words a log can show."""

    def prompts(self, state: State) -> dict[str, Prompt]:
        return {
            self.house: Prompt(
                self.house,
                self.prompt_kind,
                (Choose.kind,),
                {"options": list(self.options), "reason": self.reason},
            )
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        if action.option not in self.options:
            raise IllegalChoice(f"{action.option!r} is not one of {list(self.options)}")
        state.pop()
        if self.logged:
            state.emit("chose", house=house, option=action.option, reason=self.reason)
        self.chosen(state, action.option)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice(self.options))

    def chosen(self, state: State, option: str) -> None:
        """Carry out ``option`` (the step is already popped)."""
        raise NotImplementedError


def units_to_pairs(units: list[tuple[str, Unit]]) -> list[tuple[str, str]]:
    """(area, Unit) pairs as (area, unit type) pairs for prompts and actions."""
    return [(a, u.type) for a, u in units]


@dataclasses.dataclass(frozen=True, slots=True)
class DestroyUnits(Decision):
    """``house`` destroys ``count`` of its own units of its choice (wildling penalties, supply).

    ``areas`` limits where (empty: anywhere); ``types`` limits unit types (empty: any).
    If the house has no more than ``count`` eligible units, all are destroyed without asking
    (0.4.1). After destruction the consequence checks run (Appendix A.3)."""

    house: str
    count: int
    reason: str
    areas: tuple[str, ...] = ()
    types: tuple[str, ...] = ()

    def eligible(self, state: State) -> list[tuple[str, Unit]]:
        """Units the house may choose from, as (area, unit) pairs."""
        out = []
        for area, units in state.units.items():
            if self.areas and area not in self.areas:
                continue
            for u in units:
                if u.house == self.house and (not self.types or u.type in self.types):
                    out.append((area, u))
        return out

    def prompts(self, state: State) -> dict[str, Prompt]:
        units = self.eligible(state)
        if len(units) <= self.count or self.count <= 0:
            return {}
        return {
            self.house: Prompt(
                self.house,
                "destroy_units",
                (SelectUnits.kind,),
                {"count": self.count, "units": units_to_pairs(units), "reason": self.reason},
            )
        }

    def run(self, state: State) -> None:
        if self.count > 0:
            self.destroy(state, self.eligible(state))

    def destroy(self, state: State, chosen: list[tuple[str, Unit]]) -> None:
        """Remove ``chosen`` and run the consequence checks."""
        from .victory import consequences

        for area, unit in chosen:
            board.remove_units(state, area, [unit])
        state.emit("destroyed", house=self.house, units=units_to_pairs(chosen), reason=self.reason)
        consequences(state)

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectUnits)
        chosen = pick_units(self.eligible(state), action.units, self.count)
        state.pop()
        self.destroy(state, chosen)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        units = self.eligible(state)
        return SelectUnits(tuple(units_to_pairs(rnd.sample(units, self.count))))


def pick_units(
    eligible: list[tuple[str, Unit]], wanted: tuple[tuple[str, str], ...], count: int
) -> list[tuple[str, Unit]]:
    """Match ``wanted`` (area, type) pairs against ``eligible`` units; exactly ``count`` of them.

    Routed units are matched before unrouted ones of the same type (they are worth less)."""
    if len(wanted) != count:
        raise IllegalChoice(f"choose exactly {count} unit(s), not {len(wanted)}")
    pool = sorted(eligible, key=lambda p: not p[1].routed)
    chosen = []
    for area, unit_type in wanted:
        for i, (a, u) in enumerate(pool):
            if a == area and u.type == unit_type:
                chosen.append(pool.pop(i))
                break
        else:
            raise IllegalChoice(f"no eligible {unit_type} in {area}")
    return chosen
