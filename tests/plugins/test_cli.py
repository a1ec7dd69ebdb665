"""The ``westeros`` command: --help, --version and ``westeros plugins``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import westeros
import westeros_ports
from westeros.cli import main

from .fakes import option_plugin, write_plugin


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"westeros {westeros.__version__}"


def test_help_lists_the_plugins_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "usage: westeros" in out
    assert "plugins" in out


def test_help_lists_the_commands_and_the_browser_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "usage: westeros" in out and "--browser" in out
    assert "plugins" in out and "serve" in out


@pytest.mark.parametrize(("argv", "browser"), [([], False), (["--browser"], True)])
def test_no_command_opens_the_game(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], browser: bool
) -> None:
    import westeros.desktop

    calls: list[bool] = []
    left: list[int] = []
    monkeypatch.setattr(westeros.desktop, "launch", lambda *, browser: calls.append(browser) or 0)
    monkeypatch.setattr(westeros.desktop, "leave_in_time", left.append)  # ends the process
    assert main(argv) == 0
    assert calls == [browser]
    assert left == [0], "the command makes sure the process ends once the app is done"


def test_plugins_lists_versions_hooks_and_load_errors(
    isolated_plugins: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "0")
    write_plugin(isolated_plugins, "house_rules", option_plugin("house_rule", 1, "0.2"))
    write_plugin(isolated_plugins, "broken", "import a_module_nobody_installed\n")
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert f"westeros_ports {westeros_ports.__version__}  [bundled]" in out
    assert "rule_after_resolution" in out
    assert "house_rules 0.2  [user folder]" in out
    assert "broken [user folder]: " in out
    assert "a_module_nobody_installed" in out


def test_plugins_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins", "--json", "--disable", "westeros_ports"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["plugins"]] == [
        "westeros-base",
        "westeros_tides_of_battle",
        "westeros_ai_personalities",
        "westeros_mother_of_dragons",
    ]
    assert "rule_combat_step" in data["plugins"][1]["hooks"]
    assert data["errors"] == []


def test_console_entry_point_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "westeros.cli", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"westeros {westeros.__version__}"
