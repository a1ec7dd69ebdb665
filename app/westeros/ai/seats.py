"""The AI that plays a seat, from what the seat records: its level (``SeatSpec.name``: a
difficulty of the strong AI, ``standard`` or the baseline) and its personality. The local core
and the online server's AI pool both make their seats' AIs here, so a level plays the same
everywhere."""

from __future__ import annotations

from ..session import AiPlayer
from .deals_seat import TalkingBot, TalkingStrongBot
from .difficulty import LEVELS, STANDARD
from .personality import AIPersonality
from .standard import StandardBot


def seat_ai(level: str, personality: AIPersonality, seed: int) -> AiPlayer:
    """The strong AI at ``level`` (``easy``, ``normal``, ``hard``), the Standard AI for
    ``standard``, else the baseline AI, each playing ``personality``; the baseline and strong
    AIs keep the deals of a game that has a deal table (``ai.deals_seat``)."""
    difficulty = LEVELS.get(level)
    if difficulty is not None:
        return TalkingStrongBot(seed=seed, level=difficulty, personality=personality)
    if level == STANDARD:
        return StandardBot(seed=seed, personality=personality.style())
    return TalkingBot(seed=seed, personality=personality)
