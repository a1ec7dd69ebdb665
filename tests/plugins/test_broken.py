"""Broken plugins (issue acceptance 4): a plugin that raises at import, one that raises in a hook
and one that registers a duplicate id are each disabled with a clear error naming the plugin,
and the game still starts and plays with the others."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from westeros import hookimpl
from westeros.engine.content import AreaDef, HouseCard
from westeros.engine.setup import new_game
from westeros.plugins import LoadedPlugins, load

from .fakes import install_dist, write_plugin
from .play import play_for

BUNDLED = [
    "westeros-base",
    "westeros_ports",
    "westeros_tides_of_battle",
    "westeros_ai_personalities",
]


def assert_plays(loaded: LoadedPlugins) -> None:
    """The remaining plugins give a game that starts and survives random legal play."""
    assert [p.name for p in loaded.plugins] == BUNDLED
    state = new_game(loaded.ruleset, 6, 7)
    assert state.round == 1
    play_for(state, 300, seed=7)


def test_plugin_raising_at_import_from_the_user_folder_is_disabled(
    isolated_plugins: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write_plugin(isolated_plugins, "cursed_sword", 'raise RuntimeError("the sword is cursed")\n')
    with caplog.at_level(logging.ERROR, logger="westeros.plugins"):
        loaded = load(autoload=True)
    (error,) = loaded.errors
    assert (error.plugin, error.source) == ("cursed_sword", "user folder")
    assert "RuntimeError: the sword is cursed" in error.message
    assert "cursed_sword" in caplog.text
    assert_plays(loaded)


def test_plugin_raising_at_import_from_an_entry_point_is_disabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_dist(
        tmp_path,
        monkeypatch,
        "westeros-needs-numpy",
        "1.0",
        {"needs_numpy": "needs_numpy_mod"},
        {"needs_numpy_mod": "import a_module_nobody_installed\n"},
    )
    loaded = load(autoload=True)
    (error,) = loaded.errors
    assert (error.plugin, error.source) == ("needs_numpy", "entry point")
    assert "a_module_nobody_installed" in error.message
    assert_plays(loaded)


class RaisesInHook:
    NAME = "buggy-cards"

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [AreaDef("the-isle-of-faces", "The Isle of Faces", "land", crowns=1)]

    @hookimpl
    def register_house_cards(self) -> list[HouseCard]:
        raise KeyError("strength")


def test_plugin_raising_in_a_hook_is_disabled_with_all_its_content(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="westeros.plugins"):
        loaded = load(extra=[RaisesInHook()])
    (error,) = loaded.errors
    assert error.plugin == "buggy-cards"
    assert "register_house_cards raised KeyError" in error.message
    assert "buggy-cards" in caplog.text
    assert "the-isle-of-faces" not in loaded.ruleset.areas
    assert_plays(loaded)


class RaisesInRuleHook:
    NAME = "buggy-rules"

    @hookimpl
    def rule_setup(self, options: Any) -> Any:
        raise ValueError("bad option")


def test_plugin_raising_in_a_rule_hook_is_disabled() -> None:
    loaded = load(extra=[RaisesInRuleHook()])
    (error,) = loaded.errors
    assert error.plugin == "buggy-rules"
    assert "rule_setup raised ValueError: bad option" in error.message
    assert loaded.ruleset.hooks.setup == load().ruleset.hooks.setup
    assert_plays(loaded)


class DuplicateArea:
    NAME = "winterfell-remake"

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [
            AreaDef("wintertown", "Wintertown", "land", crowns=1),
            AreaDef("winterfell", "Winterfell (remade)", "land", castle=2),
        ]


def test_duplicate_id_refuses_the_later_plugin_naming_both(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="westeros.plugins"):
        loaded = load(extra=[DuplicateArea()])
    (error,) = loaded.errors
    assert error.plugin == "winterfell-remake"
    assert "'westeros-base'" in error.message
    assert "'winterfell-remake'" in error.message
    assert "area 'winterfell'" in error.message
    assert "westeros-base" in caplog.text and "winterfell-remake" in caplog.text
    assert loaded.ruleset.areas["winterfell"].name == "Winterfell"
    assert "wintertown" not in loaded.ruleset.areas
    assert_plays(loaded)


class DuplicateCard:
    NAME = "second-ned"

    @hookimpl
    def register_house_cards(self) -> list[HouseCard]:
        return [HouseCard("eddard-stark", "stark", "Eddard Stark", 5)]


def test_duplicate_house_card_between_two_third_party_plugins_names_both() -> None:
    class FirstNed(DuplicateCard):
        NAME = "first-ned"

    loaded = load(extra=[DuplicateCard(), FirstNed()])
    messages = [e.message for e in loaded.errors]
    assert [e.plugin for e in loaded.errors] == ["second-ned", "first-ned"]
    assert all("westeros-base" in m and "house card 'eddard-stark'" in m for m in messages)
    assert loaded.ruleset.house_cards["eddard-stark"].strength == 4
    assert_plays(loaded)
