"""Hook implementations of the Tides of Battle plugin."""

from __future__ import annotations

from westeros import hookimpl
from westeros.engine.content import GameOption

OPTION = "tides_of_battle"


@hookimpl
def register_game_options() -> list[GameOption]:
    return [GameOption(OPTION, "Tides of Battle", False, "Draw a Tides of Battle card in every combat.")]
