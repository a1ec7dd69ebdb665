"""The AIs' answers to the choices of the Iron Bank's loans (RULES.md 11.9.6), from the seat's
own view only (``register_ai_answers``): a loan's units go where they are needed, its
improvements on my safest valuable areas, the Pyromancer and the Faceless Men hit the house
with the most castles. Each prompt's ``reason`` is the loan's id."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from westeros.ai.analysis import Situation
from westeros.engine.actions import Action, Choose
from westeros.engine.content import Ruleset

from . import loans

Answer = Callable[[Situation, list[str]], str]


def improved_area(sit: Situation, options: list[str]) -> str:
    """Expert Artificer, Loyal Maester, Savvy Steward, Master-at-Arms: an area I control, the
    safest first, then the most valuable."""
    return max(
        sorted(options),
        key=lambda a: (sit.control.get(a) == sit.me, -sit.danger(a), sit.value(a)),
    )


def enemy_area(sit: Situation, options: list[str]) -> str:
    """An area of the house with the most castles, never mine unless nothing else is offered:
    the castle the Pyromancer degrades, the unit the Faceless Men kill (alone in its area
    first)."""

    def harm(area: str) -> tuple[bool, int, int]:
        holder = sit.control.get(area)
        mine = holder == sit.me or sit.occupant(area) == sit.me
        return (not mine, sit.castles.get(holder or "", 0), -len(sit.units(area)))

    return max(sorted(options), key=harm)


def pyromancer(sit: Situation, options: list[str]) -> str:
    """Pyromancer: degrade an enemy castle (``enemy_area``); its gift is a power improvement."""
    if loans.CROWN in options:
        return loans.CROWN
    return enemy_area(sit, options)


def loan_unit(sit: Situation, options: list[str]) -> str:
    """A loan's unit (``loan_unit``): into the area in most danger, then the most valuable;
    never passed up."""
    areas = [o for o in options if o != loans.PASS] or options
    return max(sorted(areas), key=lambda a: (sit.danger(a), sit.value(a)))


CHOICES: dict[str, Answer] = {
    loans.ARTIFICER: improved_area,
    loans.MAESTER: improved_area,
    loans.STEWARD: improved_area,
    loans.MASTER_AT_ARMS: improved_area,
    loans.PYROMANCER: pyromancer,
    loans.FACELESS: enemy_area,
}
"""Prompt reason (a loan) → its answer."""
LOAN_UNIT = loans.PlaceLoanUnit.prompt_kind


def answer(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AI answer to a loan's choice, from the seat's view alone."""
    prompt = view["prompt"]
    options = list(prompt["data"]["options"])
    choose = loan_unit if prompt["kind"] == LOAN_UNIT else CHOICES[prompt["data"]["reason"]]
    pick = choose(Situation(view, rules), options)
    return Choose(pick if pick in options else options[0])
