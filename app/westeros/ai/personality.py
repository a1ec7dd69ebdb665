"""AI personalities (DESIGN §3: registered by plugins through ``register_ai_personalities``).

A personality colours every decision of an AI seat: the baseline weights its own plans and
rollouts use (``aggression``, ``caution``, ``ambition``, ``thrift``: ``baseline.Personality``),
how firmly it keeps to its own plan (``conviction``: the search picks another candidate only if
it is better by more than this share of a win chance) and the
weights of its evaluation function — how much it values power (``hoarding``) and the influence
tracks (``ambition``), how much it fears losing castles (``caution``), how much it likes castles
it could take (``aggression``) and whether it singles out the weakest house (``prey``). At the
table (``westeros.ai.deals``) ``diplomacy`` sets how readily it makes and accepts deals and
``scheming`` whether it keeps them: 0 keeps its word always, above 0 it breaks an accepted deal
when breaking shows a gain above ``deals.BREAK_GAIN / scheming``. The bundled plugin
``westeros_ai_personalities`` offers four of them."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping

from ..engine.content import N_
from .baseline import Personality
from .evaluation import DEFAULT_WEIGHTS, Weights


@dataclasses.dataclass(frozen=True, slots=True)
class AIPersonality:
    """A named playing style; ``id`` is unique among registered personalities."""

    id: str
    name: str
    description: str = ""
    aggression: float = 1.0
    caution: float = 1.0
    ambition: float = 1.0
    hoarding: float = 1.0
    prey: float = 0.0
    thrift: float = 1.0
    conviction: float = 0.0
    diplomacy: float = 1.0
    scheming: float = 0.0

    def style(self) -> Personality:
        """The baseline weights of this personality (plans, rollouts, bids)."""
        return Personality(
            self.id, self.name, self.aggression, self.caution, self.ambition, self.thrift
        )

    def weights(self) -> Weights:
        """The evaluation weights of this personality."""
        d = DEFAULT_WEIGHTS
        return dataclasses.replace(
            d,
            power=d.power * self.hoarding,
            tracks=d.tracks * self.ambition,
            danger=d.danger * self.caution,
            reach=d.reach * self.aggression,
            prey=self.prey,
        )


BALANCED = AIPersonality("balanced", N_("Balanced"), N_("Weighs every part of the game evenly."))

ANY = "any"
"""The start screen's choice "any personality": one of the registered ones, drawn with the
game's seed (``draw``) and recorded as the seat's personality."""


def offered(registered: Iterable[AIPersonality]) -> dict[str, AIPersonality]:
    """The personalities an AI seat may be given, by id: the balanced default, then the
    registered ones (``LoadedPlugins.ai_personalities``) in registration order."""
    return {BALANCED.id: BALANCED, **{p.id: p for p in registered}}


def draw(registered: Iterable[AIPersonality], seed: int | str, house: str) -> AIPersonality:
    """The personality "any" gives ``house``: a registered one drawn with the game's ``seed``
    (the same seed draws the same), or the balanced default when none is registered."""
    pool = sorted(registered, key=lambda p: p.id)
    return random.Random(f"{seed}/{house}").choice(pool) if pool else BALANCED


def resolve(recorded: str, known: Mapping[str, AIPersonality]) -> AIPersonality:
    """The personality a seat recorded (``SeatSpec.personality``); an empty record (games
    stored before seats had one) or one no longer registered plays the balanced default."""
    return known.get(recorded or BALANCED.id, BALANCED)
