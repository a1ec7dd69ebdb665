"""The example plugin's screen in Chromium: the real local core with the plugin
(``westeros_core``), a game started from the new-game screen in Chinese, and the board's hand
panel showing Ser Duncan the Tall with the plugin's Chinese name and text (``westeros_page``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from westeros_example_variant import plugin
from westeros_example_variant.cards import CARD_ID

from westeros.testing import LiveCore


def test_the_board_shows_ser_duncan_in_baratheons_hand_in_chinese(
    westeros_core: Callable[..., LiveCore], westeros_page: Any
) -> None:
    core = westeros_core(plugin)
    page = westeros_page
    page.goto(core.page_url("/", lang="zh_CN"))
    page.locator("input[name=players][value='6']").check()
    page.locator("label.start-house[data-house=baratheon]").click()
    page.locator("input[name=seed]").fill("1")
    page.locator("form#new-game button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/baratheon$"))
    tile = page.locator(f"[data-testid=hand] [data-card={CARD_ID}]")
    tile.wait_for(timeout=20_000)
    assert tile.locator(".card-name").inner_text() == "高个子邓肯爵士"
    assert tile.get_attribute("title") == "如果你是防守方，战力+2。"
