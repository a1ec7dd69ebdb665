"""Traditional Chinese (Taiwan) is derived from the Simplified catalogs by OpenCC's ``s2twp`` and
the reviewed term list (issue 37 point 6): the committed zh_TW files are what the derive step
writes today, use Taiwan characters and the board-game terms of the glossary, and the game offers
the language by name and to a Traditional-Chinese browser."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("opencc", reason="deriving zh_TW needs OpenCC (the test extras)")

from westeros.server import i18n_catalog, i18n_derive
from westeros.server.i18n import Catalogs, choose_language, language_name

SIMPLIFIED_ONLY = set("们这个为进军权战东门关见让说级发选择时间会对图将领骑铁维")
"""Characters that exist in Simplified script only (their Traditional forms differ)."""
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return Catalogs([i18n_catalog.GAME_LOCALE] + [t.locale for t in i18n_catalog.targets()[1:]])


def test_the_committed_zh_tw_catalogs_are_derived_from_today_s_zh_cn() -> None:
    """Derived in memory and compared byte for byte: a zh_CN change without a re-derive fails."""
    files = i18n_derive.derived_files()
    assert i18n_catalog.GAME_LOCALE / "zh_TW" / "LC_MESSAGES" / "westeros.po" in files
    assert len(files) == len(i18n_catalog.targets()), sorted(map(str, files))
    stale = i18n_derive.stale(files)
    assert not stale, (
        "zh_TW out of date with zh_CN: run `python -m westeros.server.i18n_derive`:\n"
        + "\n".join(str(p) for p in stale)
    )


def test_deriving_twice_writes_the_same_files() -> None:
    first = i18n_derive.derived_files()
    assert i18n_derive.derived_files() == first


def test_no_simplified_character_is_left(catalogs: Catalogs) -> None:
    messages = catalogs.messages("zh_TW")
    left = {
        msgid: text
        for msgid, value in messages.items()
        for text in ([value] if isinstance(value, str) else value)
        if set(text) & SIMPLIFIED_ONLY
    }
    assert not left, left


def test_the_glossary_terms_in_taiwan_characters(catalogs: Catalogs) -> None:
    """GLOSSARY-zh.md's orders, tokens and phases, as the Traditional source text writes them."""
    messages = catalogs.messages("zh_TW")
    assert messages["March"] == "進軍"
    assert messages["Support"] == "支援"
    assert messages["Raid"] == "突襲"
    assert messages["Consolidate Power"] == "鞏固權力"
    assert messages["Defense"] == "防守"
    assert messages["Iron Throne"] == "鐵王座"
    assert messages["Footman"] == "步兵"
    assert messages["Knight"] == "騎兵"
    assert messages["Westeros phase"] == "維斯特洛階段"
    assert messages["Aeron Damphair"] == "濕髮伊倫"
    assert messages["Winterfell"] == "臨冬城"


def test_the_reviewed_terms_replace_what_plain_conversion_gets_wrong(catalogs: Catalogs) -> None:
    """The Deals partner is a party (對象), not a software object (物件); plugins are not
    cheats (外掛); the expansion is 擴展 as in the source text; Taiwan quotes with 「」."""
    messages = catalogs.messages("zh_TW")
    assert messages["With"] == "對象"
    every = "\n".join(v for v in messages.values() if isinstance(v, str))
    for wrong in ("物件", "擴充套件", "型別", "“", "”"):
        assert wrong not in every, wrong
    assert "外掛" not in every.replace("外掛程式", "")
    assert "「" in every


def test_traditional_chinese_is_offered_and_chosen(catalogs: Catalogs) -> None:
    assert "zh_TW" in catalogs.languages()
    assert language_name("zh_TW") == "繁體中文"
    assert choose_language(catalogs, None, None, "zh-TW,zh;q=0.8,en;q=0.5") == "zh_TW"
    assert choose_language(catalogs, None, None, "zh-Hant-HK,en;q=0.5") == "zh_TW"
    assert choose_language(catalogs, None, None, "zh-HK") == "zh_TW"
    assert choose_language(catalogs, None, None, "zh-CN,zh;q=0.9") == "zh_CN"
    assert choose_language(catalogs, None, None, "zh") == "zh_CN"
    assert choose_language(catalogs, "zh_TW", None, "en") == "zh_TW"
    assert CJK.search(catalogs.translations("zh_TW").gettext("New game"))
