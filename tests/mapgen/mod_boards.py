"""Rulesets of the Mother of Dragons boards for the map tests: the 7-player board (the plugin
itself) and, built from the shared fact file alone, one with the Essos areas of the 8-player
board (RULES.md 11.1) added by a stand-in plugin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.content import AreaDef, Ruleset
from westeros.plugins import build_ruleset

FACTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "westeros-2e.json"
"""The shared fact file (beside the repository, as tests/mod reads it)."""
MOD = {"mother_of_dragons": True}
CASTLE = {None: 0, "castle": 1, "stronghold": 2}


def essos_facts() -> dict[str, Any] | None:
    """The fact file's 8-player board, or None where the file is not at hand."""
    if not FACTS.is_file():
        return None
    return json.loads(FACTS.read_text("utf-8"))["mother_of_dragons"]["map_8p_with_essos"]


class Essos:
    """A stand-in for the 8-player content: the fact file's areas missing from ``known`` and
    every pair of the fact file that names one of them."""

    NAME = "essos_stand_in"

    def __init__(self, facts: dict[str, Any], known: set[str]) -> None:
        self.areas = [a for a in facts["areas"] if a["id"] not in known]
        new = {a["id"] for a in self.areas}
        self.pairs = [(a, b) for a, b in facts["adjacent"] if a in new or b in new]

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [
            AreaDef(
                id=a["id"],
                name=a["name"],
                kind=a["kind"],
                castle=CASTLE[a["castle"]],
                crowns=a["crowns"],
                barrels=a["barrels"],
                garrison=a.get("garrison", 0),
                attrs={k: a[k] for k in ("port_of", "port_sea") if k in a},
            )
            for a in self.areas
        ]

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return self.pairs


def seven_player_rules() -> Ruleset:
    """The Ruleset of a game with Mother of Dragons on."""
    return build_ruleset(MOD, autoload=False, strict=True)


def essos_plugin() -> Essos | None:
    """The stand-in for the 8-player areas (None without the fact file)."""
    facts = essos_facts()
    return None if facts is None else Essos(facts, set(seven_player_rules().areas))


def eight_player_rules(plugin: Essos) -> Ruleset:
    """Mother of Dragons with the stand-in's Essos areas."""
    return build_ruleset(MOD, extra=[plugin], autoload=False, strict=True)
