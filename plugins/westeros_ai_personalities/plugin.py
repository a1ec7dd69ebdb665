"""Hook implementation of the AI personalities plugin.

Each personality is an ``westeros.ai.personality.AIPersonality``: the weights it gives the
baseline policy (its plans and rollouts) and the evaluation function of the strong AI. They
differ in behaviour one can count (``benchmarks/ai_tournament.py`` prints the figures): how
often they attack, how much power they keep, how much they bid. At the table
(``westeros.ai.deals``) they differ too (``diplomacy``, ``scheming``): the Conqueror values
deals least and breaks a pact for a big enough prize, the Turtle and the Power Broker seek deals
and always keep them, the Opportunist deals readily and breaks a pact as soon as breaking pays
(``benchmarks/deals.py`` prints the figures)."""

from __future__ import annotations

from pathlib import Path

from westeros import hookimpl
from westeros.ai.personality import AIPersonality

CONQUEROR = AIPersonality(
    "conqueror",
    "The Conqueror",
    "Marches on every castle it can reach and accepts heavy losses to take it.",
    aggression=3.0,
    caution=0.4,
    ambition=0.8,
    hoarding=0.5,
    conviction=0.06,
    diplomacy=0.5,
    scheming=1.0,
)
TURTLE = AIPersonality(
    "turtle",
    "The Turtle",
    "Guards its castles with Defense orders and strikes only when it cannot lose.",
    aggression=0.3,
    caution=2.5,
    ambition=0.6,
    hoarding=1.2,
    conviction=0.04,
    diplomacy=1.6,
)
POWER_BROKER = AIPersonality(
    "power-broker",
    "The Power Broker",
    "Gathers power with Consolidate Power orders and spends it to outbid everyone for the "
    "influence tracks.",
    aggression=0.8,
    caution=1.0,
    ambition=2.6,
    hoarding=3.0,
    thrift=2.5,
    conviction=0.03,
    diplomacy=1.3,
)
OPPORTUNIST = AIPersonality(
    "opportunist",
    "The Opportunist",
    "Keeps its power, waits for a house to weaken, then takes its castles.",
    aggression=1.0,
    caution=0.9,
    ambition=0.35,
    hoarding=0.8,
    prey=0.8,
    conviction=0.02,
    diplomacy=1.2,
    scheming=2.0,
)
PERSONALITIES = (CONQUEROR, TURTLE, POWER_BROKER, OPPORTUNIST)


@hookimpl
def register_ai_personalities() -> list[AIPersonality]:
    return list(PERSONALITIES)


@hookimpl
def register_translations() -> list[str]:
    """This plugin's gettext catalogs (``locale/<lang>/LC_MESSAGES/westeros.po``)."""
    return [str(Path(__file__).resolve().parent / "locale")]
