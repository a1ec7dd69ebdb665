"""Abilities of the 42 base house cards (RULES.md 8.2), keyed by card id."""

from typing import Any

ABILITIES: dict[str, Any] = {}
