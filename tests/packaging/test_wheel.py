"""A wheel built from the repository, installed into a fresh virtual environment, runs the whole
app: templates, static files, the map and the bundled plugins (desktop issue); it is the
``westeros-game`` distribution with an SPDX licence, and its development tools say what they
lack (release issue, acceptance 2)."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.packaging.smoke import smoke_core

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(ROOT)],
        check=True,
        timeout=600,
    )
    (wheel,) = work.glob("westeros_game-*.whl")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=900)
    return env_dir / "bin"


def test_the_installed_wheel_lists_the_bundled_plugins(installed: Path) -> None:
    out = subprocess.run(
        [str(installed / "westeros"), "plugins", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={"WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "0", "PATH": str(installed)},
    )
    listing = json.loads(out.stdout)
    names = [p["name"] for p in listing["plugins"]]
    assert {"westeros-base", "westeros_ports", "westeros_tides_of_battle"} <= set(names)
    assert listing["errors"] == []


def test_the_installed_wheel_serves_the_start_screen_and_the_board(
    installed: Path, tmp_path: Path
) -> None:
    seen = smoke_core([str(installed / "westeros")], tmp_path)
    assert seen["start_has_form"]
    assert "/play/stark" in seen["board_url"]
    assert seen["board_has_map"]
    assert seen["script_status"] == 200
    assert seen["plugin_scripts"] == {"/static/ports/ports.js": 200}
    assert seen["exit_code"] == 0


def test_the_wheel_is_westeros_game_with_an_spdx_license(installed: Path) -> None:
    out = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "import importlib.metadata as m, westeros; d = m.distribution('westeros-game'); "
            "print(d.metadata['Name'], d.metadata['License-Expression'], d.version, "
            "westeros.__version__)",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    name, license_expression, version, package_version = out.stdout.split()
    assert (name, license_expression) == ("westeros-game", "MIT")
    assert version == package_version


def test_mapgen_without_shapely_says_so_in_one_sentence(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(installed / "python"), "-m", "westeros.mapgen", "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "pip install 'westeros-game[mapgen]'" in done.stderr
