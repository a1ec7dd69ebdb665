"""The Mother of Dragons log texts (RULES.md 11.7.1) read as sentences, in English and in
Simplified Chinese through the plugin's own catalog (terms of GLOSSARY-zh.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import westeros
from westeros.plugins import load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

from .conftest import MOD

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"
TAKEN_BACK = {"kind": "card_taken_back", "house": "arryn", "card": "lysa-arryn-mod"}
REMOVED = {
    "kind": "cards_removed_from_game",
    "house": "arryn",
    "cards": [["arryn", "robert-arryn"], ["stark", "catelyn-stark"]],
}


@pytest.fixture(scope="module")
def narrators() -> dict[str, Narrator]:
    loaded = load(MOD)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    return {lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def test_11_7_1_lysa_and_robert_in_english(narrators: dict[str, Narrator]) -> None:
    en = narrators["en"]
    assert en(TAKEN_BACK) == "Arryn takes Lysa Arryn back into its hand."
    assert en(REMOVED) == ("Removed from the game: Robert Arryn (Arryn), Catelyn Stark (Stark).")


def test_11_7_1_lysa_and_robert_in_chinese(narrators: dict[str, Narrator]) -> None:
    zh = narrators["zh_CN"]
    assert zh(TAKEN_BACK) == "艾林将莱莎·艾林收回手中。"
    assert zh(REMOVED).startswith("移出游戏：劳勃·艾林（艾林）")
    assert "arryn" not in zh(REMOVED)
