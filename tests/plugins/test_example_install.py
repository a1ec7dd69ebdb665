"""The worked example plugin, pip-installed into a fresh virtual environment next to Westeros, is
discovered through its entry point and visibly changes a new game (issue acceptance); its own
tests pass there with the ``westeros_ruleset`` fixture. Needs PyPI (build tools, pluggy,
platformdirs, pytest)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from westeros.plugins import ENV_NO_AUTOLOAD, ENV_PLUGIN_DIR

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "westeros-example-variant"
JUNK = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", ".pytest_cache")

SCRIPT = """
import json
from westeros.engine.setup import new_game
from westeros.plugins import load

loaded = load()
state = new_game(loaded.ruleset, 6, 1)
print(json.dumps({
    "errors": [str(e) for e in loaded.errors],
    "plugins": dict(state.rules.plugins),
    "sources": {p.name: p.source for p in loaded.plugins},
    "baratheon": list(state.hands["baratheon"]),
}))
"""


def copy_sources(dest: Path) -> tuple[Path, Path]:
    """Copies of Westeros and the example, so that building them leaves the work tree clean."""
    westeros = dest / "westeros"
    westeros.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, westeros / name)
    for name in ("app", "plugins"):
        shutil.copytree(ROOT / name, westeros / name, ignore=JUNK)
    example = dest / "example"
    shutil.copytree(EXAMPLE, example, ignore=JUNK)
    return westeros, example


@pytest.mark.slow
def test_example_plugin_is_discovered_after_pip_install(tmp_path: Path) -> None:
    westeros, example = copy_sources(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    install = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*install, str(westeros), f"{example}[test]"], check=True, timeout=170)

    env = {k: v for k, v in os.environ.items() if k != ENV_NO_AUTOLOAD}
    env[ENV_PLUGIN_DIR] = str(tmp_path / "no-user-plugins")
    run = subprocess.run(
        [str(python), "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["errors"] == []
    assert found["plugins"]["westeros_example_variant"] == "0.1.0"
    assert found["sources"]["westeros_example_variant"] == "entry point"
    assert "ser-duncan-the-tall" in found["baratheon"]

    listing = subprocess.run(
        [str(bin_dir / "westeros"), "plugins"], env=env, capture_output=True, text=True
    )
    assert "westeros_example_variant 0.1.0" in listing.stdout

    tests = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        env=env,
        cwd=example,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
