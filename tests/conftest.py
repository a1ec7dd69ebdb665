"""Shared fixtures: the real Ruleset built through the plugin manager, never a mock."""

from __future__ import annotations

import os

import pytest

# Tests never autoload installed or user-folder plugins (DESIGN §3); set before any ruleset.
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    """The base game with ports (Tides of Battle present but off by default)."""
    return build_ruleset()


@pytest.fixture(scope="session")
def rules_no_ports() -> Ruleset:
    """The base game with the ports plugin disabled."""
    return build_ruleset(disable=["westeros_ports"])
