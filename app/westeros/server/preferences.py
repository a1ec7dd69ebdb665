"""The player's board preferences (issue 13.7): the sound when a decision waits (volume, mute),
desktop notifications, and the AI's pace. Stored as one application setting (``KEY``) so that
they survive a restart and a change is written at once or not at all.

The AI pace picks the pause the AI runner makes before each AI decision (``PACES``). Until a
pace is chosen, the pause the core was launched with applies (``--ai-delay``; 0 in tests)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

KEY = "board_preferences"
"""The application setting (``GameStore.setting``) that holds the preferences."""

PACES: dict[str, float] = {"instant": 0.0, "normal": 0.6, "slow": 1.5}
"""Seconds the AI runner waits before each AI decision, by pace."""

VOLUME_RANGE = (0, 100)


class PreferenceError(ValueError):
    """A preference change that cannot be applied; the message says which field and why."""


@dataclass(frozen=True)
class Preferences:
    """What the player chose; ``ai_pace`` None means "as launched"."""

    volume: int = 70
    muted: bool = False
    notifications: bool = True
    ai_pace: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The preferences as the settings route sends them."""
        return asdict(self)

    def pace_delay(self, launch_delay: float) -> float:
        """The pause before each AI decision: the chosen pace's, else ``launch_delay``."""
        return PACES[self.ai_pace] if self.ai_pace is not None else max(0.0, launch_delay)


def _check(name: str, value: Any) -> Any:
    """``value`` if it is a valid ``name``, else PreferenceError (bool is not a number)."""
    if name == "volume":
        low, high = VOLUME_RANGE
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise PreferenceError(f"volume must be a whole number from {low} to {high}")
    elif name in ("muted", "notifications"):
        if not isinstance(value, bool):
            raise PreferenceError(f"{name} must be true or false")
    elif name == "ai_pace":
        if value not in PACES:
            raise PreferenceError(f"ai_pace must be one of {', '.join(PACES)}")
    else:
        known = ", ".join(Preferences.__dataclass_fields__)
        raise PreferenceError(f"unknown setting {name!r} (known: {known})")
    return value


def changed(current: Preferences, change: Any) -> Preferences:
    """``current`` with every field of ``change`` (a JSON object) applied, each one checked
    first: one bad field and nothing is applied (PreferenceError)."""
    if not isinstance(change, Mapping) or not change:
        raise PreferenceError("send a JSON object with at least one setting")
    return replace(current, **{str(k): _check(str(k), v) for k, v in change.items()})


def loaded(stored: Any) -> Preferences:
    """The stored preferences; a field that is missing or no longer valid takes its default."""
    found = Preferences()
    if isinstance(stored, Mapping):
        for name, value in stored.items():
            try:
                found = changed(found, {name: value})
            except PreferenceError:
                continue
    return found
