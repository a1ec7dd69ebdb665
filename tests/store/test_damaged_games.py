"""Corrupt data (issue 14, Why 3): one damaged row shows that game as damaged, with the reason,
while every other game, the start screen and New game keep working; imported files are held
to size, nesting and option limits with a clear error (HTTP 400) before anything is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.server.conftest import BASE, COOKIE, PORT, TOKEN, random_bots
from westeros.engine import Ruleset
from westeros.saves import open_store
from westeros.server import create_app
from westeros.store import CorruptGame, GameStore, InvalidGameFile
from westeros.store.archive import MAX_DEPTH, MAX_FILE_BYTES

from .helpers import dump, play, record, three_player_setup


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'westeros.db'}"


@pytest.fixture
def sqlite_store(url: str) -> Iterator[GameStore]:
    store = open_store(url)
    yield store
    store.close()


def two_games(store: GameStore, rules: Ruleset) -> tuple[str, str]:
    """A healthy game and one to damage, each with a few actions."""
    ids = []
    for seed in (1, 2):
        game = store.create_game(three_player_setup(rules, seed=seed, name=f"game {seed}"))
        record(store, game.info.id, play(game.state, 6, seed=seed))
        ids.append(game.info.id)
    return ids[0], ids[1]


def damage(store: GameStore, sql: str, game_id: str) -> None:
    with store.engine.begin() as connection:
        connection.execute(sa.text(sql), {"id": game_id})


BAD_ROWS = {
    "options not JSON": ("UPDATE games SET options = '{oops' WHERE id = :id", "options"),
    "bad date": ("UPDATE games SET updated_at = 'last winter' WHERE id = :id", "date"),
    "bad action row": (
        "UPDATE actions SET action = '[not json' WHERE game_id = :id AND seq = 3",
        "action 3",
    ),
}


@pytest.mark.parametrize("what", sorted(BAD_ROWS))
def test_one_bad_row_lists_that_game_as_damaged_and_the_others_as_usual(
    sqlite_store: GameStore, rules: Ruleset, what: str
) -> None:
    healthy, broken = two_games(sqlite_store, rules)
    sql, reason = BAD_ROWS[what]
    damage(sqlite_store, sql, broken)
    assert [g.id for g in sqlite_store.list_games()] == [healthy]
    [damaged] = sqlite_store.damaged_games()
    assert (damaged.id, damaged.name) == (broken, "game 2")
    assert reason in damaged.reason
    assert sqlite_store.load_game(healthy).state.serial == 6
    with pytest.raises(CorruptGame, match=reason):
        sqlite_store.load_game(broken)


@pytest.mark.parametrize("what", sorted(BAD_ROWS))
def test_the_start_screen_shows_a_damaged_game_and_new_game_still_works(
    url: str, rules: Ruleset, what: str
) -> None:
    store = open_store(url)
    healthy, broken = two_games(store, rules)
    damage(store, BAD_ROWS[what][0], broken)
    store.close()
    app = create_app(token=TOKEN, store_url=url, port=PORT, ai_factory=random_bots)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        page = client.get("/")
        assert page.status_code == 200
        assert f'data-testid="damaged-game" data-game="{broken}"' in page.text
        assert BAD_ROWS[what][1] in page.text
        assert f'data-game="{healthy}"' in page.text
        created = client.post("/games", data={"players": "3", "house": "stark", "seed": "4"})
        assert created.status_code == 303
        assert created.headers["location"].startswith("/games/")


# ---------------------------------------------------------------------------------- imports


def exported(store: GameStore, rules: Ruleset) -> dict[str, Any]:
    game = store.create_game(three_player_setup(rules, seed=9))
    record(store, game.info.id, play(game.state, 5, seed=9))
    return store.export_game(game.info.id)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (nested(5_000), f"deeper than {MAX_DEPTH} levels"),
        ('{"format": "westeros-game", "x": ' + nested(MAX_DEPTH + 1) + "}", "deeper than"),
        ('"' + "x" * MAX_FILE_BYTES + '"', f"larger than {MAX_FILE_BYTES // 2**20} MiB"),
    ],
    ids=["5000-deep", "deep-inside", "too-large"],
)
def test_an_import_too_deep_or_too_large_is_refused_before_it_is_parsed(
    sqlite_store: GameStore, text: str, reason: str
) -> None:
    before = dump(sqlite_store.engine)
    with pytest.raises(InvalidGameFile, match=reason):
        sqlite_store.import_game(text.encode())
    assert dump(sqlite_store.engine) == before


def test_brackets_inside_texts_do_not_count_as_nesting(
    sqlite_store: GameStore, rules: Ruleset
) -> None:
    document = exported(sqlite_store, rules)
    document["game"]["name"] = "[" * 150
    info = sqlite_store.import_game(json.dumps(document))
    assert info.setup.name == "[" * 150


def test_an_import_with_options_the_plugins_do_not_offer_is_refused_naming_them(
    sqlite_store: GameStore, rules: Ruleset
) -> None:
    document = exported(sqlite_store, rules)
    document["game"]["options"] = {"fog_of_war": True, "padding": list(range(150_000))}
    before = dump(sqlite_store.engine)
    with pytest.raises(InvalidGameFile, match="do not offer: fog_of_war, padding"):
        sqlite_store.import_game(json.dumps(document))
    assert dump(sqlite_store.engine) == before


def test_an_import_with_an_option_of_the_wrong_type_is_refused(
    sqlite_store: GameStore, rules: Ruleset
) -> None:
    document = exported(sqlite_store, rules)
    document["game"]["options"] = {"tides_of_battle": ["yes"] * 1000}
    with pytest.raises(InvalidGameFile, match="tides_of_battle must be a bool, not list"):
        sqlite_store.import_game(json.dumps(document))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (nested(5_000).encode(), "deeper than"),
        (b" " * (MAX_FILE_BYTES + 200_000), "larger than"),
    ],
    ids=["5000-deep", "too-large"],
)
def test_the_import_route_answers_400_with_the_reason(
    url: str, content: bytes, reason: str
) -> None:
    app = create_app(token=TOKEN, store_url=url, port=PORT, ai_factory=random_bots)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        response = client.post(
            "/games/import", files={"file": ("game.json", content, "application/json")}
        )
    assert response.status_code == 400
    assert 'data-testid="import-error"' in response.text
    assert reason in response.text
