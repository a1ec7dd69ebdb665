"""Every message a player can see has a Simplified and a Traditional Chinese translation:
Babel's extraction of the game's and each plugin's sources plus every content name and card text
(what ``python -m westeros.server.i18n_catalog`` collects), checked against the committed .po
files. The failure message lists exactly the msgids that lack a translation."""

from __future__ import annotations

import re

import pytest

from westeros.server import i18n_catalog
from westeros.server.i18n import Catalogs

PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def templates() -> list[tuple[i18n_catalog.Target, object]]:
    return list(i18n_catalog.templates())


@pytest.mark.parametrize("lang", i18n_catalog.LANGUAGES)
def test_every_extracted_message_has_a_translation(templates: list, lang: str) -> None:
    """zh_CN by hand; zh_TW derived from it (``python -m westeros.server.i18n_derive``)."""
    gaps = {
        f"{target.name} ({i18n_catalog.po_path(target, lang)})": missing
        for target, template in templates
        if (
            missing := i18n_catalog.untranslated(
                template, i18n_catalog.read(i18n_catalog.po_path(target, lang), lang)
            )
        )
    }
    assert not gaps, (
        f"msgids without {lang} (run `python -m westeros.server.i18n_catalog`, then translate):\n"
        + "\n".join(f"{name}:\n" + "\n".join(f"  {m!r}" for m in ids) for name, ids in gaps.items())
    )


def test_the_game_and_each_bundled_plugin_ship_their_own_catalog(templates: list) -> None:
    names = {target.name for target, _ in templates}
    assert {"westeros", "westeros_ports", "westeros_tides_of_battle"} <= names
    for target, template in templates:
        assert i18n_catalog.po_path(target, "zh_CN").is_file(), target.name
        assert len(template) > 0, f"{target.name} extracted nothing"


def test_content_names_and_card_texts_are_in_the_catalogs(templates: list) -> None:
    """Areas, houses, house cards and their texts, Westeros and wildling cards, ports."""
    every = {m.id for _, template in templates for m in template if isinstance(m.id, str)}
    for text in (
        "Winterfell",
        "Stark",
        "The Blackfish",
        "You do not take casualties in this combat from house card abilities, sword icons, "
        "or Tides of Battle cards.",
        "Rains of Autumn",
        "Skinchanger Scout",
        "Port of Winterfell",
    ):
        assert text in every


@pytest.mark.parametrize("lang", i18n_catalog.LANGUAGES)
def test_translations_keep_every_placeholder(lang: str) -> None:
    """A translation that drops or renames {house} would show a raw brace or lose a name."""
    catalogs = Catalogs([i18n_catalog.GAME_LOCALE] + [t.locale for t in i18n_catalog.targets()[1:]])
    messages = catalogs.messages(lang)
    assert messages, f"no {lang} catalog found"
    bad = []
    for msgid, value in messages.items():
        for text in [value] if isinstance(value, str) else value:
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(msgid)):
                bad.append((msgid, text))
    assert not bad, bad


def test_translations_are_chinese_text() -> None:
    """Each translation carries Chinese characters unless it is a key name or a bare format."""
    catalogs = Catalogs([i18n_catalog.GAME_LOCALE])
    latin_only = [
        (msgid, text)
        for msgid, text in catalogs.messages("zh_CN").items()
        if isinstance(text, str)
        and not CJK.search(text)
        and re.search(r"[A-Za-z]{2}", PLACEHOLDER.sub("", text))
    ]
    assert {m for m, _ in latin_only} <= {"AI", "Ctrl", "Enter", "Tab"}, latin_only


def test_the_glossary_terms_are_used() -> None:
    """The orders, tokens and phases as Chinese players know them (GLOSSARY-zh.md)."""
    messages = Catalogs([i18n_catalog.GAME_LOCALE]).messages("zh_CN")
    assert messages["March"] == "进军"
    assert messages["Support"] == "支援"
    assert messages["Raid"] == "突袭"
    assert messages["Consolidate Power"] == "巩固权力"
    assert messages["Defense"] == "防守"
    assert messages["Iron Throne"] == "铁王座"
    assert messages["Footman"] == "步兵"
    assert messages["Westeros phase"] == "维斯特洛阶段"
