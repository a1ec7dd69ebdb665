"""The environment variables that steer plugin loading (see ``westeros.plugins``), in a module
of their own: the ``westeros`` command reads them without importing the plugin manager and the
engine behind it, which the desktop app then imports beside its opening window."""

from __future__ import annotations

import os
from pathlib import Path

ENV_NO_AUTOLOAD = "WESTEROS_DISABLE_PLUGIN_AUTOLOAD"
ENV_PLUGIN_DIR = "WESTEROS_PLUGIN_DIR"
ENV_TRACE = "WESTEROS_TRACE_HOOKS"
ENV_TIME_LIMIT = "WESTEROS_PLUGIN_TIME_LIMIT"
ENV_DISABLE = "WESTEROS_DISABLE_PLUGINS"
"""Comma-separated plugin names that no game loads, bundled ones included (e.g. to rule out a
plugin while tracking down a problem)."""


def env_flag(name: str) -> bool:
    """True when environment variable ``name`` is set to anything but empty or ``0``."""
    return os.environ.get(name, "") not in ("", "0")


def user_plugin_dir() -> Path:
    """The folder whose ``*.py`` files are loaded as single-file plugins."""
    override = os.environ.get(ENV_PLUGIN_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("westeros")) / "plugins"
