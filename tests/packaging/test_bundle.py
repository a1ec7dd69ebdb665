"""The PyInstaller spec builds a bundle that lists the bundled plugins found through their
entry points (plugin issue, acceptance 5; desktop issue: the Linux bundle smoke run)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import westeros
from tests.packaging.smoke import smoke_core

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "westeros.spec"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("PyInstaller") is None,
        reason="PyInstaller is not installed (pip install -e '.[test]')",
    ),
]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("pyinstaller")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(work / "dist"),
            "--workpath",
            str(work / "build"),
            str(SPEC),
        ],
        check=True,
        cwd=ROOT,
        timeout=900,
    )
    exe = work / "dist" / "westeros" / ("westeros.exe" if sys.platform == "win32" else "westeros")
    assert exe.exists()
    return exe


def test_frozen_app_lists_the_bundled_plugins_without_errors(bundle: Path) -> None:
    out = subprocess.run(
        [str(bundle), "plugins", "--json"], capture_output=True, text=True, timeout=120, check=True
    )
    listing = json.loads(out.stdout)
    names = [p["name"] for p in listing["plugins"]]
    assert names[:3] == ["westeros-base", "westeros_ports", "westeros_tides_of_battle"]
    assert listing["errors"] == []
    ports = next(p for p in listing["plugins"] if p["name"] == "westeros_ports")
    assert "rule_after_resolution" in ports["hooks"]


def test_frozen_app_serves_the_board_and_exits_cleanly(bundle: Path, tmp_path: Path) -> None:
    seen = smoke_core([str(bundle)], tmp_path)
    assert seen["start_has_form"]
    assert seen["board_has_map"]
    assert seen["script_status"] == 200
    assert seen["exit_code"] == 0


def test_frozen_app_reports_its_version(bundle: Path) -> None:
    out = subprocess.run([str(bundle), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.split() == ["westeros", westeros.__version__]
