"""Helpers for the store tests: a short real game, and a dump of the whole database."""

from __future__ import annotations

import functools
import os
import random
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from westeros.engine import Action, Ruleset, State, apply, pending, random_action
from westeros.store import GameSetup, GameStore, SeatSpec
from westeros.store.db import make_url
from westeros.store.models import StoreModel

ENV_TEST_POSTGRES_URL = "WESTEROS_TEST_POSTGRES_URL"
ENV_TEST_POSTGRES_REQUIRED = "WESTEROS_TEST_POSTGRES_REQUIRED"
THREE = ("baratheon", "lannister", "stark")


@functools.cache
def postgres_unavailable() -> str | None:
    """Why the PostgreSQL tests cannot run, or None when they can."""
    url = os.environ.get(ENV_TEST_POSTGRES_URL)
    if not url:
        return (
            f"PostgreSQL store tests need {ENV_TEST_POSTGRES_URL} "
            "(e.g. postgresql://postgres@127.0.0.1:5432/test)"
        )
    engine = sa.create_engine(make_url(url), connect_args={"connect_timeout": 10})
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))
    except sa.exc.OperationalError as exc:
        safe = make_url(url).render_as_string(hide_password=True)
        return f"PostgreSQL at {safe} is unreachable: {exc.orig}"
    finally:
        engine.dispose()
    return None


def three_player_setup(rules: Ruleset, seed: int | str = 7, **kwargs: Any) -> GameSetup:
    """A 3-player game: Stark human, the others AI."""
    seats = tuple(SeatSpec(h, "human" if h == "stark" else "ai", h.title()) for h in THREE)
    return GameSetup(3, seats, seed, rules.plugins, **kwargs)


def play(state: State, count: int, seed: int = 1) -> list[tuple[str, Action, State]]:
    """``count`` random legal decisions from ``state``: (house, action, resulting state)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        out.append((house, action, state))
    return out


def record(store: GameStore, game_id: str, moves: list[tuple[str, Action, State]]) -> None:
    """Append ``moves`` to a game's log, numbered from 1."""
    for seq, (house, action, state) in enumerate(moves, start=1):
        store.append_action(game_id, seq, house, action, state)


def dump(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (and the migration version), for "unchanged" comparisons."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as connection:
        for table in StoreModel.metadata.sorted_tables:
            rows = connection.execute(sa.select(table)).all()
            out[table.name] = sorted((tuple(repr(v) for v in row) for row in rows), key=repr)
        out["alembic_version"] = list(
            connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        )
    return out
