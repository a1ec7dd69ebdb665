"""Resume is a property (issue 35 finding 1, acceptance 2): for every option set the bundled
plugins offer (``snapshot_roundtrip.OPTION_SETS``), random games check at many points that the
stored snapshot decodes into a state that plays exactly like the live one (hash, setup, pending
houses, prompts with their legal answers, every seat's view, the next action's result), and
that the real store (SQLite and PostgreSQL) reopens a game stopped anywhere and plays on.

CI's slice: a few games per option set (``benchmarks/snapshots.py`` runs thousands of
snapshots). Hypothesis draws the player count, seed, how often a snapshot is checked and where
the game stops; the draws are derandomized so that CI is repeatable."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from westeros.engine import apply, encoding, pending, random_action
from westeros.store import GameSetup, GameStore, SeatSpec

from .snapshot_roundtrip import OPTION_SETS, difference, play_checking, ruleset

CI = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # a random game does not shrink usefully
    suppress_health_check=(HealthCheck.too_slow,),
)
STORE = settings(
    CI,
    max_examples=5,
    # each example stores a game of its own in the one store the fixture opened
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.function_scoped_fixture),
)


def _vassal_game() -> st.SearchStrategy[tuple[int, int]]:
    return st.tuples(st.sampled_from((3, 4, 5, 6)), st.integers(0, 10_000))


@CI
@given(game=_vassal_game(), every=st.integers(1, 7))
@example(game=(4, 35), every=5)
def test_issue35_f1_vassal_snapshots_play_exactly_like_the_live_game(
    game: tuple[int, int], every: int
) -> None:
    """Issue 35 finding 1: a vassal game's snapshot (3-6 players on the 7-player board,
    RULES.md 11.2.5) reads back as the same game: the vassals, their commanders and the
    vassal orders (11.10.3-11.10.5) play on exactly as in the live game, through round 3."""
    players, seed = game
    state, tally = play_checking("vassals", players, seed, every=every, limit=200)
    print(f"vassals {players}p seed {seed}: {tally.snapshots} snapshots, round {state.round}")
    assert tally.divergent == []
    assert state.round >= 3


def test_issue35_f1_a_snapshot_names_its_player_count_and_refuses_another() -> None:
    """Issue 35 finding 1: the encoded state says for how many players it is set up; a
    caller that knows the game's count (the store) gets a clear EncodingError when they
    differ, and an older encoding without the count reads on the setup the caller names."""
    rules = ruleset("vassals")
    state, _ = play_checking("vassals", 4, 8, every=1000, limit=40)
    data = json.loads(json.dumps(encoding.encode_state(state)))
    assert data["players"] == 4
    with pytest.raises(encoding.EncodingError, match="set up for 4 players, the game for 3"):
        encoding.decode_state(data, rules, 3)
    older = {"encoding": data["encoding"], "fields": data["fields"]}
    with pytest.raises(encoding.EncodingError, match=r"setups for \[3, 4, 5, 6, 7\] players"):
        encoding.decode_state(older, rules)
    assert encoding.decode_state(older, rules, 4).setup == state.setup


@CI
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
@given(data=st.data())
def test_acceptance2_every_option_sets_snapshots_play_exactly_like_the_live_game(
    name: str, data: st.DataObject
) -> None:
    """Issue 35 acceptance 2: under every option set, snapshots taken along a random game
    play exactly like the live game (0 divergent)."""
    players = data.draw(st.sampled_from(OPTION_SETS[name].counts), label="players")
    seed = data.draw(st.integers(0, 100_000), label="seed")
    every = data.draw(st.integers(2, 9), label="every")
    state, tally = play_checking(name, players, seed, every=every, limit=150)
    print(f"{name} {players}p seed {seed}: {tally.snapshots} snapshots, round {state.round}")
    assert tally.snapshots >= 10
    assert tally.divergent == []


def _store_game(
    store: GameStore,
    name: str,
    players: int,
    seed: int,
    stop: int,
    more: int,
    *,
    into_round: int = 1,
) -> tuple[str, int, int]:
    """Store a random game of option set ``name``, reopen it ``stop`` actions into round
    ``into_round`` and play ``more`` actions on, the live game and the reopened one in step
    (each action stored), then reopen it once more. Returns the first difference found (""
    for none), the snapshot the first reopening resumed from and the round it stopped in."""
    rules = ruleset(name)
    options = dict(OPTION_SETS[name].options)
    seats = tuple(SeatSpec(h, "ai", "random") for h in rules.setups[players].seated_houses())
    game = store.create_game(GameSetup(players, seats, seed, rules.plugins, options))
    game_id, live, rnd = game.info.id, game.state, random.Random(seed)
    seq = since = 0
    while pending(live) and (live.round < into_round or seq - since < stop):
        since = seq if live.round < into_round else since
        house = rnd.choice(sorted(pending(live)))
        action = random_action(live, house, rnd)
        live, _ = apply(live, house, action)
        seq += 1
        store.append_action(game_id, seq, house, action, live)
    loaded = store.load_game(game_id)
    reopened, stopped_in = loaded.state, live.round
    for check in range(more):
        found = difference(live, reopened, random.Random(check))
        if found or not pending(live):
            return found or "", loaded.resumed_from, stopped_in
        house = rnd.choice(sorted(pending(live)))
        action = random_action(live, house, rnd)
        live, _ = apply(live, house, action)
        reopened, _ = apply(reopened, house, action)
        seq += 1
        store.append_action(game_id, seq, house, action, reopened)
    found = difference(live, store.load_game(game_id).state, random.Random(seq))
    return found or "", loaded.resumed_from, stopped_in


@pytest.mark.parametrize("players", [3, 4])
def test_issue35_f1_a_vassal_game_stopped_in_round_2_reopens_and_plays_on(
    store: GameStore, players: int
) -> None:
    """Issue 35 finding 1: a Mother of Dragons game with vassals, stopped in round 2 and
    reopened from the store (SQLite and PostgreSQL), resumes from its round-2 snapshot and
    plays on exactly like the live game (RULES.md 11.10)."""
    found, resumed_from, stopped_in = _store_game(
        store, "vassals", players, 35, 12, 40, into_round=2
    )
    print(f"vassals {players}p: stopped in round {stopped_in}, resumed from {resumed_from}")
    assert (stopped_in, found) == (2, "")
    assert resumed_from > 0


@STORE
@given(data=st.data())
def test_acceptance2_a_stored_game_of_any_option_set_reopens_and_plays_on(
    store: GameStore, data: st.DataObject
) -> None:
    """Issue 35 acceptance 2: a game of any option set, stopped anywhere in its first rounds
    and reopened from the store (its latest snapshot and the actions after it), plays on
    exactly like the live game, and reopens once more after that."""
    name = data.draw(st.sampled_from(sorted(OPTION_SETS)), label="option set")
    players = data.draw(st.sampled_from(OPTION_SETS[name].counts), label="players")
    seed = data.draw(st.integers(0, 100_000), label="seed")
    stop = data.draw(st.integers(0, 120), label="stop after")
    found, resumed_from, stopped_in = _store_game(store, name, players, seed, stop, 12)
    print(f"{name} {players}p seed {seed}: stopped in round {stopped_in}, from {resumed_from}")
    assert found == ""
