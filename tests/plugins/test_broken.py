"""Broken plugins (issue acceptance 4): a plugin that raises at import, one that raises in a hook
and one that registers a duplicate id are each disabled with a clear error naming the plugin,
and the game still starts and plays with the others."""

from __future__ import annotations

import logging
import time
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
    "westeros_mother_of_dragons",
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


# ------------------------------------------------------------- exits, wrong types, slow hooks


@pytest.mark.parametrize("call", ["sys.exit()", "sys.exit(3)", "raise SystemExit('bye')"])
def test_plugin_calling_sys_exit_at_import_is_disabled_and_the_app_goes_on(
    isolated_plugins: Path, call: str
) -> None:
    write_plugin(isolated_plugins, "quitter", f"import sys\n{call}\n")
    loaded = load(autoload=True)
    (error,) = loaded.errors
    assert (error.plugin, error.source) == ("quitter", "user folder")
    assert "sys.exit" in error.message
    assert_plays(loaded)


class ExitsInHook:
    NAME = "exits-in-hook"

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        raise SystemExit(2)


def test_plugin_calling_sys_exit_in_a_hook_is_disabled() -> None:
    loaded = load(extra=[ExitsInHook()])
    (error,) = loaded.errors
    assert error.plugin == "exits-in-hook"
    assert "register_areas raised" in error.message and "sys.exit(2)" in error.message
    assert_plays(loaded)


class OptionsAsText:
    NAME = "options-as-text"

    @hookimpl
    def register_game_options(self) -> Any:
        return "tides_of_battle"


class OptionsOfText:
    NAME = "options-of-text"

    @hookimpl
    def register_game_options(self) -> Any:
        return ["tides_of_battle"]


class AreasOfNumbers:
    NAME = "areas-of-numbers"

    @hookimpl
    def register_areas(self) -> Any:
        return [1, 2]


class AdjacencyOfTriples:
    NAME = "adjacency-of-triples"

    @hookimpl
    def register_adjacency(self) -> Any:
        return [("winterfell", "the-stony-shore", "castle-black")]


@pytest.mark.parametrize(
    ("plugin", "expected"),
    [
        (OptionsAsText(), "register_game_options returned str, expected a list"),
        (OptionsOfText(), "register_game_options returned a str item, expected GameOption"),
        (AreasOfNumbers(), "register_areas returned a int item, expected AreaDef"),
        (AdjacencyOfTriples(), "register_adjacency returned a tuple item"),
    ],
    ids=lambda v: getattr(v, "NAME", None),
)
def test_plugin_returning_the_wrong_type_is_disabled_by_name(plugin: Any, expected: str) -> None:
    loaded = load(extra=[plugin])
    (error,) = loaded.errors
    assert error.plugin == plugin.NAME
    assert expected in error.message
    assert_plays(loaded)


class SlowHook:
    NAME = "slow-register-hook"

    @hookimpl
    def register_game_options(self) -> list[Any]:
        time.sleep(3600)
        return []


def test_a_hook_that_never_returns_is_disabled_after_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WESTEROS_PLUGIN_TIME_LIMIT", "0.5")
    loaded = load(extra=[SlowHook()])
    (error,) = loaded.errors
    assert error.plugin == "slow-register-hook"
    assert "register_game_options did not finish within 0.5 s" in error.message
    assert_plays(loaded)
    again = load(extra=[SlowHook()])  # not called again: its first call may still run
    assert [e.message for e in again.errors] == [error.message]


def test_an_endless_loop_at_import_is_disabled_after_the_time_limit(
    isolated_plugins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WESTEROS_PLUGIN_TIME_LIMIT", "0.5")
    write_plugin(isolated_plugins, "forever", "import time\nwhile True:\n    time.sleep(1)\n")
    loaded = load(autoload=True)
    (error,) = loaded.errors
    assert (error.plugin, error.source) == ("forever", "user folder")
    assert "did not finish within 0.5 s" in error.message
    assert_plays(loaded)
