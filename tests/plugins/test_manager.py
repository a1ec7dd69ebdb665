"""The plugin manager (DESIGN §3): default and bundled plugins, entry points, the user plugin
folder, the environment switches, and what a new game records about its plugins."""

from __future__ import annotations

import logging
from pathlib import Path

import platformdirs
import pytest

import westeros
import westeros_ai_personalities
import westeros_mother_of_dragons
import westeros_ports
import westeros_tides_of_battle
from westeros import hookimpl
from westeros.engine.content import AreaDef, GameOption
from westeros.engine.setup import new_game
from westeros.plugins import (
    ENV_NO_AUTOLOAD,
    ENV_PLUGIN_DIR,
    ENV_TRACE,
    MissingPlugins,
    PluginError,
    build_ruleset,
    check_requirements,
    load,
    user_plugin_dir,
)

from .fakes import install_dist, option_plugin, write_plugin

BASE = ("westeros-base", westeros.__version__)
PORTS = ("westeros_ports", westeros_ports.__version__)
TIDES = ("westeros_tides_of_battle", westeros_tides_of_battle.__version__)
PERSONALITIES = ("westeros_ai_personalities", westeros_ai_personalities.__version__)
MOD = ("westeros_mother_of_dragons", westeros_mother_of_dragons.__version__)


def test_default_then_bundled_plugins_in_order_with_versions() -> None:
    assert build_ruleset().plugins == (BASE, PORTS, TIDES, PERSONALITIES, MOD)


def test_disable_skips_a_bundled_plugin_and_its_content() -> None:
    rules = build_ruleset(disable=["westeros_ports"])
    assert rules.plugins == (BASE, TIDES, PERSONALITIES, MOD)
    assert not [a for a in rules.areas.values() if a.kind == "port"]
    assert "port-of-pyke" not in new_game(rules, 6, 1).units


def test_the_environment_can_rule_out_bundled_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGINS", " westeros_mother_of_dragons, westeros_ports")
    rules = build_ruleset()
    assert rules.plugins == (BASE, TIDES, PERSONALITIES)
    assert "mother_of_dragons" not in rules.options
    assert "port-of-pyke" not in new_game(rules, 6, 1).units


def test_extra_plugin_registered_after_bundled_ones_under_its_name() -> None:
    class Variant:
        NAME = "my-variant"
        __version__ = "2.0"

        @hookimpl
        def register_game_options(self) -> list[GameOption]:
            return [GameOption("variant_rule", "Variant rule", True)]

    rules = build_ruleset(extra=[Variant()])
    assert rules.plugins[-1] == ("my-variant", "2.0")
    assert new_game(rules, 3, 1).options["variant_rule"] is True


def test_entry_point_plugin_is_discovered_with_its_distribution_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_dist(
        tmp_path,
        monkeypatch,
        "westeros-fake-variant",
        "1.2.3",
        {"fake_variant": "fake_variant_mod"},
        {"fake_variant_mod": option_plugin("fake_variant", 7)},
    )
    rules = build_ruleset(autoload=True)
    assert ("fake_variant", "1.2.3") in rules.plugins
    assert new_game(rules, 4, 1).options["fake_variant"] == 7


def test_entry_points_of_registered_plugins_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_dist(
        tmp_path,
        monkeypatch,
        "westeros-bundle-copy",
        "9.9",
        {
            "westeros_ports": "westeros_ports.plugin",
            "tides_again": "westeros_tides_of_battle.plugin",
        },
        {},
    )
    loaded = load(autoload=True)
    names = [BASE[0], PORTS[0], TIDES[0], PERSONALITIES[0], MOD[0]]
    assert [p.name for p in loaded.plugins] == names
    assert loaded.errors == ()


def test_user_folder_single_file_plugin_is_loaded(isolated_plugins: Path) -> None:
    write_plugin(isolated_plugins, "house_rules", option_plugin("house_rule", 3, "0.4"))
    loaded = load(autoload=True)
    info = loaded.plugins[-1]
    assert (info.name, info.version, info.source) == ("house_rules", "0.4", "user folder")
    assert info.hooks == ("register_game_options",)
    assert new_game(loaded.ruleset, 3, 1).options["house_rule"] == 3


def test_autoload_switch_turns_off_entry_points_and_user_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_plugins: Path
) -> None:
    write_plugin(isolated_plugins, "house_rules", option_plugin("house_rule", 3))
    install_dist(
        tmp_path,
        monkeypatch,
        "westeros-fake-off",
        "1.0",
        {"fake_off": "fake_off_mod"},
        {"fake_off_mod": option_plugin("fake_off", 1)},
    )
    monkeypatch.setenv(ENV_NO_AUTOLOAD, "1")
    assert build_ruleset().plugins == (BASE, PORTS, TIDES, PERSONALITIES, MOD)
    monkeypatch.setenv(ENV_NO_AUTOLOAD, "0")
    names = [n for n, _ in build_ruleset().plugins]
    assert names[5:] == ["fake_off", "house_rules"]


def test_user_plugin_folder_defaults_to_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_PLUGIN_DIR)
    assert user_plugin_dir() == Path(platformdirs.user_data_dir("westeros")) / "plugins"


def test_trace_switch_logs_every_hook_call(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(ENV_TRACE, "1")
    with caplog.at_level(logging.INFO, logger="westeros.hooks"):
        build_ruleset()
    traced = [r.getMessage() for r in caplog.records if r.name == "westeros.hooks"]
    assert any("register_areas" in m for m in traced)
    assert any("rule_after_resolution" in m for m in traced)


def test_no_trace_without_the_switch(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="westeros.hooks"):
        build_ruleset()
    assert not [r for r in caplog.records if r.name == "westeros.hooks"]


def test_new_game_records_its_plugins_with_versions_and_its_options() -> None:
    state = new_game(build_ruleset(), 6, 1, {"tides_of_battle": True})
    assert state.rules.plugins == (BASE, PORTS, TIDES, PERSONALITIES, MOD)
    assert state.options["tides_of_battle"] is True


def test_check_requirements_accepts_the_plugins_of_a_new_game() -> None:
    check_requirements(list(new_game(build_ruleset(), 3, 1).rules.plugins))


def test_check_requirements_names_every_missing_plugin() -> None:
    required = [BASE, ("westeros_a_feast_for_crows", "1.0"), ("fan_map", "0.3")]
    with pytest.raises(MissingPlugins) as err:
        check_requirements(required)
    assert "westeros_a_feast_for_crows 1.0" in str(err.value)
    assert "fan_map 0.3" in str(err.value)
    assert "westeros-base" not in str(err.value)


def test_check_requirements_reports_a_disabled_plugin_as_missing() -> None:
    loaded = build_ruleset(disable=["westeros_ports"]).plugins
    with pytest.raises(MissingPlugins, match="westeros_ports"):
        check_requirements([BASE, PORTS], available=loaded)


class UnknownHook:
    NAME = "typo-plugin"

    @hookimpl
    def register_aeras(self) -> list[AreaDef]:
        return []


def test_plugin_with_an_unknown_hook_is_disabled_with_its_name() -> None:
    loaded = load(extra=[UnknownHook()])
    assert [e.plugin for e in loaded.errors] == ["typo-plugin"]
    assert "register_aeras" in loaded.errors[0].message
    assert "typo-plugin" not in [p.name for p in loaded.plugins]


class WrongType:
    NAME = "wrong-type"

    @hookimpl
    def register_areas(self) -> AreaDef:
        return AreaDef("the-isle-of-faces", "The Isle of Faces", "land")


def test_plugin_returning_a_non_list_is_disabled() -> None:
    loaded = load(extra=[WrongType()])
    assert loaded.errors[0].plugin == "wrong-type"
    assert "expected a list" in loaded.errors[0].message
    assert "the-isle-of-faces" not in loaded.ruleset.areas


class Dangling:
    NAME = "dangling"

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return [("winterfell", "the-lands-of-always-winter")]


def test_plugin_naming_an_unknown_area_is_disabled() -> None:
    loaded = load(extra=[Dangling()])
    assert loaded.errors[0].plugin == "dangling"
    assert "the-lands-of-always-winter" in loaded.errors[0].message
    assert new_game(loaded.ruleset, 3, 1).round == 1


def test_strict_loading_raises_naming_the_plugin() -> None:
    with pytest.raises(PluginError, match="typo-plugin"):
        build_ruleset(extra=[UnknownHook()], strict=True)
