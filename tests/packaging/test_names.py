"""The game is installed by its free PyPI name, ``westeros-game`` (release issue, acceptance 2):
every install hint a user or modder reads names it, the example plugin pins it, and the version
is written in one place."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import westeros
import westeros_ai_personalities
import westeros_mother_of_dragons
import westeros_ports
import westeros_tides_of_battle
from westeros.desktop import no_window_paragraph

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXAMPLE = tomllib.loads((ROOT / "examples/westeros-example-variant/pyproject.toml").read_text())
# "pip install westeros", "pip install 'westeros[qt]'": the unrelated PyPI project.
WRONG_HINT = re.compile(r"""pip install +['"]?westeros(?:\[|['"\s]|$)""", re.MULTILINE)
READ_BY_USERS = [
    "README.md",
    "docs/plugins.md",
    "examples/westeros-example-variant/README.md",
    "app/westeros/desktop.py",
    "app/westeros/mapgen/__main__.py",
]


def test_the_distribution_is_westeros_game_with_the_westeros_command() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "westeros-game"
    assert project["scripts"] == {"westeros": "westeros.cli:main"}
    assert project["license"] == "MIT"
    assert "qt" in project["optional-dependencies"]
    assert "mapgen" in project["optional-dependencies"]


@pytest.mark.parametrize("path", READ_BY_USERS)
def test_no_install_hint_names_the_unrelated_westeros_project(path: str) -> None:
    text = (ROOT / path).read_text()
    assert not WRONG_HINT.findall(text)


def test_the_missing_window_hint_installs_the_qt_extra_of_westeros_game(tmp_path: Path) -> None:
    paragraph = no_window_paragraph("no display", tmp_path / "westeros.log")
    assert "pip install 'westeros-game[qt]'" in paragraph


def test_the_example_plugin_pins_westeros_game_to_this_release_line() -> None:
    (requirement,) = (Requirement(r) for r in EXAMPLE["project"]["dependencies"])
    assert requirement.name == "westeros-game"
    current = Version(westeros.__version__)
    assert requirement.specifier.contains(current)
    next_line = Version(f"{current.major}.{current.minor + 1}.0")
    assert not requirement.specifier.contains(next_line)


def test_the_version_is_written_once() -> None:
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "westeros.__version__"}
    for bundled in (
        westeros_ports,
        westeros_tides_of_battle,
        westeros_ai_personalities,
        westeros_mother_of_dragons,
    ):
        assert bundled.__version__ is westeros.__version__
        source = Path(bundled.__file__).read_text()
        assert "__version__ =" not in source
