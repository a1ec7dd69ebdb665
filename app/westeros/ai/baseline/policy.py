"""What every phase policy of the baseline AI shares: its tuning constants, the personality
weights (DESIGN §3), the seeded tie-breaking noise and the muster check used by planning and
by Consolidate Power (1.2.2, 1.7)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from ...engine import board
from ...engine.content import LAND
from ..analysis import Situation

Data = Mapping[str, Any]
Token = Mapping[str, Any]
CONSOLIDATE = "consolidate_power"
MIN_MARCH_GAIN = 0.4
TRACK_WEIGHT = {"iron_throne": 1.0, "fiefdoms": 0.8, "kings_court": 1.1}
BID_SHARE = {"iron_throne": 0.3, "fiefdoms": 0.25, "kings_court": 0.45}
UNIT_WORTH = {"footman": 1.0, "knight": 2.0, "siege_engine": 1.5, "ship": 1.1}
CALM_WILDLING_CARDS = frozenset({"silence-at-the-wall"})
HOLD_OPTIONS = ("keep_on_top", "move_to_bottom")


@dataclasses.dataclass(frozen=True, slots=True)
class Personality:
    """Weights that colour the baseline AI's choices (AI personalities, DESIGN §3):
    ``aggression`` scales the gain of attacks, ``caution`` the value of defence, ``ambition``
    the share of power bid on the influence tracks, ``thrift`` the value of gathering power with
    Consolidate Power orders (5.6.1)."""

    id: str = "baseline"
    name: str = "Baseline"
    aggression: float = 1.0
    caution: float = 1.0
    ambition: float = 1.0
    thrift: float = 1.0


BASELINE = Personality()


class Policy:
    """The state a phase policy keeps: the seeded generator and the personality."""

    def __init__(self, seed: int = 0, personality: Personality = BASELINE) -> None:
        self.rnd = random.Random(seed)
        self.personality = personality

    def noise(self) -> float:
        """A tiny seeded jitter that breaks ties between equally good choices."""
        return self.rnd.random() * 1e-3

    def can_muster(self, sit: Situation, area: str) -> bool:
        """Could a unit be mustered in ``area`` now (pool 1.2.2, supply 1.7)?"""
        s = sit.state
        here = {area: len(sit.units(area)) + 1}
        land = any(
            board.available(s, sit.me, t.id) > 0
            for t in sit.rules.unit_types.values()
            if t.domain == LAND and t.musterable
        )
        return land and board.within_supply(s, sit.me, here)
