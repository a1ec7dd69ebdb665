"""Our data files are written from the shared fact file; these tests cross-check them (1.1, 8.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from westeros.base.westeros_cards import card_type
from westeros.engine.content import Ruleset

FACTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "westeros-2e.json"

pytestmark = pytest.mark.skipif(not FACTS.exists(), reason=f"fact file not found at {FACTS}")


@pytest.fixture(scope="module")
def facts() -> dict:
    return json.loads(FACTS.read_text("utf-8"))["base"]


CASTLE = {None: 0, "castle": 1, "stronghold": 2}


def test_1_1_every_area_matches_the_fact_file(rules: Ruleset, facts: dict) -> None:
    theirs = {a["id"]: a for a in facts["map"]["areas"]}
    assert set(rules.areas) == set(theirs)
    assert len(rules.areas) == 58
    for area_id, fact in theirs.items():
        ours = rules.areas[area_id]
        assert ours.kind == fact["kind"], area_id
        assert ours.name == fact["name"], area_id
        assert ours.castle == CASTLE[fact["castle"]], area_id
        assert ours.crowns == fact["crowns"], area_id
        assert ours.barrels == fact["barrels"], area_id
        assert ours.home_of == fact.get("home_of"), area_id
        if fact.get("home_of"):
            assert ours.garrison == fact["garrison"], area_id
        if fact["kind"] == "port":
            assert ours.attrs["port_of"] == fact["port_of"]
            assert ours.attrs["port_sea"] == fact["port_sea"]


def test_1_1_1_adjacency_is_the_143_pairs_of_the_fact_file(rules: Ruleset, facts: dict) -> None:
    theirs = {frozenset(p) for p in facts["map"]["adjacent"]}
    ours = {frozenset((a, b)) for a, ns in rules.adjacency.items() for b in ns}
    assert len(theirs) == 143
    assert ours == theirs


def test_1_1_2_islands_have_no_land_neighbours(rules: Ruleset) -> None:
    for island in ("pyke", "dragonstone", "the-arbor"):
        assert all(rules.areas[n].kind != "land" for n in rules.adjacency[island]), island


def test_8_2_house_cards_match_the_fact_file(rules: Ruleset, facts: dict) -> None:
    assert len(rules.house_cards) == 42
    for house, data in facts["houses"].items():
        assert rules.cards_of[house] == tuple(c["id"] for c in data["house_cards"])
        for c in data["house_cards"]:
            card = rules.house_cards[c["id"]]
            assert (card.name, card.strength, card.swords, card.fortifications) == (
                c["name"],
                c["strength"],
                c["swords"],
                c["fortifications"],
            )


def test_1_2_2_unit_pools_match(rules: Ruleset, facts: dict) -> None:
    for house, data in facts["houses"].items():
        assert dict(rules.houses[house].unit_limits) == data["unit_limits"]


def test_1_4_1_fifteen_order_tokens_as_in_the_fact_file(rules: Ruleset, facts: dict) -> None:
    ours = sorted((t.type, t.bonus, t.star) for t in rules.order_tokens.values())
    theirs = sorted((t["type"], t["bonus"], t["star"]) for t in facts["order_tokens_per_house"])
    assert ours == theirs


def test_3_westeros_decks_match_the_fact_file(rules: Ruleset, facts: dict) -> None:
    if not rules.westeros_cards:
        pytest.skip("Westeros cards not registered yet")
    numbers = {"I": 1, "II": 2, "III": 3}
    theirs = {
        (numbers[deck], c["card"]): c["count"]
        for deck, cards in facts["westeros_decks"].items()
        for c in cards
    }
    ours = {(c.deck, card_type(c.id)): c.count for c in rules.westeros_cards.values()}
    assert ours == theirs
    icons = {card_type(c.id) for c in rules.westeros_cards.values() if c.wildling_icon}
    assert icons == set(facts["westeros_cards_with_wildling_icon"])


def test_7_3_nine_wildling_cards_as_in_the_fact_file(rules: Ruleset, facts: dict) -> None:
    if not rules.wildling_cards:
        pytest.skip("wildling cards not registered yet")
    assert sorted(rules.wildling_cards) == sorted(facts["wildling_cards"])


def test_1_7_3_supply_table_matches(rules: Ruleset, facts: dict) -> None:
    for setup in rules.setups.values():
        assert [list(r) for r in setup.supply_table] == facts["supply_limits"]["table"]
