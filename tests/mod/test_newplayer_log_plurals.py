"""Issue 37 point 4: the log said "1 power tokens": a count and its noun agree in every log
line of the game and the bundled plugins (``ngettext``), in English and in Simplified Chinese
(GLOSSARY-zh.md: 权力标记, 忠诚标记)."""

from __future__ import annotations

from pathlib import Path

import pytest

import westeros
from westeros.plugins import load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

from .conftest import MOD

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"


@pytest.fixture(scope="module")
def narrators() -> dict[str, Narrator]:
    loaded = load(MOD)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    return {lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def power(n: int) -> dict[str, object]:
    """The event a wildling card or Targaryen's B deck emits for a house's new Power total."""
    return {"kind": "power", "house": "stark", "power": n}


def collected(gained: int, points: int) -> dict[str, object]:
    """Targaryen collects loyalty tokens (RULES.md 11.6.3)."""
    return {
        "kind": "loyalty_collected",
        "house": "targaryen",
        "gained": gained,
        "areas": ["pentos"],
        "points": points,
    }


def test_issue37_one_power_token_is_singular(narrators: dict[str, Narrator]) -> None:
    """Issue 37 point 4: "Stark now has 1 available power tokens." read wrong in English."""
    en, zh = narrators["en"], narrators["zh_CN"]
    assert en(power(1)) == "Stark now has 1 available power token."
    assert en(power(0)) == "Stark now has 0 available power tokens."
    assert en(power(4)) == "Stark now has 4 available power tokens."
    assert zh(power(1)) == "史塔克现在有 1 个可用的权力标记。"


def test_issue37_one_loyalty_token_and_its_points_read_right(
    narrators: dict[str, Narrator],
) -> None:
    """Issue 37 point 4: "collects 1 loyalty token ... and now has 1 loyalty points" — the
    points' count met a noun outside ``ngettext``; the total now reads as a label."""
    en, zh = narrators["en"], narrators["zh_CN"]
    assert (
        en(collected(1, 1)) == "Targaryen collects 1 loyalty token in Pentos (loyalty points: 1)."
    )
    assert en(collected(2, 3)) == (
        "Targaryen collects 2 loyalty tokens in Pentos (loyalty points: 3)."
    )
    assert zh(collected(1, 1)) == "坦格利安在潘托斯收取了1枚忠诚标记（忠诚点数：1）。"
