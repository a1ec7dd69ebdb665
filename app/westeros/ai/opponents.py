"""Which model policy each other house plays like (issue 15: Hard against a mixed field).

At its Planning decision (4) a searching seat predicts the other houses' orders with every model
policy (``rollout.MODELS``). Once the orders are revealed (4.1), it counts for each house and
model the revealed orders whose type that model predicted in that area. A house is then predicted
and simulated with the model that has matched it best so far, once that model leads the level's
own model by ``LEAD`` orders. Until then, the level's own model is used.

Only public information is read: the areas and tokens of the prompt (4.1) and the revealed orders
of the seat's own view."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from ..engine.content import Ruleset
from ..engine.planning import PlaceOrders

LEAD = 3
"""How many more revealed orders another model must have predicted than the level's own before a
house is simulated with it."""

Predictions = Mapping[str, Mapping[str, PlaceOrders]]
"""model → house → the orders that model predicted for the house."""


@dataclasses.dataclass(slots=True)
class _Expected:
    round: int
    types: dict[str, dict[str, dict[str, str]]]
    """model → house → area → predicted order type."""


class OpponentModels:
    """The model each other house of one seat's game plays like (see module docstring)."""

    def __init__(self, default: str) -> None:
        self.default = default
        self.matches: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.expected: _Expected | None = None

    def expect(self, round_: int, predictions: Predictions, rules: Ruleset) -> None:
        """Keep this round's ``predictions`` until the orders are revealed."""
        tokens = rules.order_tokens
        self.expected = _Expected(
            round_,
            {
                model: {
                    house: {area: tokens[token].type for area, token in placement.orders}
                    for house, placement in houses.items()
                }
                for model, houses in predictions.items()
            },
        )

    def observe(self, view: Mapping[str, Any], rules: Ruleset) -> None:
        """Score the kept predictions against the orders revealed in ``view`` (4.1), once per
        round: at the first view that shows another house's orders."""
        expected = self.expected
        if expected is None or view["round"] != expected.round:
            if expected is not None and view["round"] > expected.round:
                self.expected = None
            return
        tokens = rules.order_tokens
        shown: defaultdict[str, dict[str, str]] = defaultdict(dict)
        for area, (house, token) in view["orders"].items():
            if house != view["house"]:
                shown[house][area] = tokens[token].type
        if not shown:
            return
        for model, houses in expected.types.items():
            for house, predicted in houses.items():
                revealed = shown.get(house, {})
                self.matches[house][model] += sum(
                    1 for area, kind in revealed.items() if predicted.get(area) == kind
                )
        self.expected = None

    def to_json(self) -> dict[str, Any]:
        """The reading so far, JSON-ready: an online seat's AI is made anew for each decision
        in a pool process (``online.ai_pool``), so its reading travels with each decision."""
        expected = self.expected
        return {
            "matches": {house: dict(counts) for house, counts in self.matches.items()},
            "expected": None if expected is None else dataclasses.asdict(expected),
        }

    @classmethod
    def from_json(cls, default: str, data: Mapping[str, Any]) -> OpponentModels:
        """The reading ``to_json`` gave, for a level whose own model is ``default``."""
        reading = cls(default)
        for house, counts in data["matches"].items():
            reading.matches[house].update(counts)
        expected = data["expected"]
        if expected is not None:
            reading.expected = _Expected(expected["round"], expected["types"])
        return reading

    def models(self) -> dict[str, str]:
        """house → the model it is predicted and simulated with, for the houses that differ
        from the level's own model."""
        out = {}
        for house, counts in self.matches.items():
            best = max(sorted(counts), key=lambda m: counts[m])
            if best != self.default and counts[best] >= counts[self.default] + LEAD:
                out[house] = best
        return out
