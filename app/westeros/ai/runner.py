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
from ..engine.flow import answering_house, apply, pending, random_action
from ..engine.setup import new_game
from ..engine.state import Event, State
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
class Behaviour:
    """What one house did in a game, for personality figures: attacks made (marches into a
    combat, 5.4, or on a neutral force, 5.5), available power when orders are revealed each
    round (4.4) and its Clash of Kings bids (3.6)."""

    attacks: int = 0
    rounds: int = 0
    power: list[int] = dataclasses.field(default_factory=list)
    bids: list[int] = dataclasses.field(default_factory=list)

    @property
    def attacks_per_round(self) -> float:
        """Attacks per round played."""
        return self.attacks / self.rounds if self.rounds else 0.0

    @property
    def power_held(self) -> float:
        """Mean available power when the orders are revealed."""
        return statistics.mean(self.power) if self.power else 0.0

    @property
    def mean_bid(self) -> float:
        """Mean Clash of Kings bid."""
        return statistics.mean(self.bids) if self.bids else 0.0

    def record(self, event: Event, house: str, state: State) -> None:
        """Count ``event`` (emitted while ``state`` was reached) for ``house``."""
        data = event.data
        attacker = {"combat": "attacker", "neutral_force_defeated": "house"}.get(event.kind)
        if attacker is not None and data[attacker] == house:
            self.attacks += 1
        elif event.kind == "bids" and house in data["bids"]:
            self.bids.append(data["bids"][house])
        elif event.kind == "orders_revealed":
            self.rounds += 1
            self.power.append(state.power[house])


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
    prompts: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    behaviour: dict[str, Behaviour] = dataclasses.field(default_factory=dict)

    @property
    def illegal(self) -> int:
        """Illegal actions and player errors in this game (must be 0)."""
        return len(self.faults)


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
    order. A house without a player of its own (a vassal) is answered by the player of the
    house that answers for it (``answering_house``)."""
    count = len(players)
    state = new_game(rules, count, seed, options)
    seated = state.setup.seated_houses()
    seats = dict(players) if isinstance(players, Mapping) else seat(seated, players)
    times: dict[str, list[float]] = {h: [] for h in state.houses}
    prompts: dict[str, list[str]] = {h: [] for h in state.houses}
    faults: list[Fault] = []
    over = 0
    rnd = random.Random(seed)
    decisions = 0
    behaviour = {h: Behaviour() for h in state.houses}
    while decisions < max_decisions:
        waiting = pending(state)
        if not waiting:
            break
        house = min(waiting)
        player = seats[answering_house(state, house)]
        kind = waiting[house].kind
        try:
            action, seconds = ask(player, state, house, budget)
        except Exception:  # a player's crash is recorded, never fatal to the game
            faults.append(Fault(house, player.name, kind, "error", traceback.format_exc()))
            action, seconds = _fallback(state, house, rnd), 0.0
        times[house].append(seconds)
        prompts[house].append(kind)
        over += seconds > budget
        try:
            state, events = apply(state, house, action)
        except IllegalAction as err:
            faults.append(Fault(house, player.name, kind, "illegal", f"{action}: {err}"))
            state, events = apply(state, house, _fallback(state, house, rnd))
        for event in events:
            for h, tally in behaviour.items():
                tally.record(event, h, state)
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
        prompts=prompts,
        behaviour=behaviour,
    )


def decision_times(
    records: Sequence[GameRecord], player: str, kind: str | None = None
) -> tuple[float, float]:
    """(median, maximum) seconds per decision of the player named ``player`` (only its
    decisions on prompts of ``kind``, if given)."""
    times = [
        t
        for r in records
        for h, ts in r.times.items()
        if r.seats[h] == player
        for t, k in zip(ts, r.prompts[h], strict=True)
        if kind is None or k == kind
    ]
    return (statistics.median(times), max(times)) if times else (0.0, 0.0)
