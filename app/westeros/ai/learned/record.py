"""Training positions for the learned evaluation: fast AI-only games whose seats record, at
the start of each round's Planning phase (4), the evaluation's features of their own house
computed from their own view (RULES.md 0.4.4), labelled after the game with its winner (9)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ...engine.actions import Action
from ...engine.content import Ruleset
from ...engine.public import public_state
from ..baseline import BaselineBot
from ..evaluation import FEATURES, features
from ..protocol import Player
from ..runner import play_game
from ..standard import StandardBot

PLAYER_COUNTS = (3, 4, 5, 6)
SEATS: tuple[Callable[[int], Player], ...] = (BaselineBot, StandardBot)
"""The fast levels that play the training games (no search)."""


def view_features(view: Mapping[str, Any], rules: Ruleset) -> tuple[float, ...]:
    """The evaluation's features (``FEATURES`` order) of the seat's own house, from its view
    and the public rules alone."""
    own = features(public_state(view, rules))[view["house"]]
    return tuple(own[name] for name in FEATURES)


class Recorder:
    """A seat that plays like ``player`` and keeps its house's features by round."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.house = ""
        self.rows: dict[int, tuple[float, ...]] = {}

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """Record the features at the round's first order placement, then answer."""
        if view["prompt"]["kind"] == "place_orders" and view["round"] not in self.rows:
            self.house = view["house"]
            self.rows[view["round"]] = view_features(view, rules)
        return self.player.decide(view, rules, budget)


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """One round of one game: every house's features (sorted by house) and which won."""

    game: int
    rows: tuple[tuple[float, ...], ...]
    winner: int


def positions(rules: Ruleset, seed: int, games: int) -> Iterator[Position]:
    """The positions of ``games`` games drawn from ``seed`` (player counts, seat levels, seat
    and game seeds); a round where some house placed no orders is left out."""
    rnd = random.Random(seed)
    for game in range(games):
        count = rnd.choice(PLAYER_COUNTS)
        seats = [Recorder(rnd.choice(SEATS)(rnd.getrandbits(32))) for _ in range(count)]
        record = play_game(rules, seats, rnd.getrandbits(32))
        by_house = {s.house: s for s in seats if s.house}
        if record.winner not in by_house or len(by_house) < count:
            continue
        order = sorted(by_house)
        for round_ in sorted(by_house[record.winner].rows):
            if all(round_ in by_house[h].rows for h in order):
                rows = tuple(by_house[h].rows[round_] for h in order)
                yield Position(game, rows, order.index(record.winner))
