"""A small referee for AI games: ``pending`` → ``ask`` (the player's own view only) →
``apply``, until the game has a result (9). It counts every illegal action, player error and
answer over the time budget; an illegal answer is replaced by the fallback built from the
prompt data, or, failing that, by the engine's random legal action (the referee may read the
state; players never do)."""

from __future__ import annotations

import dataclasses
import random
import statistics
import traceback
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import board
from ..engine.actions import Action
from ..engine.content import Ruleset
from ..engine.errors import IllegalAction
from ..engine.flow import apply, pending, random_action
from ..engine.setup import new_game
from ..engine.state import State
from ..engine.victory import ranking
from ..engine.view import player_view
from . import legal
from .protocol import DEFAULT_BUDGET, Player, ask

MAX_DECISIONS = 20_000


@dataclasses.dataclass
class Fault:
    """One illegal answer (``kind`` "illegal") or crash (``kind`` "error") of a player."""

    house: str
    player: str
    prompt: str
    kind: str
    detail: str


@dataclasses.dataclass
class GameRecord:
    """The outcome of one AI game."""

    seed: int
    seats: dict[str, str]
    winner: str | None
    ranking: list[str]
    castles: dict[str, int]
    rounds: int
    decisions: int
    faults: list[Fault]
    times: dict[str, list[float]]
    over_budget: int

    @property
    def illegal(self) -> int:
        """Illegal actions and player errors in this game (must be 0)."""
        return len(self.faults)

    def seat_of(self, house: str) -> str:
        """The player name seated as ``house``."""
        return self.seats[house]


def seat(houses: Sequence[str], players: Sequence[Player]) -> dict[str, Player]:
    """Houses matched with ``players`` in order (the setup's house order, 2.1)."""
    if len(players) != len(houses):
        raise ValueError(f"{len(houses)} houses but {len(players)} players")
    return dict(zip(houses, players, strict=True))


def _fallback(state: State, house: str, rnd: random.Random) -> Action:
    """A legal replacement answer: from the prompt data, else the engine's random action."""
    try:
        action = legal.fallback_action(player_view(state, house), state.rules)
        apply(state, house, action)
        return action
    except (IllegalAction, ValueError, KeyError):
        return random_action(state, house, rnd)


def play_game(
    rules: Ruleset,
    players: Sequence[Player] | Mapping[str, Player],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    budget: float = DEFAULT_BUDGET,
    max_decisions: int = MAX_DECISIONS,
) -> GameRecord:
    """Play one game to its result: ``players`` in setup house order (or by house), each asked
    only through ``protocol.ask``. Houses waiting together (simultaneous steps) answer in house
    order."""
    count = len(players)
    state = new_game(rules, count, seed, options)
    seats = dict(players) if isinstance(players, Mapping) else seat(state.houses, players)
    times: dict[str, list[float]] = {h: [] for h in state.houses}
    faults: list[Fault] = []
    over = 0
    rnd = random.Random(seed)
    decisions = 0
    while decisions < max_decisions:
        waiting = pending(state)
        if not waiting:
            break
        house = min(waiting)
        player = seats[house]
        kind = waiting[house].kind
        try:
            action, seconds = ask(player, state, house, budget)
        except Exception:  # a player's crash is recorded, never fatal to the game
            faults.append(Fault(house, player.name, kind, "error", traceback.format_exc()))
            action, seconds = _fallback(state, house, rnd), 0.0
        times[house].append(seconds)
        over += seconds > budget
        try:
            state, _ = apply(state, house, action)
        except IllegalAction as err:
            faults.append(Fault(house, player.name, kind, "illegal", f"{action}: {err}"))
            state, _ = apply(state, house, _fallback(state, house, rnd))
        decisions += 1
    return GameRecord(
        seed=seed,
        seats={h: p.name for h, p in seats.items()},
        winner=state.winner,
        ranking=ranking(state),
        castles={h: board.castle_count(state, h) for h in state.houses},
        rounds=state.round,
        decisions=decisions,
        faults=faults,
        times=times,
        over_budget=over,
    )


def decision_times(records: Sequence[GameRecord], player: str) -> tuple[float, float]:
    """(median, maximum) seconds per decision of the player named ``player``."""
    times = [t for r in records for h, ts in r.times.items() if r.seats[h] == player for t in ts]
    return (statistics.median(times), max(times)) if times else (0.0, 0.0)
