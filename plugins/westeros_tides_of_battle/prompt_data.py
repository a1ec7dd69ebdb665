"""Typed schema of the Tides of Battle plugin's prompt data (RULES.md 10.3; docs/protocol.md)."""

from typing import TypedDict


class TidesRedrawData(TypedDict):
    """``tides_redraw`` (10.3): the Blade holder keeps his drawn ``card`` or redraws."""

    options: list[str]
    card: str
    reason: str


PROMPT_DATA: dict[str, type] = {"tides_redraw": TidesRedrawData}
"""Prompt kind -> the TypedDict of its ``data`` (this plugin's kinds)."""
