"""Tests of the example plugin through the real engine, using the ``westeros_ruleset`` fixture
that the ``westeros`` package provides to pytest."""

from __future__ import annotations

from collections.abc import Callable

from westeros_example_variant import plugin
from westeros_example_variant.cards import CARD_ID

from westeros.engine.combat.context import ATTACKER, DEFENDER, Combat, Side
from westeros.engine.combat.strength import total
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game
from westeros.engine.state import State, Unit

Factory = Callable[..., Ruleset]


def test_a_new_game_deals_ser_duncan_to_baratheon(westeros_ruleset: Factory) -> None:
    state = new_game(westeros_ruleset(plugin), 6, seed=1)
    assert CARD_ID in state.hands["baratheon"]
    assert len(state.hands["baratheon"]) == 8  # the seven printed cards and Ser Duncan


def fight(state: State, duncan_side: str) -> Combat:
    """Baratheon (one footman, playing Ser Duncan) against Lannister (one footman, playing
    Ser Jaime) in the Kingswood; Baratheon fights on ``duncan_side``."""
    baratheon = Side("baratheon", (Unit("baratheon", "footman"),), card=CARD_ID)
    lannister = Side("lannister", (Unit("lannister", "footman"),), card="ser-jaime-lannister")
    attacker, defender = (
        (baratheon, lannister) if duncan_side == ATTACKER else (lannister, baratheon)
    )
    return Combat("kingswood", "storms-end", "march+0", attacker, defender)


def test_ser_duncan_adds_two_when_defending_only(westeros_ruleset: Factory) -> None:
    state = new_game(westeros_ruleset(plugin), 6, seed=1, start=False)
    # footman 1 + printed strength 2 (+2 when defending); March +0, no Defense order
    assert total(state, fight(state, DEFENDER), DEFENDER, None) == 1 + 2 + 2
    assert total(state, fight(state, ATTACKER), ATTACKER, None) == 1 + 2
