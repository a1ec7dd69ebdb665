"""Deterministic randomness kept inside the state as one integer (DESIGN §2).

SplitMix64: tiny, fast to copy, identical on every platform; a game is its seed plus its log."""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def step(seed: int) -> tuple[int, int]:
    """Advance the generator: return (random 64-bit value, next seed)."""
    seed = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), seed


def below(seed: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) and the next seed."""
    value, seed = step(seed)
    return value % n, seed


def shuffled(seed: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """A Fisher-Yates shuffle of ``items`` and the next seed."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, seed = below(seed, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), seed


def seed_from(text: str | int) -> int:
    """Turn a user seed (number or any text) into a generator seed."""
    if isinstance(text, int):
        return text & _MASK
    value = 0
    for ch in str(text).encode():
        value = ((value * 1099511628211) ^ ch) & _MASK
    return value
