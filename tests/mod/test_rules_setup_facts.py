"""Fields of the 7- and 8-player setups (RULES.md 11.1, 11.2) that the setup tests leave
unchecked against the shared fact file: neutral-force values, house names, the starting
loyalty tokens and the rounds of the dragon strength tokens, printed and alternate."""

from __future__ import annotations

from typing import Any

import pytest

from westeros.engine import board
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game
from westeros.engine.state import Unit
from westeros.plugins import build_ruleset

from .conftest import MOD

MAPS = {7: "map_7p", 8: "map_8p_with_essos"}


@pytest.mark.parametrize("players", [7, 8])
def test_11_1_neutral_forces_are_the_fact_files(
    mod_rules: Ruleset, facts: dict[str, Any], players: int
) -> None:
    areas = facts["mother_of_dragons"][MAPS[players]]["areas"]
    theirs = {a["id"]: a["garrison"] for a in areas if a.get("garrison") and not a.get("home_of")}
    assert new_game(mod_rules, players, 1, MOD, start=False).neutral == theirs


def test_11_1_arryn_and_targaryen_are_named_as_in_the_fact_file(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    for house, fact in facts["mother_of_dragons"]["houses"].items():
        assert mod_rules.houses[house].name == fact["name"]


def test_11_2_2_the_starting_loyalty_tokens_are_the_fact_files(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    theirs = facts["mother_of_dragons"]["setups"][1]["loyaltyTokens"]
    s = new_game(mod_rules, 8, 1, MOD, start=False)
    assert dict(s.ext["loyalty_tokens"]) == theirs


@pytest.mark.parametrize(
    ("options", "key"),
    [
        (MOD, "dragonStrengthTokens"),
        (MOD | {"mod_alternate_dragon_tokens": True}, "alternateDragonStrengthTokens"),
    ],
)
def test_11_2_2_dragon_strength_follows_the_fact_files_token_rounds(
    facts: dict[str, Any], options: dict[str, bool], key: str
) -> None:
    """In each round a dragon is as strong as the fact file has tokens on rounds up to it."""
    rounds = facts["mother_of_dragons"]["setups"][1][key]
    s = new_game(build_ruleset(options), 8, 1, options, start=False)
    for round_number in range(1, 11):
        s.round = round_number
        wanted = sum(1 for r in rounds if r <= round_number)
        assert board.unit_strength(s, Unit("targaryen", "dragon"), False) == wanted, round_number
