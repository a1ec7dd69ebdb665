"""The plugin module named by the ``westeros.plugins`` entry point: its hook implementations.

Westeros registers this module as plugin ``westeros_example_variant`` (the entry point's name)
and calls every function marked with ``@hookimpl`` whose name is a hook of
``westeros.hookspecs``."""

from __future__ import annotations

from pathlib import Path

from westeros import hookimpl
from westeros.engine.content import HouseCard

from .cards import ser_duncan


@hookimpl
def register_house_cards() -> list[HouseCard]:
    """Add Ser Duncan the Tall to House Baratheon's house cards (RULES.md 8)."""
    return [ser_duncan()]


@hookimpl
def register_translations() -> list[str]:
    """The card's name and text in Chinese (``locale/zh_CN/LC_MESSAGES/westeros.po``)."""
    return [str(Path(__file__).resolve().parent / "locale")]
