"""The AIs' answers to the Iron Bank's loans (RULES.md 11.9.6): a loan's units are put on the
board rather than passed up, the Pyromancer degrades a castle of the house with the most
castles, and the Faceless Men kill that house's units, never the buyer's own."""

from __future__ import annotations

from tests.builders import put, run
from westeros.engine.content import Ruleset
from westeros.engine.state import State
from westeros_mother_of_dragons import loans

from .test_deck_iv_ai import answered
from .test_targaryen_cards import blank8

BUYER = "stark"


def types_in(s: State, *areas: str) -> dict[str, list[str]]:
    return {a: sorted(u.type for u in s.units.get(a, ())) for a in areas}


def test_11_9_6_vanguard_cavalry_knights_are_placed_not_passed_up(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)  # Stark's supply (1) allows an army of 3 and one of 2
    put(s, "winterfell", BUYER, "footman")
    put(s, "white-harbor", BUYER, "footman")
    loans.resolve(s, BUYER, loans.CAVALRY)
    s = answered(run(s), BUYER)
    assert types_in(s, "winterfell", "white-harbor") == {
        "winterfell": ["footman", "knight", "knight"],
        "white-harbor": ["footman", "knight"],
    }


def rivals(rules: Ruleset) -> State:
    """Lannister holds 3 castles (Lannisport, Harrenhal, Riverrun), Greyjoy 2, Stark 2."""
    s = blank8(rules, 3)
    put(s, "harrenhal", "lannister", "knight", "footman")
    put(s, "riverrun", "lannister", "footman")
    put(s, "flints-finger", "greyjoy", "footman")
    put(s, "white-harbor", BUYER, "footman")
    put(s, "winterfell", BUYER, "knight")
    return s


def test_11_9_6_the_pyromancer_degrades_the_leaders_castle(mod_rules: Ruleset) -> None:
    s = rivals(mod_rules)
    loans.resolve(s, BUYER, loans.PYROMANCER)
    s = answered(run(s), BUYER)
    assert s.ext[loans.IMPROVEMENTS] == (("harrenhal", loans.DEGRADED), ("harrenhal", loans.CROWN))


def test_11_9_6_the_faceless_men_kill_the_leaders_units(mod_rules: Ruleset) -> None:
    s = rivals(mod_rules)
    loans.resolve(s, BUYER, loans.FACELESS)
    s = answered(run(s), BUYER)
    assert types_in(s, "harrenhal", "riverrun", "flints-finger", "white-harbor", "winterfell") == {
        "harrenhal": ["footman"],
        "riverrun": [],
        "flints-finger": ["footman"],
        "white-harbor": ["footman"],
        "winterfell": ["knight"],
    }
