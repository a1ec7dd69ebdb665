"""Ser Duncan the Tall, a variant house card for House Baratheon, and its ability.

An ability is a ``CardAbility`` subclass that overrides only what the card changes; here a
constant strength modifier (RULES.md 8.1 "K"), in force whenever combat strength is computed."""

from __future__ import annotations

from typing import ClassVar

from westeros.engine.combat.abilities import CardAbility
from westeros.engine.combat.context import DEFENDER, Combat
from westeros.engine.content import HouseCard
from westeros.engine.state import State

CARD_ID = "ser-duncan-the-tall"
DEFENCE_BONUS = 2


class DuncanTheTall(CardAbility):
    """If you are defending, +2 combat strength."""

    __slots__ = ()

    text: ClassVar[str] = "If you are defending, +2 combat strength."

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return DEFENCE_BONUS if side == DEFENDER else 0


def ser_duncan() -> HouseCard:
    """The card: strength 2, one fortification, the ability above."""
    ability = DuncanTheTall()
    return HouseCard(
        id=CARD_ID,
        house="baratheon",
        name="Ser Duncan the Tall",
        strength=2,
        fortifications=1,
        ability=ability,
        text=ability.text,
    )
