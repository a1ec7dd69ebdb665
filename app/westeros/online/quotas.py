"""How much one player key may hold on an online server (issue 35 finding 11; docs/online.md
"Limits"): the open lobbies it hosts, the running games it started, and of those the games in
which no person holds a seat (all-AI games, which cost the server the most). Each limit is
set by an environment variable of the server's workers; 0 means no limit."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping

from .errors import OnlineError

ENV_LOBBIES = "WESTEROS_MAX_LOBBIES_PER_KEY"
ENV_GAMES = "WESTEROS_MAX_GAMES_PER_KEY"
ENV_AI_GAMES = "WESTEROS_MAX_AI_GAMES_PER_KEY"
MAX_LOBBIES = 5
MAX_GAMES = 3
MAX_AI_GAMES = 1


class TooMany(OnlineError):
    """The player already holds as many lobbies or games as one key may."""

    code = "online/too-many"
    status = 429


def _limit(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from exc
    if value < 0:
        raise ValueError(f"{name} must be 0 (no limit) or more, not {value}")
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class KeyQuotas:
    """Per player key: open lobbies hosted, running games started, running all-AI games
    started (0: no limit)."""

    lobbies: int = MAX_LOBBIES
    games: int = MAX_GAMES
    ai_games: int = MAX_AI_GAMES

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> KeyQuotas:
        """The limits set by ``env`` (default: the process environment), else the defaults."""
        env = os.environ if env is None else env
        return cls(
            lobbies=_limit(env, ENV_LOBBIES, MAX_LOBBIES),
            games=_limit(env, ENV_GAMES, MAX_GAMES),
            ai_games=_limit(env, ENV_AI_GAMES, MAX_AI_GAMES),
        )


def over(limit: int, count: int) -> bool:
    """Is ``count`` more than ``limit`` allows (0: no limit)?"""
    return limit > 0 and count > limit
