"""Games in the store (DESIGN §5): setup, the append-only action log committed one action at a
time, snapshots, loading by replay with hash checks, the game list, deletion."""

from __future__ import annotations

import dataclasses
import random

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

import westeros
from westeros.engine import Ruleset, apply, new_game, pending, random_action
from westeros.plugins import MissingPlugins
from westeros.saves import open_store
from westeros.store import (
    SNAPSHOT_SCHEMA_VERSION,
    CorruptGame,
    DuplicateAction,
    GameNotFound,
    GameStore,
    InvalidSetup,
    OutOfSequence,
    SeatSpec,
)
from westeros.store.models import ActionRecord, Game, GamePlugin, Snapshot

from .helpers import dump, play, record, three_player_setup


def test_create_game_stores_the_setup_and_returns_the_first_state(
    store: GameStore, rules: Ruleset
) -> None:
    setup = three_player_setup(rules, seed=7, name="Winter campaign")
    game = store.create_game(setup)
    assert game.state.hash() == new_game(rules, 3, 7).hash()
    stored = store.game(game.info.id)
    assert stored.setup == setup
    assert stored.setup.plugins == rules.plugins
    assert (stored.status, stored.round, stored.action_count, stored.winner) == (
        "active",
        1,
        0,
        None,
    )
    assert stored.human_houses == ("stark",)


def test_create_game_refuses_seats_that_are_not_the_houses_of_the_game(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    before = dump(engine)
    seats = (SeatSpec("baratheon"), SeatSpec("lannister"), SeatSpec("tyrell"))
    setup = dataclasses.replace(three_player_setup(rules), seats=seats)
    with pytest.raises(InvalidSetup, match="houses of a 3-player game"):
        store.create_game(setup)
    assert dump(engine) == before


def test_create_game_refuses_a_seat_kind_other_than_human_or_ai(
    store: GameStore, rules: Ruleset
) -> None:
    seats = (SeatSpec("baratheon", "robot"), SeatSpec("lannister"), SeatSpec("stark"))
    with pytest.raises(InvalidSetup, match="kind"):
        store.create_game(dataclasses.replace(three_player_setup(rules), seats=seats))


def test_create_game_refuses_a_plugin_that_is_not_installed(
    store: GameStore, rules: Ruleset
) -> None:
    setup = dataclasses.replace(
        three_player_setup(rules), plugins=(*rules.plugins, ("mother_of_dragons", "1.0"))
    )
    with pytest.raises(MissingPlugins, match="mother_of_dragons"):
        store.create_game(setup)
    assert store.list_games() == []


def test_appended_actions_replay_to_the_same_state(store: GameStore, rules: Ruleset) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 4)
    record(store, game.info.id, moves)
    loaded = store.load_game(game.info.id)
    assert loaded.state.hash() == moves[-1][2].hash()
    assert loaded.info.action_count == 4
    assert loaded.info.round == moves[-1][2].round


def test_each_action_is_committed_when_append_returns(
    store: GameStore, rules: Ruleset, database: tuple[str, str | None]
) -> None:
    game = store.create_game(three_player_setup(rules))
    house, action, state = play(game.state, 1)[0]
    store.append_action(game.info.id, 1, house, action, state)
    other = open_store(database[0], schema=database[1])
    try:
        assert other.load_game(game.info.id).state.hash() == state.hash()
    finally:
        other.close()


def test_a_duplicate_sequence_number_is_refused_and_the_log_is_unchanged(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 2)
    record(store, game.info.id, moves)
    before = dump(engine)
    house, action, state = moves[1]
    with pytest.raises(DuplicateAction, match="append-only"):
        store.append_action(game.info.id, 2, house, action, state)
    with pytest.raises(DuplicateAction):
        store.append_action(game.info.id, 1, house, action, state)
    assert dump(engine) == before


def test_an_action_number_after_a_gap_is_refused(store: GameStore, rules: Ruleset) -> None:
    game = store.create_game(three_player_setup(rules))
    house, action, state = play(game.state, 1)[0]
    with pytest.raises(OutOfSequence, match="next action is 1, not 3"):
        store.append_action(game.info.id, 3, house, action, state)
    assert store.game(game.info.id).action_count == 0


def test_appending_to_an_unknown_game_raises_game_not_found(
    store: GameStore, rules: Ruleset
) -> None:
    game = store.create_game(three_player_setup(rules))
    house, action, state = play(game.state, 1)[0]
    with pytest.raises(GameNotFound):
        store.append_action("no-such-game", 1, house, action, state)


def test_load_refuses_a_log_changed_in_the_database(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 3)
    record(store, game.info.id, moves)
    other_house = moves[0][0]
    with engine.begin() as connection:
        connection.execute(
            sa.update(ActionRecord.__table__)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game.info.id, sa.column("seq") == 2)
            .values(house=other_house)
        )
    with pytest.raises(CorruptGame, match="action 2"):
        store.load_game(game.info.id)


def test_load_refuses_a_recorded_hash_that_does_not_match(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    record(store, game.info.id, play(game.state, 3))
    with engine.begin() as connection:
        connection.execute(
            sa.update(ActionRecord.__table__)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game.info.id, sa.column("seq") == 3)
            .values(state_hash="0" * 64)
        )
    with pytest.raises(CorruptGame, match=r"action 3 .* does not lead to the state recorded"):
        store.load_game(game.info.id)


def test_a_game_that_no_longer_replays_names_the_versions_it_was_saved_with(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    record(store, game.info.id, play(game.state, 2))
    base, _ = rules.plugins[0]
    with engine.begin() as connection:
        connection.execute(
            sa.update(Game.__table__)  # type: ignore[arg-type]
            .where(sa.column("id") == game.info.id)
            .values(engine_version="0.0.1")
        )
        connection.execute(
            sa.update(GamePlugin.__table__)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game.info.id, sa.column("name") == base)
            .values(version="0.0.2")
        )
        connection.execute(
            sa.update(ActionRecord.__table__)  # type: ignore[arg-type]
            .where(sa.column("game_id") == game.info.id, sa.column("seq") == 2)
            .values(state_hash="0" * 64)
        )
    with pytest.raises(CorruptGame) as failure:
        store.load_game(game.info.id)
    assert f"Westeros 0.0.1 -> {westeros.__version__}" in str(failure.value)
    assert f"{base} 0.0.2 -> {rules.plugins[0][1]}" in str(failure.value)


def test_a_snapshot_records_the_hash_round_and_public_view(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 3)
    record(store, game.info.id, moves)
    store.write_snapshot(game.info.id, 3, moves[2][2])
    with engine.connect() as connection:
        row = connection.execute(
            sa.select(Snapshot.__table__).where(  # type: ignore[call-overload]
                sa.column("game_id") == game.info.id, sa.column("seq") == 3
            )
        ).one()
    assert row.schema_version == SNAPSHOT_SCHEMA_VERSION
    assert row.state_hash == moves[2][2].hash()
    assert row.round == 1
    assert row.view["houses"] == list(moves[2][2].houses)
    assert row.view["prompt"] is None


def test_a_snapshot_of_a_state_the_log_did_not_reach_is_refused(
    store: GameStore, rules: Ruleset
) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 3)
    record(store, game.info.id, moves)
    with pytest.raises(OutOfSequence, match="not the one the log reached"):
        store.write_snapshot(game.info.id, 2, moves[2][2])
    with pytest.raises(OutOfSequence, match="has 3 actions"):
        store.write_snapshot(game.info.id, 4, moves[2][2])


def test_load_checks_snapshots_of_the_current_schema_version_only(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    game = store.create_game(three_player_setup(rules))
    moves = play(game.state, 2)
    record(store, game.info.id, moves)
    store.write_snapshot(game.info.id, 1, moves[0][2])
    table = Snapshot.__table__
    where = (sa.column("game_id") == game.info.id, sa.column("seq") == 1)
    with engine.begin() as connection:
        connection.execute(
            sa.update(table)  # type: ignore[arg-type]
            .where(*where)
            .values(state_hash="f" * 64, schema_version=SNAPSHOT_SCHEMA_VERSION + 1)
        )
    assert store.load_game(game.info.id).state.hash() == moves[1][2].hash()
    with engine.begin() as connection:
        connection.execute(
            sa.update(table)  # type: ignore[arg-type]
            .where(*where)
            .values(schema_version=SNAPSHOT_SCHEMA_VERSION)
        )
    with pytest.raises(CorruptGame, match="snapshot"):
        store.load_game(game.info.id)


def test_list_games_shows_latest_played_first_with_houses_round_and_players(
    store: GameStore, rules: Ruleset
) -> None:
    first = store.create_game(three_player_setup(rules, seed=1, name="first"))
    second = store.create_game(three_player_setup(rules, seed=2, name="second"))
    record(store, first.info.id, play(first.state, 1))
    games = store.list_games()
    assert [g.setup.name for g in games] == ["first", "second"]
    assert games[0].updated_at >= games[1].updated_at
    assert games[0].human_houses == ("stark",)
    assert [s.house for s in games[0].setup.seats] == ["baratheon", "lannister", "stark"]
    assert (games[0].setup.players, games[0].round, games[0].action_count) == (3, 1, 1)
    assert [g.id for g in store.list_games(limit=1)] == [first.info.id]
    assert store.list_games(status="finished") == []
    assert second.info.id in {g.id for g in store.list_games(status="active")}


def test_delete_game_removes_its_log_snapshots_seats_and_plugins(
    store: GameStore, rules: Ruleset, engine: Engine
) -> None:
    keep = store.create_game(three_player_setup(rules, seed=1))
    before = dump(engine)
    gone = store.create_game(three_player_setup(rules, seed=2))
    moves = play(gone.state, 2)
    record(store, gone.info.id, moves)
    store.write_snapshot(gone.info.id, 2, moves[1][2])
    store.delete_game(gone.info.id)
    assert dump(engine) == before
    assert [g.id for g in store.list_games()] == [keep.info.id]
    with pytest.raises(GameNotFound):
        store.load_game(gone.info.id)
    with pytest.raises(GameNotFound):
        store.delete_game(gone.info.id)


def test_a_game_without_ports_reloads_without_ports(
    store: GameStore, rules_no_ports: Ruleset
) -> None:
    game = store.create_game(three_player_setup(rules_no_ports))
    moves = play(game.state, 4)
    record(store, game.info.id, moves)
    loaded = store.load_game(game.info.id)
    assert "westeros_ports" not in {name for name, _ in loaded.state.rules.plugins}
    assert loaded.state.hash() == moves[-1][2].hash()


def test_options_and_a_text_seed_are_kept(store: GameStore, rules: Ruleset) -> None:
    setup = three_player_setup(rules, seed="winter is coming", options={"tides_of_battle": True})
    game = store.create_game(setup)
    assert game.state.hash() == new_game(rules, 3, "winter is coming", setup.options).hash()
    loaded = store.load_game(game.info.id)
    assert loaded.info.setup.seed == "winter is coming"
    assert loaded.state.options["tides_of_battle"] is True
    assert loaded.state.hash() == game.state.hash()


def test_a_64_bit_seed_is_kept_exactly(store: GameStore, rules: Ruleset) -> None:
    seed = 2**64 - 1
    game = store.create_game(three_player_setup(rules, seed=seed))
    assert store.game(game.info.id).setup.seed == seed
    assert store.load_game(game.info.id).state.hash() == new_game(rules, 3, seed).hash()


def test_a_finished_game_is_listed_as_finished_with_its_winner(
    store: GameStore, rules: Ruleset
) -> None:
    """A whole game (RULES.md 9: it ends with a winner) stored action by action and reloaded."""
    game = store.create_game(three_player_setup(rules, seed=4))
    state, seq = game.state, 0
    rnd = random.Random(4)
    while pending(state):
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        seq += 1
        store.append_action(game.info.id, seq, house, action, state)
    assert state.winner is not None
    info = store.game(game.info.id)
    assert (info.status, info.winner, info.round) == ("finished", state.winner, state.round)
    assert [g.id for g in store.list_games(status="finished")] == [game.info.id]
    assert store.load_game(game.info.id).state.hash() == state.hash()
    copy = store.import_game(store.export_json(game.info.id))
    assert (copy.status, copy.winner) == ("finished", state.winner)
