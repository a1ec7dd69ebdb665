"""Installing throw-away plugins for tests: a distribution with entry points on ``sys.path``, or a
single file in the user plugin folder. Real discovery code runs against them; nothing is mocked."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest


def install_dist(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    version: str,
    entry_points: dict[str, str],
    modules: dict[str, str],
) -> None:
    """Put distribution ``name`` (with ``westeros.plugins`` entry points) and ``modules`` (module
    name -> source) into a fresh folder at the front of ``sys.path``."""
    site = root / f"site-{name}"
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = "".join(f"{ep} = {target}\n" for ep, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[westeros.plugins]\n{lines}")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source))
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.syspath_prepend(str(site))


def write_plugin(folder: Path, stem: str, source: str) -> Path:
    """Drop a single-file plugin ``stem.py`` into the user plugin ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.py"
    path.write_text(textwrap.dedent(source))
    return path


OPTION_PLUGIN = """
    from westeros import hookimpl
    from westeros.engine.content import GameOption

    __version__ = "{version}"

    @hookimpl
    def register_game_options():
        return [GameOption("{option}", "{option}", {default})]
"""


def option_plugin(option: str, default: int, version: str = "0.0.1") -> str:
    """Source of a plugin adding game option ``option`` with ``default`` (visible in a new
    game's ``state.options``)."""
    return OPTION_PLUGIN.format(option=option, default=default, version=version)
