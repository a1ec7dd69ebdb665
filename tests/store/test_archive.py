"""Export and import of a game as one JSON file: a round trip gives the same game, and a damaged
or forged file is refused with a clear error while the database stays exactly as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from westeros.engine import Ruleset
from westeros.saves import ruleset_for
from westeros.store import FORMAT_VERSION, GameStore, InvalidGameFile, LoadedGame

from .helpers import dump, play, record, three_player_setup

Tamper = Callable[[dict[str, Any]], Any]


@pytest.fixture
def exported(store: GameStore, rules: Ruleset) -> tuple[LoadedGame, str]:
    """A 3-player game four decisions in (the Planning phase, RULES.md 4), exported."""
    game = store.create_game(three_player_setup(rules, name="Exported"))
    moves = play(game.state, 4)
    record(store, game.info.id, moves)
    return store.load_game(game.info.id), store.export_json(game.info.id)


def test_export_holds_setup_plugins_log_and_hashes(
    exported: tuple[LoadedGame, str], rules: Ruleset
) -> None:
    game, text = exported
    doc = json.loads(text)
    assert (doc["format"], doc["version"]) == ("westeros-game", FORMAT_VERSION)
    assert doc["game"]["seed"] == 7
    assert doc["game"]["plugins"] == [{"name": n, "version": v} for n, v in rules.plugins]
    assert [s["house"] for s in doc["game"]["seats"]] == ["baratheon", "lannister", "stark"]
    assert [a["seq"] for a in doc["actions"]] == [1, 2, 3, 4]
    assert doc["final_hash"] == game.state.hash()


def test_import_into_an_empty_database_gives_the_same_game(
    exported: tuple[LoadedGame, str], engine: Engine
) -> None:
    game, text = exported
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM games"))
    other = GameStore(engine, rulesets=ruleset_for)
    info = other.import_game(text.encode("utf-8"))
    assert info.id == game.info.id
    assert info.setup == game.info.setup
    assert (info.action_count, info.round, info.status) == (4, game.state.round, "active")
    assert info.created_at == game.info.created_at
    assert other.load_game(info.id).state.hash() == game.state.hash()


def test_importing_a_game_already_stored_gives_it_a_new_id(
    store: GameStore, exported: tuple[LoadedGame, str]
) -> None:
    game, text = exported
    info = store.import_game(text)
    assert info.id != game.info.id
    assert store.load_game(info.id).state.hash() == game.state.hash()
    assert len(store.list_games()) == 2


def _illegal_area(doc: dict[str, Any]) -> None:
    """The first placement names an area of another house (RULES.md 4.1)."""
    first = doc["actions"][0]
    mine = {area for area, _ in first["action"]["orders"]}
    other = next(
        area
        for action in doc["actions"][1:]
        if action["action"]["kind"] == "place_orders" and action["house"] != first["house"]
        for area, _ in action["action"]["orders"]
        if area not in mine
    )
    first["action"]["orders"][0][0] = other


def _other_token(doc: dict[str, Any]) -> None:
    """A legal but different placement: two of the house's orders swap areas."""
    orders = doc["actions"][0]["action"]["orders"]
    orders[0][1], orders[1][1] = orders[1][1], orders[0][1]


def _set(path: tuple[Any, ...], value: Any) -> Tamper:
    def tamper(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return tamper


def _drop(path: tuple[Any, ...]) -> Tamper:
    def tamper(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return tamper


TAMPERED: dict[str, tuple[Tamper, str]] = {
    "an action made illegal": (_illegal_area, r"action 1 \(\w+\) is not legal"),
    "an action changed but legal": (_other_token, r"action 1 \(\w+\) does not lead"),
    "an action of the wrong house": (
        lambda d: _set(("actions", 0, "house"), d["actions"][2]["house"])(d),
        r"action 1 \(\w+\) is not legal",
    ),
    "an unknown action kind": (_set(("actions", 1, "action", "kind"), "poison"), "unknown action"),
    "an unknown plugin": (
        lambda d: d["game"]["plugins"].append({"name": "westeros_dragons", "version": "9"}),
        "westeros_dragons",
    ),
    "the seed changed": (_set(("game", "seed"), 8), "does not lead"),
    "the last action removed": (lambda d: d["actions"].pop(), "final state"),
    "actions renumbered": (_set(("actions", 1, "seq"), 5), "numbered 5"),
    "a seat for a house not in the game": (
        _set(("game", "seats", 0, "house"), "martell"),
        "not the houses",
    ),
    "a seat kind that does not exist": (_set(("game", "seats", 0, "kind"), "robot"), "kind"),
    "a newer format version": (_set(("version",), FORMAT_VERSION + 1), "newer Westeros"),
    "not a game file": (_set(("format",), "chess-pgn"), "not a Westeros game file"),
    "a missing field": (_drop(("game", "seed")), r"game\.seed"),
    "an extra field": (_set(("game", "cheat"), True), r"game\.cheat"),
    "a number as text": (_set(("game", "players"), "3"), r"game\.players"),
    "a hash that is not a hash": (_set(("final_hash",), "abc"), "final_hash"),
    "too many players for the seats": (_set(("game", "players"), 4), "4 players but 3 seats"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_file_is_refused_and_the_database_is_unchanged(
    store: GameStore, engine: Engine, exported: tuple[LoadedGame, str], case: str
) -> None:
    _, text = exported
    tamper, message = TAMPERED[case]
    doc = json.loads(text)
    tamper(doc)
    before = dump(engine)
    with pytest.raises(InvalidGameFile, match=message):
        store.import_game(json.dumps(doc))
    assert dump(engine) == before


@pytest.mark.parametrize("cut", [1, 100, 1000])
def test_a_truncated_file_is_refused_and_the_database_is_unchanged(
    store: GameStore, engine: Engine, exported: tuple[LoadedGame, str], cut: int
) -> None:
    _, text = exported
    before = dump(engine)
    with pytest.raises(InvalidGameFile, match="not valid JSON, damaged or cut short"):
        store.import_game(text[:-cut])
    assert dump(engine) == before


def test_a_file_that_is_not_text_is_refused(store: GameStore, engine: Engine) -> None:
    before = dump(engine)
    with pytest.raises(InvalidGameFile, match="not UTF-8"):
        store.import_game(b"\x89PNG\r\n\x1a\n\xff\xfe")
    assert dump(engine) == before


def test_an_import_that_fails_while_writing_leaves_nothing_behind(
    store: GameStore, engine: Engine, exported: tuple[LoadedGame, str]
) -> None:
    """The game, its seats and plugins are written before the log: a failure on the log must
    roll all of them back."""
    _, text = exported
    before = dump(engine)

    def refuse_the_log(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
            raise RuntimeError("disk full")

    sa.event.listen(engine, "before_cursor_execute", refuse_the_log)
    try:
        with pytest.raises(RuntimeError, match="disk full"):
            store.import_game(text)
    finally:
        sa.event.remove(engine, "before_cursor_execute", refuse_the_log)
    assert dump(engine) == before
