"""Issue 37 point 4: Chinese log lines joined lists with the ASCII ", " of English."""

from __future__ import annotations

from pathlib import Path

import pytest

import westeros
from westeros.engine import Ruleset
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"
TRACK = {"kind": "track", "track": "iron_throne", "order": ["stark", "lannister", "baratheon"]}
LOSSES = {
    "kind": "destroyed",
    "house": "stark",
    "units": [["winterfell", "knight"], ["winterfell", "footman"]],
}


@pytest.fixture
def narrators(rules: Ruleset) -> dict[str, Narrator]:
    catalogs = Catalogs([GAME_LOCALE])
    return {lang: Narrator(rules, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def test_issue37_chinese_log_lists_use_the_chinese_list_comma(
    narrators: dict[str, Narrator],
) -> None:
    """Issue 37 point 4: a Chinese track line read "史塔克, 兰尼斯特, 拜拉席恩"; it lists the
    houses with "、", and English keeps ", "."""
    assert narrators["zh_CN"](TRACK) == "铁王座排名：史塔克、兰尼斯特、拜拉席恩。"
    assert narrators["en"](TRACK) == "Iron Throne track: Stark, Lannister, Baratheon."
    zh_losses = narrators["zh_CN"](LOSSES)
    assert zh_losses == "史塔克损失了临冬城的骑兵、临冬城的步兵。", zh_losses
    assert ", " not in zh_losses


def test_issue37_clause_separator_is_chinese_in_chinese(narrators: dict[str, Narrator]) -> None:
    """Issue 37 point 4: clauses of one Chinese log line are joined with "；", not "; "."""
    assert narrators["zh_CN"].join_clauses(["甲", "乙"]) == "甲；乙"
    assert narrators["en"].join_clauses(["a", "b"]) == "a; b"
