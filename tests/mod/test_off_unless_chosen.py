"""Mother of Dragons stays out of every game that does not choose it (RULES.md 11; the
``mother_of_dragons`` option), and the engine and host never name its ids (DESIGN §3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

ROOT = Path(__file__).resolve().parents[2]
MOD_IDS = (
    "arryn",
    "targaryen",
    "the-bite",
    "the-vale-of-arryn",
    "port-of-the-eyrie",
    "pentos",
    "braavos",
    "volantis",
    "essos",
    "mother_of_dragons",
    "mother-of-dragons",
    "dragon",
    "loyalty",
    "iron_bank",
    "iron-bank",
    "sea-march",
    "sea-support",
    "mod_sea_orders",
)


def test_11_the_base_game_is_unchanged_with_the_plugin_installed(rules: Ruleset) -> None:
    assert "westeros_mother_of_dragons" in dict(rules.plugins)
    assert rules.options["mother_of_dragons"].default is False
    assert sorted(rules.setups) == [3, 4, 5, 6]
    assert set(rules.houses) == {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"}
    assert len(rules.house_cards) == 42
    assert len(rules.areas) == 58
    eyrie = rules.areas["the-eyrie"]
    assert (eyrie.castle, eyrie.home_of) == (1, None)
    assert rules.setups[6].neutral_forces["the-eyrie"] == 6
    assert "the-narrow-sea" in rules.adjacency["white-harbor"]
    assert rules.areas["port-of-white-harbor"].attrs["port_sea"] == "the-narrow-sea"


def test_11_the_base_game_is_the_same_with_the_plugin_disabled(rules: Ruleset) -> None:
    without = build_ruleset(disable=["westeros_mother_of_dragons"])
    assert "mother_of_dragons" not in without.options
    assert set(without.areas) == set(rules.areas)
    assert without.adjacency == rules.adjacency
    assert without.house_cards.keys() == rules.house_cards.keys()
    played = [random_game(r, 6, 7).log for r in (rules, without)]
    assert played[0] == played[1]


@pytest.mark.parametrize(
    "folder",
    [
        "app/westeros/engine",
        "app/westeros/server",
        "app/westeros/session",
        "app/westeros/online",
        "app/westeros/store",
        "app/westeros/deals",
    ],
)
def test_the_engine_and_host_never_name_mother_of_dragons_ids(folder: str) -> None:
    pattern = re.compile("|".join(re.escape(i) for i in MOD_IDS), re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []
