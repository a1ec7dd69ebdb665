"""Issue 38 acceptance 1 (point 2): ``westeros new-plugin NAME`` writes a ready plugin package
that installs with ``pip install -e`` into a fresh virtual environment, whose own test passes
there with the ``westeros_game`` fixture, and that ``westeros plugins --json`` then lists, with
no error. Offline: the new environment sees this checkout's environment (Westeros, pip,
setuptools, pytest) through a ``.pth`` line, and the plugin installs without build isolation."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from westeros.cli import main
from westeros.plugins import ENV_NO_AUTOLOAD, ENV_PLUGIN_DIR

NAME = "westeros-night-watch"
PACKAGE = "westeros_night_watch"


def fresh_venv(where: Path) -> Path:
    """A new virtual environment that also sees this environment's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    inner = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    outer = site.getsitepackages()[0]
    Path(inner, "outer-env.pth").write_text(f"import site; site.addsitedir({outer!r})\n")
    return python


def run(
    python: Path, *args: str, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_new_plugin_installs_passes_its_own_tests_and_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38 acceptance 1: build with the command, install into a temporary venv, run the
    plugin's own tests there, and list it with ``westeros plugins --json``."""
    assert main(["new-plugin", NAME, "--dir", str(tmp_path)]) == 0
    root = tmp_path / NAME
    assert f"Wrote {root}" in capsys.readouterr().out
    python = fresh_venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k not in (ENV_NO_AUTOLOAD, "PYTHONPATH")}
    env[ENV_PLUGIN_DIR] = str(tmp_path / "no-user-plugins")

    install = run(
        python,
        *("-m", "pip", "install", "-q", "--no-deps", "-e", "."),
        cwd=root,
        env=env,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    tests = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=root, env=env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout

    listing = run(python, "-m", "westeros.cli", "plugins", "--json", cwd=tmp_path, env=env)
    assert listing.returncode == 0, listing.stderr
    found = json.loads(listing.stdout)
    assert found["errors"] == []
    mine = [p for p in found["plugins"] if p["name"] == PACKAGE]
    assert mine and mine[0]["source"] == "entry point" and mine[0]["version"] == "0.1.0"
    assert "register_event_texts" in mine[0]["hooks"]


def test_new_plugin_refuses_a_bad_name_and_an_existing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38 point 2: bad input gets a specific error and writes nothing."""
    assert main(["new-plugin", "Night Watch!", "--dir", str(tmp_path)]) == 2
    assert "is not a plugin name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    (tmp_path / NAME).mkdir()
    assert main(["new-plugin", NAME, "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert list((tmp_path / NAME).iterdir()) == []
