"""A game that really cannot be loaded (issue 35 finding 1): opening it shows a styled page in
the player's language with the reason and a way back, never a bare text page; from then on the
start screen lists it as damaged (with its delete button), never as the game to continue; a
game that loads again (its plugins put back, say) is listed as usual again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.requests import Request

from tests.server.conftest import BASE, COOKIE, PORT, TOKEN, random_bots
from westeros.engine import Ruleset
from westeros.saves import open_store
from westeros.server import create_app
from westeros.store import CorruptGame, GameStore

from .helpers import play, record, three_player_setup

BROKEN_HASH = "0" * 64


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'westeros.db'}"


@pytest.fixture
def games(url: str, rules: Ruleset) -> tuple[str, str, str]:
    """A healthy game played first, then a game whose action 3 is recorded with a hash it
    does not lead to (played last: the one Continue offers), and the true hash of that
    action."""
    store = open_store(url)
    ids = []
    for seed, name in ((1, "healthy"), (2, "broken")):
        game = store.create_game(three_player_setup(rules, seed=seed, name=name))
        record(store, game.info.id, play(game.state, 6, seed=seed))
        ids.append(game.info.id)
    healthy, broken = ids
    true_hash = set_hash(store, broken, BROKEN_HASH)
    store.close()
    return healthy, broken, true_hash


def set_hash(store: GameStore, game_id: str, digest: str) -> str:
    """Record ``digest`` as the state hash after action 3 of ``game_id``; returns the old."""
    where = "WHERE game_id = :id AND seq = 3"
    with store.engine.begin() as connection:
        old = connection.execute(
            sa.text(f"SELECT state_hash FROM actions {where}"), {"id": game_id}
        ).scalar_one()
        connection.execute(
            sa.text(f"UPDATE actions SET state_hash = :digest {where}"),
            {"id": game_id, "digest": digest},
        )
    return str(old)


@pytest.fixture
def app(url: str) -> FastAPI:
    return create_app(token=TOKEN, store_url=url, port=PORT, ai_factory=random_bots)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        c.cookies.set(COOKIE, TOKEN)
        yield c


def continued(page: str) -> str:
    """The start screen's "Continue" section (empty when there is none)."""
    start = page.find('data-testid="continue"')
    return "" if start < 0 else page[start : page.index("</section>", start)]


def test_issue35_f1_an_unloadable_game_opens_a_styled_page_with_the_reason_and_a_way_back(
    client: TestClient, games: tuple[str, str, str]
) -> None:
    """Issue 35 finding 1: opening a game whose log does not replay shows the app's own
    page (its stylesheet, its title) saying why, with a link back to the start screen and
    one to delete it, instead of a bare unstyled text page."""
    _, broken, _ = games
    page = client.get(f"/games/{broken}/play/stark")
    assert page.status_code == 500
    assert page.headers["content-type"].startswith("text/html")
    assert 'href="/static/css/base.css"' in page.text
    assert f'data-testid="damaged-page" data-game="{broken}"' in page.text
    assert "This game cannot be loaded" in page.text
    assert "action 3 (" in page.text
    assert "does not lead to the state recorded with it" in page.text
    assert 'href="/" data-testid="back-to-start"' in page.text
    assert f'href="/games/{broken}/delete" data-testid="delete-damaged"' in page.text


def test_issue35_f1_after_it_failed_to_load_the_start_screen_lists_it_as_damaged_not_continue(
    client: TestClient, games: tuple[str, str, str]
) -> None:
    """Issue 35 finding 1: once a game failed to load, Continue offers the next game that
    loads (never the broken one, which was played last) and the broken one is listed with
    the damaged games, with the reason and a delete button that deletes it."""
    healthy, broken, _ = games
    assert f'data-game="{broken}"' in continued(client.get("/").text)  # not known yet
    assert client.get(f"/games/{broken}/play/stark").status_code == 500
    start = client.get("/").text
    assert f'data-game="{broken}"' not in continued(start)
    assert f'data-game="{healthy}"' in continued(start)
    assert f'data-testid="damaged-game" data-game="{broken}"' in start
    assert f'data-testid="delete-{broken}"' in start
    deleted = client.post(f"/games/{broken}/delete", data={"confirm": broken})
    assert deleted.status_code == 303
    assert broken not in client.get("/").text


def test_issue35_f1_the_damaged_page_speaks_the_players_language(
    app: FastAPI, games: tuple[str, str, str]
) -> None:
    """Issue 35 finding 1: the page of a game that cannot be loaded is translated (zh-CN)."""
    _, broken, _ = games
    request = Request({"type": "http", "query_string": b"lang=zh-CN", "headers": []})
    page = app.state.core.cannot_load(broken, CorruptGame("action 3 broke"), request)
    text = page.body.decode()
    assert "这局游戏无法读取" in text
    assert "返回开始界面" in text
    assert "action 3 broke" in text


def test_issue35_f1_a_game_that_loads_again_is_no_longer_listed_as_damaged(
    url: str, games: tuple[str, str, str]
) -> None:
    """Issue 35 finding 1: the store remembers a game that did not load as damaged (out of
    the games to continue, with the reason) only until it loads again."""
    healthy, broken, true_hash = games
    store = open_store(url)
    with pytest.raises(CorruptGame, match=r"action 3 .* does not lead to the state recorded"):
        store.load_game(broken)
    assert [g.id for g in store.list_games(status="active")] == [healthy]
    [damaged] = store.damaged_games()
    assert (damaged.id, damaged.name, damaged.readable) == (broken, "broken", True)
    assert "does not lead to the state recorded with it" in damaged.reason
    set_hash(store, broken, true_hash)
    assert store.load_game(broken).state.serial == 6
    assert [g.id for g in store.list_games(status="active")] == [broken, healthy]
    assert store.damaged_games() == []
    store.close()


def test_issue35_f1_a_game_whose_record_cannot_be_read_is_listed_once_without_a_delete_button(
    client: TestClient, url: str, games: tuple[str, str, str]
) -> None:
    """Issue 35 finding 1: a game whose record itself cannot be read (its options are not
    JSON) opens the styled page without a delete link (the delete page cannot show it) and
    is listed once among the damaged games, never to continue."""
    _, broken, _ = games
    store = open_store(url)
    with store.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE games SET options = '{oops' WHERE id = :id"), {"id": broken}
        )
    store.close()
    page = client.get(f"/games/{broken}/play/stark")
    assert page.status_code == 500
    assert "its options are not JSON" in page.text
    assert 'href="/" data-testid="back-to-start"' in page.text
    assert "delete-damaged" not in page.text
    start = client.get("/").text
    assert start.count(f'data-testid="damaged-game" data-game="{broken}"') == 1
    assert f'data-testid="delete-{broken}"' not in start
    assert f'data-game="{broken}"' not in continued(start)
