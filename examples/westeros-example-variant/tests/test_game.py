"""The example plugin end to end: a game stored and played through the real game session with
the ``westeros_game`` fixture, its log read in English and in Chinese (the card's name comes
from the plugin's own catalog)."""

from __future__ import annotations

from collections.abc import Callable

from westeros_example_variant import plugin
from westeros_example_variant.cards import CARD_ID

from westeros.testing import PluginGame


def duncan_revealed(game: PluginGame) -> bool:
    return any(e.kind == "house_cards_revealed" and CARD_ID in str(e.data) for e in game.events())


def test_the_log_names_ser_duncan_in_english_and_chinese(
    westeros_game: Callable[..., PluginGame],
) -> None:
    game = westeros_game(plugin, players=6, seed=1)
    assert CARD_ID in game.view("baratheon")["hands"]["baratheon"]
    game.play(until=duncan_revealed, seed=1)
    english = [line for line in game.log("en") if line.startswith("House cards:")]
    chinese = game.log("zh_CN")
    assert english[-1].endswith("Baratheon plays Ser Duncan the Tall.")
    assert any("高个子邓肯爵士" in line for line in chinese)
    assert not any("Ser Duncan" in line for line in chinese)
