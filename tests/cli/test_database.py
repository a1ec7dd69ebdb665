"""A saved-games database that cannot be read (release issue, acceptance 2): it is set aside,
renamed and kept byte for byte, the app starts with a fresh one and says where the old file is,
on the terminal and on the start screen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.cli.helpers import ADDRESS, Running, isolated_env, page_opener
from westeros.store.db import set_aside_unreadable, unreadable_reason

GARBAGE = b"this was never a SQLite database \x00\xff" * 300


def _damaged_sqlite(path: Path) -> bytes:
    """A real SQLite file with a valid header whose pages were overwritten."""
    with sqlite3.connect(path) as db:
        db.execute("create table games (id integer primary key, body text)")
        db.executemany("insert into games (body) values (?)", [("x" * 500,)] * 200)
    data = bytearray(path.read_bytes())
    data[4096:12288] = b"\x5a" * 8192
    path.write_bytes(bytes(data))
    return bytes(data)


@pytest.mark.parametrize("damage", ["not-sqlite", "damaged-pages"])
def test_an_unreadable_database_is_set_aside_and_a_fresh_one_starts(
    tmp_path: Path, damage: str
) -> None:
    database = tmp_path / "saves" / "westeros.db"
    database.parent.mkdir()
    if damage == "not-sqlite":
        database.write_bytes(GARBAGE)
        original = GARBAGE
    else:
        original = _damaged_sqlite(database)
    core = Running(
        ["serve", "--ai-delay", "0", "--database", f"sqlite:///{database}"],
        isolated_env(tmp_path),
        tmp_path,
    )
    try:
        url = core.wait_for(ADDRESS).group(0)
        kept = [
            p for p in database.parent.iterdir() if p.name.startswith("westeros.db.unreadable-")
        ]
        assert len(kept) == 1
        assert kept[0].read_bytes() == original
        assert str(kept[0]) in core.stderr
        assert "started with a fresh database" in core.stderr
        opener = page_opener()
        start = opener.open(url, timeout=10).read().decode()
        assert 'data-testid="database-set-aside"' in start
        assert str(kept[0]) in start
        assert 'name="players"' in start
    finally:
        core.interrupt()
        assert core.finish() == 0
    with sqlite3.connect(database) as fresh:
        assert fresh.execute("pragma quick_check").fetchone() == ("ok",)
    assert "Traceback" not in core.stderr


def test_a_good_database_is_left_where_it_is(tmp_path: Path) -> None:
    database = tmp_path / "westeros.db"
    env = isolated_env(tmp_path)
    for _ in range(2):
        core = Running(
            ["serve", "--ai-delay", "0", "--database", f"sqlite:///{database}"], env, tmp_path
        )
        url = core.wait_for(ADDRESS).group(0)
        opener = page_opener()
        assert (
            'data-testid="database-set-aside"' not in opener.open(url, timeout=10).read().decode()
        )
        core.interrupt()
        assert core.finish() == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("westeros.db")] == [
        "westeros.db"
    ]


def test_the_write_ahead_log_is_set_aside_with_its_database(tmp_path: Path) -> None:
    database = tmp_path / "westeros.db"
    database.write_bytes(GARBAGE)
    wal = tmp_path / "westeros.db-wal"
    wal.write_bytes(b"log bytes")
    done = set_aside_unreadable(f"sqlite:///{database}")
    assert done is not None
    assert done.reason == "file is not a database"
    assert not database.exists() and not wal.exists()
    assert done.kept.read_bytes() == GARBAGE
    assert done.kept.with_name(done.kept.name + "-wal").read_bytes() == b"log bytes"


def test_a_database_that_is_only_busy_is_not_set_aside(tmp_path: Path) -> None:
    database = tmp_path / "westeros.db"
    with sqlite3.connect(database) as db:
        db.execute("create table t (x)")
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("begin exclusive")
    try:
        assert unreadable_reason(database) is None
    finally:
        holder.execute("rollback")
        holder.close()
    assert set_aside_unreadable(f"sqlite:///{database}") is None
    assert database.exists()
