"""The rules engine: pure, deterministic, standard library only (DESIGN §2).

Data in, data out: ``new_game`` → ``pending`` / ``legal`` → ``apply`` → ``player_view``."""

from .actions import Action, Bid, Choose, SelectArea, SelectUnits
from .content import Ruleset
from .errors import EngineError, IllegalAction
from .flow import Prompt, apply, legal, pending, random_action
from .setup import new_game
from .state import State
from .victory import ranking
from .view import player_view


def is_over(state: State) -> bool:
    """True once the game has a winner."""
    return state.winner is not None


def result(state: State) -> list[str] | None:
    """Final ranking, winner first, once the game is over; else None."""
    if state.winner is None:
        return None
    rest = [h for h in ranking(state) if h != state.winner]
    return [state.winner, *rest]


__all__ = [
    "Action",
    "Bid",
    "Choose",
    "EngineError",
    "IllegalAction",
    "Prompt",
    "Ruleset",
    "SelectArea",
    "SelectUnits",
    "State",
    "apply",
    "is_over",
    "legal",
    "new_game",
    "pending",
    "player_view",
    "random_action",
    "result",
]
