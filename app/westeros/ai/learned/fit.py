"""Fitting the learned evaluation. The evaluation's utility is a softmax of the houses' scores
(``evaluation.utilities``), so the weights are fitted to exactly that win model: the chance
that house h of a position wins is exp(θ·x_h) / Σ_j exp(θ·x_j) over the houses' feature
vectors x, with θ = ``SHARPNESS`` × the weights. The fit maximizes the likelihood of the
actual winners, with a small L2 penalty, by full-batch gradient descent on features scaled to
unit spread: pure Python, and the same positions always give the same weights."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from .record import Position

ITERATIONS = 600
RATE = 0.5
PENALTY = 1e-3

Vector = list[float]


def chances(theta: Sequence[float], position: Position) -> Vector:
    """Every house's chance to win ``position`` under ``theta`` (a softmax of the logits)."""
    logits = [math.fsum(t * x for t, x in zip(theta, row, strict=True)) for row in position.rows]
    top = max(logits)
    exp = [math.exp(z - top) for z in logits]
    total = math.fsum(exp)
    return [e / total for e in exp]


def evaluate(theta: Sequence[float], positions: Sequence[Position]) -> tuple[float, float]:
    """(mean log loss of the winners, share of positions whose likeliest house won)."""
    loss = 0.0
    hits = 0
    for p in positions:
        chance = chances(theta, p)
        loss -= math.log(max(chance[p.winner], 1e-300))
        hits += chance.index(max(chance)) == p.winner
    n = max(1, len(positions))
    return loss / n, hits / n


def gradient(theta: Sequence[float], positions: Sequence[Position]) -> Vector:
    """The gradient of the mean log loss at ``theta``."""
    grad = [0.0] * len(theta)
    for p in positions:
        chance = chances(theta, p)
        for row, c in zip(p.rows, chance, strict=True):
            for f, x in enumerate(row):
                grad[f] += c * x
        for f, x in enumerate(p.rows[p.winner]):
            grad[f] -= x
    n = len(positions)
    return [g / n for g in grad]


def spreads(positions: Sequence[Position]) -> Vector:
    """Each feature's standard deviation over every house of ``positions`` (1 if constant)."""
    columns = zip(*(row for p in positions for row in p.rows), strict=True)
    return [statistics.pstdev(c) or 1.0 for c in columns]


def fit(positions: Sequence[Position], iterations: int = ITERATIONS) -> Vector:
    """The maximum-likelihood ``theta`` (in the features' own units) for ``positions``."""
    if not positions:
        raise ValueError("no training positions")
    spread = spreads(positions)
    scaled = [
        Position(
            p.game,
            tuple(tuple(x / s for x, s in zip(row, spread, strict=True)) for row in p.rows),
            p.winner,
        )
        for p in positions
    ]
    theta = [0.0] * len(spread)
    for _ in range(iterations):
        grad = gradient(theta, scaled)
        theta = [t - RATE * (g + PENALTY * t) for t, g in zip(theta, grad, strict=True)]
    return [t / s for t, s in zip(theta, spread, strict=True)]
