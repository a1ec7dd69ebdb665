"""The AI that plays a seat, from what the seat records: its level (``SeatSpec.name``: a
difficulty of the strong AI, Standard among them, or the baseline) and its personality. The
local core and the online server's AI pool both make their seats' AIs here, so a level plays the
same everywhere."""

from __future__ import annotations

from ..session import AiPlayer
from .bots import PassiveBot
from .deals_seat import TalkingBot, TalkingStrongBot
from .difficulty import LEVELS
from .personality import AIPersonality, with_own_decisions

GUIDE_LEVEL = PassiveBot.name
"""The level of the guided first game's AI seats (``server.guide``): the passive bot, whose
answers are fixed, so the game goes as its guide explains."""


def seat_ai(level: str, personality: AIPersonality, seed: int) -> AiPlayer:
    """The strong AI at ``level`` (``easy``, ``standard``, ``normal``, ``hard``), else the
    baseline AI, each playing ``personality`` and keeping the deals of a game that has a deal
    table (``ai.deals_seat``); a personality with decisions of its own answers those itself
    (``with_own_decisions``)."""
    if level == GUIDE_LEVEL:
        return PassiveBot(seed)
    difficulty = LEVELS.get(level)
    ai: AiPlayer
    if difficulty is not None:
        ai = TalkingStrongBot(seed=seed, level=difficulty, personality=personality)
    else:
        ai = TalkingBot(seed=seed, personality=personality)
    return with_own_decisions(ai, personality, seed)
