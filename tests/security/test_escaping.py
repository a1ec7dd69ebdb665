"""Every template string is escaped (issue 14, Why 3): a plugin's option text or name, and a
tampered database row, show as text on every page and never become markup. jinja2's newstyle
gettext marks ``_(x)`` safe; ``server.escaping`` makes translations text."""

from __future__ import annotations

import html
from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.security.hostile import PAYLOADS, HostileName, HostileOptions, tamper
from tests.server.conftest import BASE, COOKIE, TOKEN
from westeros.plugins import load
from westeros.server.escaping import install
from westeros.server.i18n import Catalogs, Templates

TEMPLATES = Path(__file__).resolve().parents[2] / "frontend" / "templates"


@pytest.fixture
def hostile_app(make_app: object, store_url: str) -> FastAPI:
    loaded = load(extra=[HostileOptions(), HostileName()])
    assert {"hostile_options", PAYLOADS[1]} <= {p.name for p in loaded.plugins}
    return make_app(plugins=loaded)  # type: ignore[operator]


def shown_literally(page: str) -> None:
    for payload in PAYLOADS:
        assert payload not in page
    assert "<img" not in page.lower()
    assert page.lower().count("<script") == page.count('<script type="module" src=') + page.count(
        '<script type="application/json"'
    )


def test_a_plugins_option_text_and_name_are_text_on_the_start_screen(
    hostile_app: FastAPI,
) -> None:
    with TestClient(hostile_app, base_url=BASE) as client:
        client.cookies.set(COOKIE, TOKEN)
        page = client.get("/").text
    shown_literally(page)
    shown = html.unescape(page)
    for payload in PAYLOADS:
        assert payload in shown  # as text


def test_a_tampered_row_is_text_on_the_start_and_delete_pages(
    client: TestClient, make_app: object, store_url: str
) -> None:
    games = client.app.state.games  # type: ignore[attr-defined]
    session = games.create(players=3, human="stark", seed=4, start_ai=False)
    tamper(store_url.removeprefix("sqlite:///"), session.game_id)
    pages = [client.get("/"), client.get(f"/games/{session.game_id}/delete")]
    assert [p.status_code for p in pages] == [200, 200]
    for page in pages:
        shown_literally(page.text)
    assert "<img src=x onerror=" in html.unescape(pages[1].text).lower()  # as text


def help_card(evil: str) -> SimpleNamespace:
    """A help topic or card of the "How to play" page with markup in every text."""
    return SimpleNamespace(
        id="c",
        name=evil,
        text=evil,
        title=evil,
        rule=evil,
        paragraphs=[evil],
        steps=[evil],
        show="#x",
        strength=1,
        swords=1,
        fortifications=1,
        count=1,
        wildling_icon=True,
    )


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_translated_data_is_escaped_in_every_template(template: str) -> None:
    """Each page rendered with markup in every text it shows: none of it becomes markup."""
    evil = PAYLOADS[1]
    entry = {
        "id": "g1",
        "name": evil,
        "title": evil,
        "url": "/x",
        "house": "stark",
        "house_name": evil,
        "round": 2,
        "players": 3,
        "seats": [{"house": "stark", "name": evil, "ai": True}],
        "over": True,
        "winner_name": evil,
        "updated_at": "2026-01-01T00:00:00",
        "date": evil,
        "replay_url": "/r",
        "export_url": "/e",
        "delete_url": "/d",
    }
    context = {
        "lang": "en",
        "houses": [{"id": "stark", "name": evil}],
        "setups": {3: ["stark"]},
        "options": [{"id": "o", "name": evil, "default": False, "description": evil}],
        "plugins": [{"id": "p", "name": evil, "default": True}],
        "plugin_errors": [{"plugin": evil, "source": evil, "message": evil}],
        "games": [entry],
        "saved": [entry],
        "game": entry,
        "error": evil,
        "import_error": evil,
        "game_id": "g1",
        "house": "stark",
        "house_name": evil,
        "game_name": evil,
        "content": {"houses": {"stark": {"name": evil}}},
        "full": False,
        "sections": [{"id": "s", "title": evil, "topics": [help_card(evil)]}],
        "cards": {
            "houses": [{"id": "stark", "name": evil, "cards": [help_card(evil)]}],
            "westeros": [{"deck": 1, "cards": [help_card(evil)]}],
            "wildlings": [help_card(evil)],
            "others": [{"deck": evil, "cards": [help_card(evil)]}],
        },
    }
    templates = Templates([TEMPLATES], Catalogs([]))
    page = templates.render(template, "en", context)
    assert evil not in page
    assert "<img" not in page.lower()


def test_a_translation_holding_markup_is_text_too() -> None:
    class Catalog:
        def gettext(self, message: str) -> str:
            return PAYLOADS[0] if message == "New game" else message

    from jinja2 import Environment

    env = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    install(env, Catalog())  # type: ignore[arg-type]
    page = env.from_string('{{ _("New game") }} {{ _("Round %(n)s", n=x) }}').render(x=PAYLOADS[1])
    assert "<" not in page
    assert html.unescape(page) == f"{PAYLOADS[0]} Round {PAYLOADS[1]}"
