"""Golden playthroughs (DESIGN §6): every recorded game replays to the same view for every
seat and the spectator at every checkpoint. When a view changes on purpose, re-record with
``python -m tests.golden.playthroughs`` (see that module) and review the diff."""

from __future__ import annotations

import copy

import pytest

from .playthroughs import PLAYTHROUGHS, Playthrough, load, mismatch

RERECORD = "(an intended change? re-record: python -m tests.golden.playthroughs)"


@pytest.mark.parametrize("game", PLAYTHROUGHS, ids=[g.name for g in PLAYTHROUGHS])
def test_a_recorded_game_gives_every_seat_the_recorded_views(game: Playthrough) -> None:
    problem = mismatch(game, load(game))
    assert problem is None, f"{problem}\n{RERECORD}"


def test_a_changed_view_is_reported_with_the_seat_and_the_action_before_it() -> None:
    game = PLAYTHROUGHS[0]
    recording = copy.deepcopy(load(game))
    seq = str(game.every * 2)
    recording["checkpoints"][seq]["lannister"]["power"]["stark"] += 1
    action = recording["log"][int(seq) - 1]
    problem = mismatch(game, recording)
    assert problem is not None
    assert f"after action {seq} ({action['house']}: " in problem
    assert "the view of lannister differs at power.stark: recorded" in problem


def test_a_recorded_action_the_engine_refuses_now_is_named() -> None:
    game = PLAYTHROUGHS[0]
    recording = copy.deepcopy(load(game))
    recording["log"][4]["house"] = "nobody"
    with pytest.raises(AssertionError, match=r"recorded action 5 .nobody: .* is refused now"):
        mismatch(game, recording)
