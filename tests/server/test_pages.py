"""Pages and catalogs of the local core: the start screen, a new game from the form, the board
page with the inline map, and the UI strings in another language through gettext catalogs."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.server.conftest import BASE, COOKIE, TOKEN, receive, seat_url
from westeros import hookimpl
from westeros.plugins import load
from westeros.saves import open_store
from westeros.server.games import Games
from westeros.store import AI, HUMAN

GERMAN = {
    "New game": "Neues Spiel",
    "Round {round} begins.": "Runde {round} beginnt.",
}


@pytest.fixture
def german(tmp_path: Path) -> Path:
    """A folder holding a compiled German catalog (de/LC_MESSAGES/westeros.mo)."""
    catalog = Catalog(locale="de", domain="westeros")
    for english, german_text in GERMAN.items():
        catalog.add(english, german_text)
    catalog.add(("{n} ship", "{n} ships"), ("{n} Schiff", "{n} Schiffe"))
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "westeros.mo").open("wb") as out:
        write_mo(out, catalog)
    return tmp_path / "locale"


def test_start_page_offers_player_counts_houses_and_options(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.text
    assert '<form class="start-form" method="post" action="/games"' in page
    for n in (3, 4, 5, 6):
        assert f'name="players" value="{n}"' in page
    for house in ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"):
        assert f'name="house" value="{house}"' in page
    assert 'name="plugin" value="westeros_ports" checked' in page  # ports on by default
    assert 'name="tides_of_battle" value="on">' in page  # Tides of Battle off by default


def test_new_game_form_creates_the_game_and_redirects_to_the_board(
    client: TestClient, store_url: str
) -> None:
    response = client.post(
        "/games",
        data={"players": "4", "house": "greyjoy", "seed": "42", "plugin": "westeros_ports"},
    )
    assert response.status_code == 303
    _, games, game_id, play, house = response.headers["location"].split("/")
    assert (games, play, house) == ("games", "play", "greyjoy")
    store = open_store(store_url)
    info = store.game(game_id)
    assert info.setup.players == 4
    assert info.setup.seed == 42
    assert {s.house: s.kind for s in info.setup.seats} == {
        "greyjoy": HUMAN,
        "baratheon": AI,
        "lannister": AI,
        "stark": AI,
    }
    assert [name for name, _ in info.setup.plugins] == [
        "westeros-base",
        "westeros_ports",
        "westeros_tides_of_battle",
        "westeros_ai_personalities",
        "westeros_mother_of_dragons",
    ]
    assert info.setup.options == {
        "tides_of_battle": False,
        "mother_of_dragons": False,
        "mod_targaryen_b_deck": False,
        "mod_sea_orders": False,
        "mod_iron_bank": False,
        "mod_alternate_dragon_tokens": False,
        "mod_vassals": False,
    }


def test_new_game_without_ports_and_with_tides_of_battle(
    client: TestClient, store_url: str
) -> None:
    response = client.post("/games", data={"players": "3", "tides_of_battle": "on"})
    assert response.status_code == 303
    game_id = response.headers["location"].split("/")[2]
    info = open_store(store_url).game(game_id)
    assert "westeros_ports" not in [name for name, _ in info.setup.plugins]
    assert info.setup.options == {
        "tides_of_battle": True,
        "mother_of_dragons": False,
        "mod_targaryen_b_deck": False,
        "mod_sea_orders": False,
        "mod_iron_bank": False,
        "mod_alternate_dragon_tokens": False,
        "mod_vassals": False,
    }
    assert len(info.human_houses) == 1  # "random" picked one house for the player


@pytest.mark.parametrize(
    "form",
    [
        {"players": "7"},
        {"players": "three"},
        {"players": "3", "house": "martell"},  # Martell plays only with six (2.1)
        {"players": "3", "house": "tully"},
    ],
)
def test_new_game_form_with_bad_values_shows_the_start_page_again(
    client: TestClient, form: dict[str, str]
) -> None:
    response = client.post("/games", data=form)
    assert response.status_code == 400
    assert 'class="start-error" role="alert"' in response.text


def test_board_page_inlines_the_map_and_names_the_seat_socket(
    client: TestClient, games: Games
) -> None:
    session = games.create(players=3, human="stark", seed=1, start_ai=False)
    response = client.get(f"/games/{session.game_id}/play/stark")
    assert response.status_code == 200
    page = response.text
    assert 'id="area-winterfell"' in page  # the SVG itself, so scripts can style areas by id
    assert page.count("<svg") >= 1 and "<?xml" not in page
    assert f'data-game="{session.game_id}"' in page  # the page opens its seat's socket
    assert 'data-house="stark"' in page
    assert '"name": "Winterfell"' in page  # the content for the scripts


def test_board_of_an_unknown_game_or_seat_is_not_found(client: TestClient, games: Games) -> None:
    assert client.get("/games/no-such-game/play/stark").status_code == 404
    session = games.create(players=3, human="stark", seed=1, start_ai=False)
    assert client.get(f"/games/{session.game_id}/play/martell").status_code == 404


def test_content_json_names_everything_the_board_shows(client: TestClient, games: Games) -> None:
    session = games.create(players=3, human="stark", seed=1, start_ai=False)
    content = client.get(f"/games/{session.game_id}/content.json").json()
    assert content["areas"]["winterfell"]["name"] == "Winterfell"
    assert content["areas"]["winterfell"]["castle"] == 2  # a stronghold
    assert content["houses"]["stark"]["name"] == "Stark"
    assert content["house_cards"]["eddard-stark"]["strength"] == 4
    assert content["order_tokens"]["march+1*"] == {"type": "march", "bonus": 1, "star": True}
    assert content["seats"] == {"stark": "human", "lannister": "ai", "baratheon": "ai"}


def test_english_catalog_is_empty_and_unknown_languages_are_not_found(
    client: TestClient,
) -> None:
    assert client.get("/i18n/en.json").json() == {"lang": "en", "messages": {}}
    assert client.get("/i18n/xx.json").status_code == 404
    assert client.get("/i18n/..%2Fsecrets.json").status_code == 404


def test_a_compiled_catalog_translates_pages_scripts_and_the_log(
    make_app: Callable[..., FastAPI], german: Path
) -> None:
    app = make_app(locale_dirs=[german])
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        catalog = client.get("/i18n/de.json").json()
        assert catalog["messages"]["New game"] == "Neues Spiel"
        assert catalog["messages"]["{n} ship"] == ["{n} Schiff", "{n} Schiffe"]
        page = client.get("/", params={"lang": "de"})
        assert "Neues Spiel" in page.text
        assert 'lang="de"' in page.text
        assert client.cookies.get("westeros_lang") == "de"
        assert "Neues Spiel" in client.get("/").text  # the cookie keeps the language
        session = app.state.games.create(players=3, human="stark", seed=1, start_ai=False)
        with client.websocket_connect(seat_url(session.game_id, "stark", lang="de")) as ws:
            first = receive(ws)
        texts = [entry["text"] for entry in first["log"]]
        assert "Runde 1 beginnt." in texts


def test_accept_language_picks_an_available_catalog(
    make_app: Callable[..., FastAPI], german: Path
) -> None:
    app = make_app(locale_dirs=[german])
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        assert "Neues Spiel" in client.get("/", headers={"accept-language": "de-AT,de;q=0.9"}).text
        assert "Neues Spiel" not in client.get("/", headers={"accept-language": "fr,en"}).text


@pytest.mark.parametrize("level", ["baseline", "easy", "normal", "hard", "standard"])
def test_the_chosen_ai_level_plays_every_other_seat_and_is_recorded(
    make_app: Callable[..., FastAPI], store_url: str, level: str
) -> None:
    from westeros.ai import BaselineBot, StrongBot

    app = make_app(ai_factory=None)  # the game's own AI
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        response = client.post(
            "/games", data={"players": "3", "house": "stark", "seed": "3", "ai_level": level}
        )
        assert response.status_code == 303
        game_id = response.headers["location"].split("/")[2]
        session = app.state.games.get(game_id)
        bots = [session.players[h] for h in ("baratheon", "lannister")]
        kind = BaselineBot if level == "baseline" else StrongBot
        assert all(isinstance(bot, kind) for bot in bots)
        if kind is StrongBot:  # Standard is the strong AI at its own level (issue 36 point 3)
            assert {bot.level.id for bot in bots} == {level}
    info = open_store(store_url).game(game_id)
    assert {s.house: s.name for s in info.setup.seats if s.kind == AI} == {
        "baratheon": level,
        "lannister": level,
    }


def test_an_unknown_ai_level_is_refused_on_the_start_page(client: TestClient) -> None:
    response = client.post("/games", data={"players": "3", "house": "stark", "ai_level": "god"})
    assert response.status_code == 400
    assert "AI level" in response.text


def test_only_plugins_that_change_the_game_can_be_switched_off(client: TestClient) -> None:
    page = client.get("/").text
    assert 'name="plugin" value="westeros_ports"' in page
    assert 'value="westeros_ai_personalities"' not in page


class _BrokenOptions:
    """A plugin whose option hook answers with text instead of a list."""

    NAME = "broken_options"

    @hookimpl
    def register_game_options(self) -> object:
        return "tides_of_battle"


def test_plugins_that_did_not_load_are_shown_on_the_start_screen(
    make_app: Callable[..., FastAPI],
) -> None:
    app = make_app(plugins=load(extra=[_BrokenOptions()]))
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        client.cookies.set(COOKIE, TOKEN)
        page = client.get("/")
    assert page.status_code == 200
    shown = re.search(r'data-testid="plugin-errors">(.*?)</section>', page.text, re.S)
    assert shown is not None
    text = html.unescape(shown.group(1))
    assert "broken_options (extra): register_game_options returned str, expected a list" in text
    assert 'name="players"' in page.text  # and a new game can still be started
