"""The running local core as the UI tests see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class LiveCore:
    """The running local core: its address, launch token and the app (for its game state)."""

    url: str
    token: str
    app: Any

    def session(self, game_id: str) -> Any:
        """The GameSession of ``game_id`` (the engine state the board must show)."""
        return self.app.state.games.get(game_id)


def seeded_bots(house: str, seat: Any) -> Any:
    """The game's own AI for every other seat, seeded per house so that a run repeats."""
    from westeros.ai import BaselineBot

    return BaselineBot(seed=sum(map(ord, house)))
