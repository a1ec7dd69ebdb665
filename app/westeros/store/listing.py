"""Reading game rows that may be damaged (a tampered or half-written database).

One bad row must not take the game list down with it: rows are read as raw text, each one
checked on its own, and a game whose record (options not JSON, a bad date) or log (an action
that is not JSON, gaps) cannot be read is listed apart as a ``DamagedGame`` with the reason,
while every other game lists as usual. So is a game whose log was found not to replay when it
was loaded (the store remembers those: ``GameStore.load_game``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from .errors import CorruptGame
from .models import ActionRecord, Game, as_utc
from .records import DamagedGame
from .replay import LogEntry

GAMES_TABLE: sa.Table = Game.__table__  # type: ignore[attr-defined]
ACTIONS_TABLE: sa.Table = ActionRecord.__table__  # type: ignore[attr-defined]
_JSON = ("seed", "options")
_TIMES = ("created_at", "updated_at")


class Damaged(ValueError):
    """A row that cannot be read; the message says why."""


def _raw(table: sa.Table, names: tuple[str, ...]) -> list[Any]:
    return [sa.type_coerce(c, sa.Text).label(c.name) if c.name in names else c for c in table.c]


def _json(value: Any, what: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise Damaged(f"{what} not JSON ({exc.msg})") from exc


def _time(value: Any, what: str) -> datetime:
    if isinstance(value, datetime):
        return as_utc(value)
    try:
        return as_utc(datetime.fromisoformat(str(value)))
    except ValueError as exc:
        raise Damaged(f"its {what} is not a date ({str(value)[:40]!r})") from exc


def _game(row: sa.Row[Any]) -> Game:
    values = dict(row._mapping)
    values["seed"] = _json(values["seed"], "its seed is")
    values["options"] = _json(values["options"], "its options are")
    if not isinstance(values["options"], dict):
        raise Damaged("its options are not a JSON object")
    if isinstance(values["seed"], bool) or not isinstance(values["seed"], int | str):
        raise Damaged("its seed is neither a number nor a text")
    values["created_at"] = _time(values["created_at"], "creation date")
    values["updated_at"] = _time(values["updated_at"], "date of last play")
    return Game(**values)


def _log_problems(session: Session, ids: list[str]) -> dict[str, str]:
    """Games whose action rows are visibly damaged: gaps, or (SQLite) text that is not JSON."""
    if not ids:
        return {}
    counts = session.execute(
        sa.select(ACTIONS_TABLE.c.game_id, sa.func.count(), sa.func.max(ACTIONS_TABLE.c.seq))
        .where(ACTIONS_TABLE.c.game_id.in_(ids))
        .group_by(ACTIONS_TABLE.c.game_id)
    ).all()
    expected = dict(
        session.execute(
            sa.select(GAMES_TABLE.c.id, GAMES_TABLE.c.action_count).where(GAMES_TABLE.c.id.in_(ids))
        ).all()
    )
    found = {game_id: (n, top) for game_id, n, top in counts}
    problems = {}
    for game_id in ids:
        n, top = found.get(game_id, (0, 0))
        if n != expected.get(game_id) or (top or 0) != n:
            problems[game_id] = (
                f"its log has {n} actions where {expected.get(game_id)} were recorded"
            )
    if session.get_bind().dialect.name == "sqlite":
        bad = session.execute(
            sa.select(ACTIONS_TABLE.c.game_id, sa.func.min(ACTIONS_TABLE.c.seq))
            .where(
                ACTIONS_TABLE.c.game_id.in_(ids), sa.func.json_valid(ACTIONS_TABLE.c.action) == 0
            )
            .group_by(ACTIONS_TABLE.c.game_id)
        ).all()
        problems.update({game_id: f"its action {seq} is not JSON" for game_id, seq in bad})
    return problems


def scan(
    session: Session, status: str | None, limit: int | None, marked: Mapping[str, str]
) -> tuple[list[Game], list[DamagedGame]]:
    """The readable games (most recently played first) and the damaged ones; ``marked``: the
    games found not to load, with why (never among the readable ones)."""
    query = sa.select(*_raw(GAMES_TABLE, (*_JSON, *_TIMES))).order_by(
        sa.type_coerce(GAMES_TABLE.c.updated_at, sa.Text).desc(), GAMES_TABLE.c.id
    )
    if status is not None:
        query = query.where(GAMES_TABLE.c.status == status)
    if marked:
        query = query.where(GAMES_TABLE.c.id.not_in(list(marked)))
    if limit is not None:
        query = query.limit(limit)
    rows = session.execute(query).all()
    problems = _log_problems(session, [r.id for r in rows])
    games, damaged = [], []
    for row in rows:
        try:
            game = _game(row)
        except (Damaged, ValueError, TypeError) as exc:
            damaged.append(DamagedGame(row.id, str(row.name or ""), str(exc)))
            continue
        if row.id in problems:
            damaged.append(DamagedGame(row.id, game.name, problems[row.id], readable=True))
        else:
            games.append(game)
    if marked:
        names = session.execute(
            sa.select(GAMES_TABLE.c.id, GAMES_TABLE.c.name).where(
                GAMES_TABLE.c.id.in_(list(marked))
            )
        ).all()
        damaged += [DamagedGame(i, str(n or ""), marked[i], readable=True) for i, n in names]
    return games, damaged


def damage(session: Session, game_id: str) -> str:
    """Why the record of ``game_id`` cannot be read."""
    row = session.execute(
        sa.select(*_raw(GAMES_TABLE, (*_JSON, *_TIMES))).where(GAMES_TABLE.c.id == game_id)
    ).first()
    if row is None:
        return "its record is missing"
    try:
        _game(row)
    except (Damaged, ValueError, TypeError) as exc:
        return str(exc)
    return "its record cannot be read"


def read_log(session: Session, game_id: str) -> tuple[LogEntry, ...]:
    """The game's action log, in order; CorruptGame names the first row that cannot be read."""
    rows = session.execute(
        sa.select(*_raw(ACTIONS_TABLE, ("action",)))
        .where(ACTIONS_TABLE.c.game_id == game_id)
        .order_by(ACTIONS_TABLE.c.seq)
    ).all()
    log = []
    for row in rows:
        try:
            action = _json(row.action, "it is")
        except Damaged as exc:
            raise CorruptGame(f"game {game_id!r}: action {row.seq} is damaged: {exc}") from exc
        if not isinstance(action, dict):
            raise CorruptGame(f"game {game_id!r}: action {row.seq} is not a JSON object")
        log.append(LogEntry(row.seq, row.house, action, row.state_hash))
    return tuple(log)
