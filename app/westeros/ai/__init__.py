"""AI players (DESIGN §1-2): the player protocol, the baseline AI, the reference bots and a
small game runner. A player sees only its own ``player_view`` and the public Ruleset."""

from .baseline import BASELINE, BaselineBot, Personality
from .bots import PassiveBot, RandomBot
from .protocol import DEFAULT_BUDGET, Player, ask
from .public import public_state
from .runner import Fault, GameRecord, decision_times, play_game

__all__ = [
    "BASELINE",
    "DEFAULT_BUDGET",
    "BaselineBot",
    "Fault",
    "GameRecord",
    "PassiveBot",
    "Personality",
    "Player",
    "RandomBot",
    "ask",
    "decision_times",
    "play_game",
    "public_state",
]
