"""Snapshots and resuming (DESIGN §5): a snapshot at the start of every round (and at the end),
written in the same transaction as the action that led there, holding the whole state as plain
JSON; loading resumes from the latest snapshot that reads back to the hash the log recorded,
replaying only the actions after it; the re-run ``Timeline`` behind replays."""

from __future__ import annotations

import itertools
import json
import logging
import random

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from westeros.engine import Ruleset, State, apply, encoding, pending, random_action
from westeros.store import CorruptGame, GameStore, Timeline, repository
from westeros.store.models import Snapshot

from .helpers import dump, play, record, three_player_setup


def whole_game(store: GameStore, rules: Ruleset, seed: int) -> tuple[str, list[State]]:
    """A whole 3-player game of random legal play, stored action by action."""
    game = store.create_game(three_player_setup(rules, seed=seed))
    states = [game.state]
    rnd = random.Random(seed)
    state = game.state
    while pending(state):
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        states.append(state)
        store.append_action(game.info.id, state.serial, house, action, state)
    return game.info.id, states


def snapshot_rows(engine: Engine, game_id: str) -> list[sa.Row[tuple[object, ...]]]:
    with engine.connect() as connection:
        return list(
            connection.execute(
                sa.select(Snapshot.__table__)  # type: ignore[call-overload]
                .where(sa.column("game_id") == game_id)
                .order_by(sa.column("seq"))
            )
        )


def set_snapshot_state(engine: Engine, game_id: str, seq: int, state: object) -> None:
    table = Snapshot.__table__
    with engine.begin() as connection:
        connection.execute(
            sa.update(table)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game_id, sa.column("seq") == seq)
            .values(state=state)
        )


def test_a_snapshot_is_taken_at_the_start_of_every_round_and_at_the_end(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game_id, states = whole_game(store, rules, seed=3)
    final = states[-1]
    assert final.winner is not None
    round_starts = [s.serial for prev, s in itertools.pairwise(states) if s.round != prev.round]
    rows = snapshot_rows(engine, game_id)
    expected = sorted({0, *round_starts, final.serial})
    assert [r.seq for r in rows] == expected
    for row in rows:
        live = states[row.seq]
        assert (row.state_hash, row.round) == (live.hash(), live.round)
        assert encoding.decode_state(row.state, rules).hash() == live.hash()


def test_load_resumes_from_the_latest_snapshot_and_replays_only_the_rest(
    store: GameStore, rules: Ruleset
) -> None:
    game = store.create_game(three_player_setup(rules, seed=11))
    moves = play(game.state, 160, seed=11)
    record(store, game.info.id, moves)
    states = [game.state, *(s for _, _, s in moves)]
    latest_round_start = max(
        s.serial for prev, s in itertools.pairwise(states) if s.round != prev.round
    )
    assert 0 < latest_round_start < 160
    loaded = store.load_game(game.info.id)
    assert loaded.resumed_from == latest_round_start
    assert loaded.state.hash() == states[-1].hash()
    exported = store.export_game(game.info.id)  # the whole log from the first state
    assert exported["final_hash"] == loaded.state.hash()


def test_an_action_and_its_round_snapshot_are_committed_together(
    store: GameStore, rules: Ruleset, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash (here: a failure) while the snapshot is written leaves no action without it."""
    game = store.create_game(three_player_setup(rules, seed=2))
    moves = play(game.state, 160, seed=2)
    first_of_round_2 = next(i for i, (_, _, s) in enumerate(moves) if s.round == 2)
    record(store, game.info.id, moves[:first_of_round_2])
    before = dump(engine)

    def broken(game_id: str, seq: int, state: State) -> Snapshot:
        raise OSError("disk full while snapshotting")

    monkeypatch.setattr(repository, "_snapshot", broken)
    house, action, state = moves[first_of_round_2]
    with pytest.raises(OSError):
        store.append_action(game.info.id, first_of_round_2 + 1, house, action, state)
    assert dump(engine) == before


def test_a_snapshot_this_engine_cannot_read_is_skipped_for_an_older_one(
    store: GameStore, rules: Ruleset, engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, states = whole_game(store, rules, seed=5)
    seqs = [r.seq for r in snapshot_rows(engine, game_id)]
    latest, older = seqs[-1], seqs[-2]
    row = snapshot_rows(engine, game_id)[-1]
    text = json.dumps(row.state).replace('"@": "', '"@": "RenamedSince.', 1)  # unknown name
    set_snapshot_state(engine, game_id, latest, json.loads(text))
    with caplog.at_level(logging.WARNING, logger="westeros.store"):
        loaded = store.load_game(game_id)
    assert loaded.resumed_from == older
    assert loaded.state.hash() == states[-1].hash()
    assert any(f"snapshot {latest} skipped" in r.getMessage() for r in caplog.records)


def test_a_snapshot_state_that_reads_back_to_another_state_is_skipped(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game_id, states = whole_game(store, rules, seed=6)
    rows = snapshot_rows(engine, game_id)
    forged = json.loads(json.dumps(rows[-1].state))
    fields = forged["fields"]
    fields["threat"] = (fields["threat"] + 2) % 12  # wildling threat (1.8) changed
    set_snapshot_state(engine, game_id, rows[-1].seq, forged)
    loaded = store.load_game(game_id)
    assert loaded.resumed_from == rows[-2].seq
    assert loaded.state.hash() == states[-1].hash()


def test_snapshots_without_a_state_are_replayed_from_the_first_state(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game_id, states = whole_game(store, rules, seed=8)
    for row in snapshot_rows(engine, game_id):
        set_snapshot_state(engine, game_id, row.seq, None)
    loaded = store.load_game(game_id)
    assert (loaded.resumed_from, loaded.state.hash()) == (0, states[-1].hash())


def test_a_snapshot_hash_that_contradicts_the_log_makes_the_game_corrupt(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game_id, _ = whole_game(store, rules, seed=9)
    latest = snapshot_rows(engine, game_id)[-1].seq
    with engine.begin() as connection:
        connection.execute(
            sa.update(Snapshot.__table__)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game_id, sa.column("seq") == latest)
            .values(state_hash="0" * 64)
        )
    with pytest.raises(CorruptGame, match=f"snapshot after action {latest}"):
        store.load_game(game_id)


# ---------------------------------------------------------------------------------- timeline


def test_a_timeline_gives_every_state_events_and_round_of_the_log(
    store: GameStore, rules: Ruleset
) -> None:
    game_id, states = whole_game(store, rules, seed=4)
    info, entries = store.game_log(game_id)
    timeline = Timeline(store.first_state(info), entries)
    assert timeline.total == len(states) - 1
    for seq in (0, 1, 31, 32, 33, 100, len(states) - 2, len(states) - 1):
        assert timeline.state(seq).hash() == states[seq].hash()
        assert timeline.round_of(seq) == states[seq].round
    starts = timeline.round_starts()
    assert [r for r, _ in starts] == list(range(1, states[-1].round + 1))
    for number, first in starts:
        assert timeline.start_of_round(number) == first
        assert states[first].round == number and (first == 0 or states[first - 1].round < number)


def test_a_timeline_refuses_a_log_that_does_not_replay(store: GameStore, rules: Ruleset) -> None:
    game = store.create_game(three_player_setup(rules, seed=1))
    record(store, game.info.id, play(game.state, 5))
    info, entries = store.game_log(game.info.id)
    forged = [*entries[:3], entries[3]._replace(state_hash="f" * 64), entries[4]]
    with pytest.raises(CorruptGame, match="action 4"):
        Timeline(store.first_state(info), forged)
