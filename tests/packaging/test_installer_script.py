"""The Windows installer script (issue 37 point 5) compiles with NSIS's makensis, warnings
treated as errors, around a stand-in of the folder build. Its install and uninstall run under
Wine in .ci/run (packaging/build-installer-wine.sh), not here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import westeros

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "westeros.nsi"

pytestmark = pytest.mark.skipif(
    shutil.which("makensis") is None, reason="NSIS's makensis is not installed (apt nsis)"
)


def makensis(*defines: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["makensis", "-WX", "-V2", *defines, str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_installer_compiles_as_a_64_bit_windows_program(tmp_path: Path) -> None:
    bundle = tmp_path / "westeros"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "westeros.exe").write_bytes(b"MZ stand-in")
    (bundle / "_internal" / "base_library.zip").write_bytes(b"stand-in")
    out = tmp_path / f"westeros-{westeros.__version__}-setup.exe"
    done = makensis(f"-DSOURCE={bundle}", f"-DVERSION={westeros.__version__}", f"-DOUTFILE={out}")
    assert done.returncode == 0, done.stdout + done.stderr
    program = out.read_bytes()
    assert program[:2] == b"MZ"
    header = int.from_bytes(program[0x3C:0x40], "little")
    assert program[header : header + 4] == b"PE\0\0"
    assert program[header + 4 : header + 6] == (0x8664).to_bytes(2, "little"), "not x64"
    assert westeros.__version__.encode("utf-16-le") in program, "no version resource"


def test_the_installer_needs_the_folder_build(tmp_path: Path) -> None:
    done = makensis(f"-DVERSION={westeros.__version__}", f"-DOUTFILE={tmp_path / 'w-setup.exe'}")
    assert done.returncode != 0
    assert "SOURCE" in done.stdout + done.stderr
