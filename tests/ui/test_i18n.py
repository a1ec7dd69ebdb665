"""One translation mechanism for every UI string: templates through gettext's _(), scripts
through t()/tn() reading the catalog the server compiles from the same gettext catalogs. A
language is added with a catalog alone, without touching templates or scripts."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
TEMPLATES = sorted((FRONTEND / "templates").rglob("*.html"))
SCRIPTS = sorted((FRONTEND / "static" / "js").rglob("*.js"))
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
# Words that are not UI text when they stand alone in a script (CSS, events, ids, keys).
PROSE = re.compile(r"^[A-Z][a-z']+(?: [A-Za-z'’,.!?…:]+)+[.!?…:]?$|^[A-Z][a-z]{3,}[.!?…]?$")


def template_messages(path: Path) -> set[str]:
    from jinja2.ext import babel_extract

    with path.open("rb") as handle:
        found = babel_extract(handle, ("_", "gettext", "ngettext"), [], {})
        return {m if isinstance(m, str) else m[0] for _, _, m, _ in found if m}


def script_messages(path: Path) -> set[str]:
    from babel.messages.extract import extract

    with path.open("rb") as handle:
        found = extract("javascript", handle, keywords=JS_KEYWORDS)
        out: set[str] = set()
        for _, message, _, _ in found:
            out.update([message] if isinstance(message, str) else [m for m in message if m])
        return out


def test_templates_have_no_text_outside_gettext() -> None:
    """Rendered with a gettext that returns nothing, no page shows a word."""
    from jinja2 import Environment, FileSystemLoader

    env = Environment(
        loader=FileSystemLoader(FRONTEND / "templates"),
        extensions=["jinja2.ext.i18n"],
        autoescape=True,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message, **_: "", lambda one, many, n, **_: "", newstyle=True
    )
    env.globals["ui_languages"] = list  # the switch names languages in themselves, not gettext
    entry = {"id": "x", "name": "", "default": True, "description": "", "url": "/", "title": ""}
    context = {
        "player_counts": [3, 4, 5, 6],
        "houses": [entry],
        "setups": {3: ["x"]},
        "options": [entry],
        "plugins": [entry],
        "games": [entry],
        "error": "",
        "content": {},
        "map_svg": "",
        "game_id": "x",
        "house": "x",
    }
    problems = []
    for name in ("start.html", "board.html"):
        page = env.get_template(name).render(**context)
        page = re.sub(r"<script[^>]*>.*?</script>|<!--.*?-->", " ", page, flags=re.S)
        for attr in re.findall(r'(?:title|placeholder|aria-label|alt)="([^"]*)"', page):
            if re.search(r"[A-Za-z]{2}", attr):
                problems.append(f"{name}: attribute {attr!r}")
        text = re.sub(r"&\w+;", " ", re.sub(r"<[^>]*>", " ", page))
        problems.extend(f"{name}: {word!r}" for word in re.findall(r"[A-Za-z]{2,}", text))
    assert not problems, problems


def test_scripts_show_no_text_outside_t() -> None:
    translated: set[str] = set()
    for path in SCRIPTS:
        translated |= script_messages(path)
    problems = []
    for path in SCRIPTS:
        source = path.read_text("utf-8")
        source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
        source = re.sub(r"^\s*//[^\n]*$", "", source, flags=re.M)
        # Literals compared with === / !== (key names, kinds) are never shown.
        source = re.sub(r'[!=]==\s*"[^"\n]*"', "", source)
        for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', source):
            if PROSE.match(literal) and literal not in translated:
                problems.append(f"{path.name}: {literal!r}")
    assert not problems, problems


def test_babel_extracts_messages_from_templates_and_scripts() -> None:
    from_templates = set().union(*(template_messages(p) for p in TEMPLATES))
    from_scripts = set().union(*(script_messages(p) for p in SCRIPTS))
    assert {"New game", "Game log", "Start the game"} <= from_templates
    assert {"Place your orders", "Commit orders", "Choose your house card"} <= from_scripts
    assert "{n} areas still need an order." in from_scripts  # the plural of a tn() call


def write_catalog(folder: Path, lang: str, messages: dict[object, object]) -> None:
    """A compiled gettext catalog ``<folder>/<lang>/LC_MESSAGES/westeros.mo``."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale=lang, domain="westeros")
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr)
    target = folder / lang / "LC_MESSAGES"
    target.mkdir(parents=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    (target / "westeros.mo").write_bytes(buffer.getvalue())


def test_a_catalog_alone_translates_templates_scripts_and_content(
    page: object, core_factory: object, tmp_path: Path
) -> None:
    pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
    from playwright.sync_api import Page, expect

    from .test_board import start_game

    assert isinstance(page, Page)
    write_catalog(
        tmp_path,
        "de",
        {
            "New game": "Neues Spiel",
            "Game log": "Spielprotokoll",
            "Place your orders": "Befehle erteilen",
            "The Shivering Sea": "Die Zitternde See",
            ("{n} area still needs an order.", "{n} areas still need an order."): (
                "{n} Gebiet braucht noch einen Befehl.",
                "{n} Gebiete brauchen noch einen Befehl.",
            ),
        },
    )
    core = core_factory(locale_dirs=[tmp_path])  # type: ignore[operator]
    page.goto(f"{core.url}/?token={core.token}&lang=de")
    expect(page.get_by_role("heading", name="Neues Spiel")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    start_game(page, core, players=3, house="stark")
    expect(page.get_by_role("heading", name="Spielprotokoll")).to_be_visible()
    prompt = page.get_by_test_id("prompt")
    expect(prompt.get_by_role("heading")).to_have_text("Befehle erteilen")
    expect(prompt).to_contain_text("3 Gebiete brauchen noch einen Befehl.")
    expect(page.get_by_test_id("order-area-the-shivering-sea")).to_have_text("Die Zitternde See")
    expect(page.locator("#area-the-shivering-sea text").first).to_have_text("Die Zitternde See")
