"""The plain, immutable values the store hands out and takes in (never live ORM objects)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from westeros.engine import State

from .models import HUMAN


@dataclasses.dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat of a game: the house, ``human`` or ``ai``, a display name (an AI seat's: its
    level), the profile of the player (humans) if any and the AI personality playing it (an
    id of a registered personality; empty: the balanced default, as in games stored before
    revision 0006)."""

    house: str
    kind: str = HUMAN
    name: str = ""
    profile_id: int | None = None
    personality: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything a new game is made from: the engine replays a game from this and its log.

    ``plugins`` are the (name, version) pairs of the game's Ruleset (``rules.plugins``);
    ``seed`` is the seed as the player gave it (``new_game`` accepts a number or any text)."""

    players: int
    seats: tuple[SeatSpec, ...]
    seed: int | str
    plugins: tuple[tuple[str, str], ...]
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    name: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo:
    """A stored game as the game list shows it: its setup and a summary of its latest state."""

    id: str
    setup: GameSetup
    status: str
    round: int
    winner: str | None
    action_count: int
    engine_version: str
    created_at: datetime
    updated_at: datetime

    @property
    def human_houses(self) -> tuple[str, ...]:
        """Houses played by humans (what "Continue" shows as "your house")."""
        return tuple(s.house for s in self.setup.seats if s.kind == HUMAN)


@dataclasses.dataclass(frozen=True, slots=True)
class DamagedGame:
    """A stored game whose record or log cannot be read, or that does not load: its id, name
    (when readable) and why (the game list shows it apart). ``readable``: its record reads,
    so the app's delete page can show and delete it."""

    id: str
    name: str
    reason: str
    readable: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game rebuilt from its log: the stored record, the engine state it reached and the
    number of actions of the snapshot it resumed from (0: replayed from the first state)."""

    info: GameInfo
    state: State
    resumed_from: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class ProfileInfo:
    """A player profile and its settings."""

    id: int
    name: str
    settings: Mapping[str, Any]
    created_at: datetime
    updated_at: datetime
