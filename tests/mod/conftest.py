"""Fixtures of the Mother of Dragons tests (RULES.md 11): the real Ruleset of a game that
chooses the expansion, and the shared fact file the plugin's data was written from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from westeros.engine.content import AreaDef, Ruleset
from westeros.plugins import build_ruleset

MOD = {"mother_of_dragons": True}
CASTLE = {None: 0, "castle": 1, "stronghold": 2}
TRACK_KEYS = {"iron_throne": "ironThrone", "fiefdoms": "fiefdoms", "kings_court": "kingsCourt"}
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


def assert_area_matches(ours: AreaDef, fact: dict[str, Any]) -> None:
    """Our area is the fact file's: name, kind, castle, crowns, barrels, home and garrison, and
    a port's land and sea (RULES.md 11.1)."""
    area_id = fact["id"]
    assert ours.name == fact["name"], area_id
    assert ours.kind == fact["kind"], area_id
    assert ours.castle == CASTLE[fact["castle"]], area_id
    assert (ours.crowns, ours.barrels) == (fact["crowns"], fact["barrels"]), area_id
    assert ours.home_of == fact.get("home_of"), area_id
    if fact.get("home_of"):
        assert ours.garrison == fact["garrison"], area_id
    if fact["kind"] == "port":
        assert ours.attrs["port_of"] == fact["port_of"], area_id
        assert ours.attrs["port_sea"] == fact["port_sea"], area_id
