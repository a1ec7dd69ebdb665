"""Typed schema of the ports plugin's prompt data (RULES.md 6.3; docs/protocol.md)."""

from typing import TypedDict


class PortTakeoverData(TypedDict):
    """``port_takeover`` (6.3.1): put ``min``..``max`` own ships into ``port``, whose
    ``removed`` ships of another house were taken off; ``rule`` is the section that asks."""

    port: str
    min: int
    max: int
    removed: int
    rule: str


PROMPT_DATA: dict[str, type] = {"port_takeover": PortTakeoverData}
"""Prompt kind -> the TypedDict of its ``data`` (this plugin's kinds)."""
