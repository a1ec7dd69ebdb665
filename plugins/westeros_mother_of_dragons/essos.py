"""Essos, the side board of 8-player Mother of Dragons (RULES.md 11.1, 11.2.2, 11.4.1-11.4.2),
built from ``data/`` (``map_8p``: the areas and adjacent pairs the fact file's
``map_8p_with_essos`` adds to the 7-player board).

A Ruleset is built from the game's options, not its player count, so Essos is always part of a
Mother of Dragons board; every setup without House Targaryen blocks all of it (1.10.4), which
leaves the 7-player board of 11.2.1 exactly."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

TARGARYEN = "targaryen"


def essos_areas(data: Any) -> list[dict[str, Any]]:
    """The Essos areas of the data file: Pentos, Braavos, Volantis, Myr, Norvos, The Rhoyne, The
    Disputed Lands, four seas and three ports (11.4.1)."""
    return list(data["map_8p"]["areas"])


def essos_adjacency(data: Any) -> list[tuple[str, str]]:
    """Adjacent pairs with an Essos area; Essos meets Westeros only at sea (11.4.2)."""
    return [(a, b) for a, b in data["map_8p"]["adjacent"]]


def blocked_areas(data: Any, houses: Iterable[str]) -> frozenset[str]:
    """The areas a setup of ``houses`` leaves out of play: all of Essos without Targaryen
    (11.2.1, 11.2.5), nothing with it (11.2.2)."""
    if TARGARYEN in houses:
        return frozenset()
    return frozenset(a["id"] for a in essos_areas(data))
