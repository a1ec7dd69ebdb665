"""Fixtures of the Mother of Dragons tests (RULES.md 11): the real Ruleset of a game that
chooses the expansion, and the shared fact file the plugin's data was written from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

MOD = {"mother_of_dragons": True}
FACTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "westeros-2e.json"


@pytest.fixture(scope="session")
def mod_rules() -> Ruleset:
    """The Ruleset of a game with the ``mother_of_dragons`` option on."""
    return build_ruleset(MOD)


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    """The fact file's ``mother_of_dragons`` and ``base`` sections (skips without it)."""
    if not FACTS.exists():
        pytest.skip(f"fact file not found at {FACTS}")
    return json.loads(FACTS.read_text("utf-8"))
