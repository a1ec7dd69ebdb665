"""A game read while another worker commits its next action (docs/online.md, DESIGN §5): the
reader sees the game as one snapshot — the record, the log and the snapshots of one moment —
never a log that seems to have gaps. The interleaving is forced: the other worker commits
right between the reader's first query (the game's record) and its next ones."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.store.helpers import play, postgres_unavailable, three_player_setup
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.store import GameStore

from .live import fresh_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """A game store on a SQLite file (WAL, as the app opens it) or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        opened = open_store(f"sqlite:///{tmp_path / 'race.db'}")
        yield opened
        opened.close()
        return
    reason = postgres_unavailable()
    if reason:
        pytest.skip(reason)
    with fresh_schema(os.environ["WESTEROS_TEST_POSTGRES_URL"]) as url:
        opened = open_store(url)
        yield opened
        opened.close()


def test_a_game_read_while_its_next_action_is_committed_reads_as_one_moment(
    store: GameStore,
) -> None:
    game = store.create_game(three_player_setup(build_ruleset({})))
    moves = play(game.state, 4)
    for seq, (house, action, state) in enumerate(moves[:3], start=1):
        store.append_action(game.info.id, seq, house, action, state)
    reader = threading.get_ident()
    committed = threading.Event()

    def commit_the_fourth() -> None:
        house, action, state = moves[3]
        store.append_action(game.info.id, 4, house, action, state)
        committed.set()

    def between_queries(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # the reader has read the game's record; now the other worker commits action 4
        if threading.get_ident() == reader and not committed.is_set() and "actions" in statement:
            writer = threading.Thread(target=commit_the_fourth)
            writer.start()
            writer.join(30)

    sa.event.listen(store.engine, "before_cursor_execute", between_queries)
    try:
        loaded = store.load_game(game.info.id)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", between_queries)
    assert committed.is_set()  # the commit really happened in the middle of the read
    assert loaded.info.action_count == loaded.state.serial == 3  # the moment the read began
    assert loaded.state.hash() == moves[2][2].hash()
    again = store.load_game(game.info.id)  # and the next read sees the new action
    assert again.info.action_count == again.state.serial == 4
    assert again.state.hash() == moves[3][2].hash()
