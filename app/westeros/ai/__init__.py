"""AI players (DESIGN §1-2): the player protocol, the baseline AI, the reference bots, the
strong search-based AI with its difficulty levels and personalities, and a small game runner.
A player sees only its own ``player_view`` and the public Ruleset."""

from ..engine.public import public_state
from .baseline import BASELINE, BaselineBot, Personality
from .bots import PassiveBot, RandomBot
from .difficulty import EASY, HARD, LEVELS, NORMAL, Difficulty
from .personality import BALANCED, AIPersonality
from .protocol import DEFAULT_BUDGET, Player, ask
from .runner import Behaviour, Fault, GameRecord, decision_times, play_game
from .strong import StrongBot

__all__ = [
    "BALANCED",
    "BASELINE",
    "DEFAULT_BUDGET",
    "EASY",
    "HARD",
    "LEVELS",
    "NORMAL",
    "AIPersonality",
    "BaselineBot",
    "Behaviour",
    "Difficulty",
    "Fault",
    "GameRecord",
    "PassiveBot",
    "Personality",
    "Player",
    "RandomBot",
    "StrongBot",
    "ask",
    "decision_times",
    "play_game",
    "public_state",
]
