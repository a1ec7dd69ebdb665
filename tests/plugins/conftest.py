"""Plugin tests never see installed plugins: autoloading is off and the user plugin folder is an
empty temporary folder, unless a test turns them on explicitly."""

from __future__ import annotations

from pathlib import Path

import pytest

from westeros.plugins import ENV_NO_AUTOLOAD, ENV_PLUGIN_DIR, ENV_TRACE


@pytest.fixture(autouse=True)
def isolated_plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Turn autoloading off and point the user plugin folder at ``tmp_path/plugins``."""
    folder = tmp_path / "plugins"
    monkeypatch.setenv(ENV_NO_AUTOLOAD, "1")
    monkeypatch.setenv(ENV_PLUGIN_DIR, str(folder))
    monkeypatch.delenv(ENV_TRACE, raising=False)
    return folder
