"""Loyalty tokens and Targaryen's victory (RULES.md 11.6).

State, public in ``state.ext``: ``loyalty_tokens`` ((area, count) pairs, sorted by area) and
``loyalty_collected`` (tokens Targaryen has collected for good). In 8-player games one token
starts on King's Landing (setup ``loyalty_tokens``, 11.6.1). Targaryen collects the tokens of
every area it controls at each consequence check (Appendix A.3). That covers 11.6.3's points,
every March order resolution and the end of the Westeros phase; the other checks (wildling
penalties, supply, loans, debts, Clean Up) never find a token to collect, since tokens reach
an area Targaryen holds only by deck IV and Targaryen comes to hold a land area only by a
march (a home area reverting is Pentos, where no token can get). Deck IV's token movements
collect before each house's move and after the last (as S&R). Its victory points are the
collected tokens plus 1 while it controls Pentos and replace its castle count for the instant
win at 7 and the ranking after round 10 (11.6.4-5)."""

from __future__ import annotations

from westeros.engine import board
from westeros.engine.state import State

from . import content

TOKENS = "loyalty_tokens"
COLLECTED = "loyalty_collected"
TARGARYEN = "targaryen"
PENTOS = "pentos"
TOTAL = 20


def tokens(state: State) -> dict[str, int]:
    """Loyalty tokens on the board, area → count (11.6.1)."""
    return dict(state.ext.get(TOKENS, ()))


def _store(state: State, found: dict[str, int]) -> None:
    state.ext[TOKENS] = tuple(sorted((a, n) for a, n in found.items() if n > 0))


def on_board(state: State) -> int:
    """How many of the 20 tokens are on the board (collected ones are off it, 11.6.3)."""
    return sum(tokens(state).values())


def place(state: State, area: str, reason: str) -> bool:
    """Put one token on ``area``; fails (False) only while all 20 are on the board (11.6.1):
    tokens Targaryen collected have left the board."""
    if on_board(state) >= TOTAL:
        state.emit("loyalty_exhausted", area=area)
        return False
    found = tokens(state)
    found[area] = found.get(area, 0) + 1
    _store(state, found)
    state.emit("loyalty_placed", area=area, reason=reason)
    return True


def move(state: State, source: str, target: str) -> None:
    """Move one token from ``source`` to ``target`` (deck IV movement cards, 11.11)."""
    found = tokens(state)
    found[source] -= 1
    found[target] = found.get(target, 0) + 1
    _store(state, found)


def in_play(state: State) -> bool:
    """Does this game use loyalty (Targaryen in play, 11.6)?"""
    return TARGARYEN in state.houses


def setup(state: State) -> None:
    """11.6.1: the 8-player setup's starting tokens (one on King's Landing)."""
    if not in_play(state):
        return
    starting: dict[str, int] = next(
        (s.get("loyalty_tokens", {}) for s in content.data()["setups"] if s["player_count"] == 8),
        {},
    )
    state.ext[COLLECTED] = 0
    _store(state, {a: int(n) for a, n in starting.items()})


def collect(state: State) -> None:
    """11.6.3: Targaryen takes the tokens of every area it controls and scores them for good."""
    if not in_play(state) or not state.ext.get(TOKENS):
        return
    found = tokens(state)
    taken = {a: n for a, n in found.items() if board.controller(state, a) == TARGARYEN}
    if not taken:
        return
    for area in taken:
        del found[area]
    _store(state, found)
    gained = sum(taken.values())
    state.ext[COLLECTED] = state.ext.get(COLLECTED, 0) + gained
    state.emit(
        "loyalty_collected",
        house=TARGARYEN,
        areas=sorted(taken),
        gained=gained,
        points=points(state),
    )


def points(state: State) -> int:
    """11.6.4: collected tokens + 1 while Targaryen controls Pentos."""
    bonus = 1 if board.controller(state, PENTOS) == TARGARYEN else 0
    return int(state.ext.get(COLLECTED, 0)) + bonus


def victory_points(state: State, house: str) -> int | None:
    """The ``rule_victory_points`` callable: Targaryen scores loyalty, never castles (11.6.4)."""
    if house != TARGARYEN:
        return None
    return points(state)


def restore_pentos(state: State) -> None:
    """11.4.4 (S&R): Pentos's garrison returns whenever Targaryen controls Pentos again."""
    if not in_play(state) or PENTOS in state.garrisons:
        return
    if board.controller(state, PENTOS) == TARGARYEN:
        state.garrisons[PENTOS] = state.rules.areas[PENTOS].garrison
        state.emit("garrison_restored", area=PENTOS, house=TARGARYEN)


def after_resolution(state: State) -> None:
    """Consequence check (Appendix A.3): restore Pentos's garrison, then collect (11.6.3)."""
    restore_pentos(state)
    collect(state)
