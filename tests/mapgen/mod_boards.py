"""The Mother of Dragons board for the map tests (RULES.md 11.1): the plugin's own ruleset, with
the 7-player areas and the Essos side board."""

from __future__ import annotations

from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

MOD = {"mother_of_dragons": True}


def seven_player_rules() -> Ruleset:
    """The Ruleset of a game with Mother of Dragons on."""
    return build_ruleset(MOD, autoload=False, strict=True)
