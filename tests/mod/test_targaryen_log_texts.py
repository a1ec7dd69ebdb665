"""The 8-player Mother of Dragons log texts (RULES.md 11.5, 11.7.2) read as sentences, in
English and in Simplified Chinese through the plugin's own catalog (GLOSSARY-zh.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import westeros
from westeros.plugins import load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

from .conftest import MOD

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"
VISERYS = {
    "kind": "card_discarded_for_strength",
    "house": "targaryen",
    "card": "khal-drogo",
    "bonus": 4,
}
DROGO = {
    "kind": "cards_removed_from_game",
    "house": "targaryen",
    "cards": [["targaryen", "khal-drogo"]],
}


@pytest.fixture(scope="module")
def narrators() -> dict[str, Narrator]:
    loaded = load(MOD)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    return {lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def test_11_7_2_viserys_and_khal_drogo_in_english(narrators: dict[str, Narrator]) -> None:
    en = narrators["en"]
    assert en(VISERYS) == "Targaryen discards Khal Drogo to add 4 strength to Viserys Targaryen."
    assert en(DROGO) == "Removed from the game: Khal Drogo (Targaryen)."


def test_11_7_2_viserys_and_khal_drogo_in_chinese(narrators: dict[str, Narrator]) -> None:
    zh = narrators["zh_CN"]
    assert zh(VISERYS) == "坦格利安弃掉卓戈卡奥，为韦赛里斯·坦格利安增加4点战力。"
    assert zh(DROGO) == "移出游戏：卓戈卡奥（坦格利安）。"


def test_11_4_1_essos_and_dragons_have_chinese_names(narrators: dict[str, Narrator]) -> None:
    zh = narrators["zh_CN"]
    assert [zh.area(a) for a in ("pentos", "braavos", "the-rhoyne")] == [
        "潘托斯",
        "布拉佛斯",
        "洛恩河",
    ]
    assert zh.unit("dragon") == "龙"
