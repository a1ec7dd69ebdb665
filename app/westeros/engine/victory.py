"""Victory (9): the instant win at 7 castle areas and the ranking after round 10."""

from __future__ import annotations

from typing import Any

from . import board, tracks
from .flow import left_out
from .state import State

VICTORY_CASTLES = 7


def score(state: State, house: str, castles: int | None = None) -> int:
    """``house``'s victory-track score (1.9.1): its castle areas (``castles`` when already
    counted) unless a ``rule_victory_points`` hook scores it another way."""
    points = _plugin_score(state, house)
    if points is not None:
        return points
    return board.castle_count(state, house) if castles is None else castles


def _plugin_score(state: State, house: str) -> int | None:
    """The first ``rule_victory_points`` hook's score for ``house``; None: its castle areas."""
    for hook in state.rules.hooks.victory_points:
        points = hook(state, house)
        if points is not None:
            return points
    return None


def track_view(state: State) -> dict[str, Any]:
    """The victory track as every house sees it (1.9.1, 9.1): ``castles``, each house's castle
    areas; ``points``, its score as the victory check counts it (``score``); ``by_castles``,
    whether every house scores its castle areas (no ``rule_victory_points`` hook scores one);
    ``goal``, the score that wins at once (9.1)."""
    counts = board.castle_counts(state)
    others = {h: p for h in state.houses if (p := _plugin_score(state, h)) is not None}
    return {
        "castles": {h: counts[h] for h in state.houses},
        "points": {h: others.get(h, counts[h]) for h in state.houses},
        "by_castles": not others,
        "goal": VICTORY_CASTLES,
    }


def ranking(state: State, houses: tuple[str, ...] | None = None) -> list[str]:
    """Houses best first by 9.2: castles (or ``score``), land areas, supply, available power,
    Iron Throne; by default every house that may win (``rule_left_out`` "victory")."""
    pool = houses if houses is not None else _may_win(state, state.houses)
    lands = board.land_counts(state)

    def key(house: str) -> tuple[int, int, int, int, int]:
        return (
            -score(state, house),
            -lands[house],
            -state.supply[house],
            -state.power[house],
            tracks.position(state, tracks.IRON_THRONE, house),
        )

    return sorted(pool, key=key)


def _may_win(state: State, houses: tuple[str, ...]) -> tuple[str, ...]:
    """``houses`` without those no plugin lets win (vassals, 11.10.1)."""
    return tuple(h for h in houses if not left_out(state, h, "victory"))


def end_game(state: State, winner: str) -> None:
    """Finish the game: record the winner and drop every remaining step."""
    state.winner = winner
    state.stack = ()
    state.combat = None
    state.emit("game_over", winner=winner, ranking=ranking(state))


def check(state: State) -> bool:
    """Instant-win check (9.1), run after every resolution that can change control.

    Returns True when the game ended. Two houses at 7 at once are ranked by 9.2 (9.1.1)."""
    for hook in state.rules.hooks.victory_checks:
        winner = hook(state)
        if winner is not None:
            end_game(state, winner)
            return True
    scores_are_castles = not state.rules.hooks.victory_points
    if scores_are_castles and board.most_castles(state) < VICTORY_CASTLES:
        return False
    counts = board.castle_counts(state)
    reached = _may_win(
        state, tuple(h for h in state.houses if score(state, h, counts[h]) >= VICTORY_CASTLES)
    )
    if reached:
        end_game(state, ranking(state, reached)[0])
        return True
    return False


def consequences(state: State) -> bool:
    """Consequence checks after a resolution (Appendix A.3): drop orders left without units,
    run plugin checks (ports, 6.3), then the victory check. Returns True if the game ended."""
    for area in [a for a in state.orders if a not in state.units]:
        del state.orders[area]
    for hook in state.rules.hooks.after_resolution:
        hook(state)
    return check(state)
