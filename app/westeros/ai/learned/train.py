"""The one command of the learned evaluation (issue 15, point 2):

    python -m westeros.ai.learned.train --seed S --games N [--out PATH]

plays N fast games drawn from the seed (``record``), holds out every fifth game, fits the
weights on the others (``fit``) and writes the model file (default: the packaged one) with the
fit's figures — log loss and accuracy of the learned weights and, for comparison, of the
hand-set weights and of an even guess (whose accuracy is that of always naming the first
house), on the training and on the held-out games. The same seed and number of games write the
same bytes."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...engine.content import Ruleset
from ...plugins import build_ruleset
from ..evaluation import DEFAULT_WEIGHTS, FEATURES, SHARPNESS
from .fit import ITERATIONS, PENALTY, RATE, evaluate, fit
from .model import MODEL_FILE, dumps
from .record import Position, positions

HELD_OUT = 5
"""Every fifth game is held out of the fit."""
DIGITS = 6
PACKAGED = Path(__file__).resolve().parent.parent / "data" / MODEL_FILE


def rounded(x: float) -> float:
    """``x`` to ``DIGITS`` significant digits (the file's numbers)."""
    return float(f"{x:.{DIGITS}g}")


def figures(theta: Sequence[float], chosen: Sequence[Position]) -> dict[str, float]:
    """Log loss and accuracy of ``theta`` on ``chosen``, and their number."""
    loss, accuracy = evaluate(theta, chosen)
    return {"loss": rounded(loss), "accuracy": rounded(accuracy), "positions": len(chosen)}


def train(seed: int, games: int, rules: Ruleset | None = None) -> dict[str, Any]:
    """The model fitted to ``games`` games drawn from ``seed`` (base game, bundled plugins)."""
    found = list(positions(rules or build_ruleset(autoload=False), seed, games))
    held = [p for p in found if p.game % HELD_OUT == HELD_OUT - 1]
    kept = [p for p in found if p.game % HELD_OUT != HELD_OUT - 1]
    weights = {n: rounded(t / SHARPNESS) for n, t in zip(FEATURES, fit(kept), strict=True)}
    compared = {
        "learned": [SHARPNESS * weights[n] for n in FEATURES],
        "hand_set": [SHARPNESS * getattr(DEFAULT_WEIGHTS, n) for n in FEATURES],
        "even": [0.0] * len(FEATURES),
    }
    return {
        "format": 1,
        "seed": seed,
        "games": games,
        "features": list(FEATURES),
        "weights": weights,
        "fit": {"iterations": ITERATIONS, "rate": RATE, "penalty": PENALTY, "held_out": HELD_OUT},
        "training": {name: figures(t, kept) for name, t in compared.items()},
        "held_out": {name: figures(t, held) for name, t in compared.items()},
    }


def summary(model: Mapping[str, Any]) -> str:
    """The fit's figures as printed lines."""
    lines = [f"seed {model['seed']}, {model['games']} games"]
    for part in ("training", "held_out"):
        rows = model[part]
        lines.append(
            f"{part}: {rows['learned']['positions']} positions; log loss / accuracy: "
            + ", ".join(f"{k} {v['loss']:.4f} / {v['accuracy']:.1%}" for k, v in rows.items())
        )
    lines.append("weights: " + ", ".join(f"{k} {v:g}" for k, v in model["weights"].items()))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", type=Path, default=PACKAGED, help="the model file to write")
    args = parser.parse_args(argv)
    model = train(args.seed, args.games)
    args.out.write_text(dumps(model), encoding="utf-8")
    print(summary(model))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
