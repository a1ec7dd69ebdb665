"""Vassal setups (RULES.md 11.2.5, 11.10.2): with the ``mod_vassals`` option a 3-6 player Mother
of Dragons game has every untaken house (Targaryen excepted) on the 7-player board as a vassal,
with the units of its vassal setup card, supply 4, no power, and the track rule. The expected
units are read from RULES.md itself, unit by unit."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from westeros.engine.content import Ruleset
from westeros.engine.errors import ContentError
from westeros.engine.flow import pending
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "reference" / "RULES.md"
VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
NUMBERS = {"1": 1, "2": 2, "3": 3}
UNITS = {"footman": "footman", "footmen": "footman", "knight": "knight", "knights": "knight"}
UNITS |= {"ship": "ship", "ships": "ship"}
UNTAKEN = {
    3: {"greyjoy", "tyrell", "martell", "arryn"},
    4: {"tyrell", "martell", "arryn"},
    5: {"martell", "arryn"},
    6: {"arryn"},
}
"""The houses no player takes at each count (the base setups' houses are the players')."""


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


def rules_md_setups(rules: Ruleset) -> dict[str, Counter[tuple[str, str]]]:
    """RULES.md 11.10.2's vassal setups: house -> Counter of (area id, unit type)."""
    if not RULES_MD.exists():
        pytest.skip(f"RULES.md not found at {RULES_MD}")
    text = RULES_MD.read_text("utf-8").split("Vassal setups (S&R data):", 1)[1]
    names = {a.name.lower(): a.id for a in rules.areas.values()}
    out: dict[str, Counter[tuple[str, str]]] = {}
    for line in text.split("\n11.10.3", 1)[0].strip().splitlines():
        house, items = line.removeprefix("- ").split(": ", 1)
        units: Counter[tuple[str, str]] = Counter()
        for item in items.rstrip(".").split("; "):
            m = re.fullmatch(r"(\d) (\w+)(?: \+ (\d) (\w+))? (.+)", item)
            assert m, item
            area = names[m[5].lower()]
            units[(area, UNITS[m[2]])] += NUMBERS[m[1]]
            if m[3]:
                units[(area, UNITS[m[4]])] += NUMBERS[m[3]]
        out[house.lower()] = units
    return out


def units_of(state: State, house: str) -> Counter[tuple[str, str]]:
    return Counter(
        (a, u.type) for a, units in state.units.items() for u in units if u.house == house
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_11_10_2_every_vassal_starts_with_its_vassal_setup_from_rules_md(
    rules: Ruleset, players: int
) -> None:
    expected = rules_md_setups(rules)
    s = new_game(rules, players, 1, VASSALS)
    assert set(s.houses) == {
        "stark",
        "greyjoy",
        "lannister",
        "baratheon",
        "tyrell",
        "martell",
        "arryn",
    }
    assert set(s.houses) - set(s.setup.players) == UNTAKEN[players]
    for house in UNTAKEN[players]:
        assert units_of(s, house) == expected[house], house


def test_11_10_2_rules_md_lists_a_vassal_setup_for_all_seven_houses(rules: Ruleset) -> None:
    expected = rules_md_setups(rules)
    assert set(expected) == {
        "stark",
        "greyjoy",
        "lannister",
        "baratheon",
        "tyrell",
        "martell",
        "arryn",
    }
    assert expected["arryn"][("the-eyrie", "knight")] == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_11_10_2_players_keep_their_normal_units_and_supply(rules: Ruleset, players: int) -> None:
    seven = new_game(rules, 7, 1, VASSALS)
    s = new_game(rules, players, 1, VASSALS)
    for house in s.setup.players:
        assert units_of(s, house) == units_of(seven, house), house
        assert s.supply[house] == seven.supply[house]
        assert s.power[house] == 5  # RULES.md 1.5.4


@pytest.mark.parametrize("players", [3, 6])
def test_11_10_1_vassals_start_at_supply_4_with_no_power(rules: Ruleset, players: int) -> None:
    s = new_game(rules, players, 1, VASSALS)
    for house in UNTAKEN[players]:
        assert s.supply[house] == 4
        assert s.power[house] == 0


def test_11_10_2_a_vassal_in_the_top_three_sends_every_vassal_to_the_bottom(
    rules: Ruleset,
) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    # 7-player Fiefdoms: Greyjoy, Tyrell, Martell, Arryn, Stark, Baratheon, Lannister.
    assert s.tracks["fiefdoms"] == (
        "greyjoy",
        "stark",
        "baratheon",
        "lannister",
        "tyrell",
        "martell",
        "arryn",
    )
    # King's Court: Lannister, Stark, Martell, ... -> Martell sends Tyrell and Arryn down too.
    assert s.tracks["kings_court"] == (
        "lannister",
        "stark",
        "baratheon",
        "greyjoy",
        "martell",
        "tyrell",
        "arryn",
    )
    # Iron Throne: Baratheon, Lannister, Stark in the top three: unchanged.
    assert s.tracks["iron_throne"] == (
        "baratheon",
        "lannister",
        "stark",
        "martell",
        "greyjoy",
        "tyrell",
        "arryn",
    )


def test_11_2_5_the_7_player_board_with_king_s_landing_the_only_neutral_force(
    rules: Ruleset, facts: dict[str, Any]
) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    assert s.neutral == {"kings-landing": 5}
    seven = {a["id"] for a in facts["mother_of_dragons"]["map_7p"]["areas"]}
    eight = {a["id"] for a in facts["mother_of_dragons"]["map_8p_with_essos"]["areas"]}
    assert s.blocked == eight - seven  # all of Essos, nothing of the 7-player board
    assert s.rules.areas["the-eyrie"].home_of == "arryn"


def test_11_2_5_fewer_players_without_the_vassals_option_are_refused() -> None:
    rules = build_ruleset({"mother_of_dragons": True})
    with pytest.raises(ContentError, match="mod_vassals"):
        new_game(rules, 4, 1, {"mother_of_dragons": True})


def test_11_2_1_seven_players_have_no_vassals_with_the_option_on(rules: Ruleset) -> None:
    s = new_game(rules, 7, 1, VASSALS)
    assert s.power == {h: 5 for h in s.houses}
    assert {p.kind for p in pending(s).values()} == {"place_orders"}


def test_11_10_base_games_are_unchanged_by_the_vassal_setups() -> None:
    base = build_ruleset({"mod_vassals": True})
    s = new_game(base, 4, 1, {"mod_vassals": True})
    assert s.houses == ("baratheon", "lannister", "stark", "greyjoy")
    assert s.setup.players == ()
