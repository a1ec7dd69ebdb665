"""Ser Duncan the Tall, a variant house card for House Baratheon, and its ability.

An ability is a ``CardAbility`` subclass that overrides only what the card changes; here a
constant strength modifier (RULES.md 8.1 "K"), in force whenever combat strength is computed.
The name and text are marked with ``N_`` so that extraction finds them for the catalog."""

from __future__ import annotations

from westeros.engine.combat.abilities import CardAbility
from westeros.engine.combat.context import DEFENDER, Combat
from westeros.engine.content import N_, HouseCard
from westeros.engine.state import State

CARD_ID = "ser-duncan-the-tall"
DEFENCE_BONUS = 2


class DuncanTheTall(CardAbility):
    """If you are defending, +2 combat strength."""

    __slots__ = ()

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return DEFENCE_BONUS if side == DEFENDER else 0


def ser_duncan() -> HouseCard:
    """The card: strength 2, one fortification, the ability above."""
    return HouseCard(
        id=CARD_ID,
        house="baratheon",
        name=N_("Ser Duncan the Tall"),
        strength=2,
        fortifications=1,
        ability=DuncanTheTall(),
        text=N_("If you are defending, +2 combat strength."),
    )
