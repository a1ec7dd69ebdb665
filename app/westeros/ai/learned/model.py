"""The learned evaluation's model file (``westeros/ai/data/learned_weights.json``): the fitted
weights by feature name, the seed and number of games they come from and the fit's figures.
It is written with sorted keys and rounded numbers, so the same seed writes the same bytes."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..evaluation import FEATURES, Weights

MODEL_FILE = "learned_weights.json"


def to_weights(model: Mapping[str, Any]) -> Weights:
    """The evaluation weights of ``model``; it must name exactly the evaluation's features."""
    if sorted(model["features"]) != sorted(FEATURES):
        raise ValueError(f"the model's features {model['features']} are not {list(FEATURES)}")
    return Weights(**{name: float(model["weights"][name]) for name in FEATURES})


def read() -> dict[str, Any]:
    """The model shipped with the package."""
    text = resources.files("westeros.ai").joinpath("data", MODEL_FILE).read_text("utf-8")
    model: dict[str, Any] = json.loads(text)
    return model


@functools.cache
def learned_weights() -> Weights:
    """The shipped model's weights (read once)."""
    return to_weights(read())


def dumps(model: Mapping[str, Any]) -> str:
    """``model`` as the text of its file."""
    return json.dumps(model, indent=2, sort_keys=True) + "\n"
