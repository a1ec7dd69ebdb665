"""The AIs in Mother of Dragons games with every option (RULES.md 11.8, 11.9; issue 12): every
AI level answers every prompt of 7- and 8-player games legally, and the standard (baseline)
plans place an Iron Bank order in a sea area or port when a loan on offer is affordable."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from westeros.ai import BaselineBot, PassiveBot, RandomBot, StrongBot
from westeros.ai.difficulty import EASY, HARD, NORMAL
from westeros.ai.protocol import Player, ask
from westeros.ai.runner import play_game
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

from .test_sea_orders_placement import BOTH

ALL = {**BOTH, "mod_targaryen_b_deck": True, "tides_of_battle": True}
SEA_KINDS = {"sea", "port"}

LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomBot,
    "passive": lambda i: PassiveBot(),
    "easy": lambda i: StrongBot(i, EASY),
    "baseline": lambda i: BaselineBot(),
    "normal": lambda i: StrongBot(i, NORMAL),
    "hard": lambda i: StrongBot(i, HARD),
}
SEARCHING = {"normal", "hard"}
"""The slow levels sit at every other seat (baseline AIs between) for the first rounds, with
a short budget (a searching AI's time cap makes those runs load-dependent)."""


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(ALL)


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("level", list(LEVELS))
def test_11_every_ai_level_answers_every_prompt_legally(
    rules: Ruleset, level: str, players: int
) -> None:
    make = LEVELS[level]
    if level in SEARCHING:
        seats = [make(i) if i % 2 == 0 else BaselineBot() for i in range(players)]
        record = play_game(rules, seats, 11, ALL, budget=0.3, max_decisions=25 * players)
    else:
        record = play_game(rules, [make(i) for i in range(players)], 11, ALL)
        assert record.winner in record.seats
        if level != "passive":  # a passive AI may never take a loan
            asked = {kind for kinds in record.prompts.values() for kind in kinds}
            assert "iron_bank_loan" in asked
    assert record.faults == []


def orders_of(state: State) -> dict[str, dict[str, str]]:
    """What the baseline AI of each house orders in the Planning phase: area -> token."""
    return {h: dict(ask(BaselineBot(), state, h, 5.0)[0].orders) for h in sorted(pending(state))}


def with_loan_on_offer(rules: Ruleset, players: int, power: int) -> State:
    """The first Planning phase with a 1-PT loan on offer and every house holding ``power``."""
    state = new_game(rules, players, 3, ALL)
    state.ext["iron_bank_slots"] = ("", "", "savvy-steward")
    for house in state.houses:
        state.power[house] = power
    return state


@pytest.mark.parametrize("players", [7, 8])
def test_11_9_4_the_baseline_ai_orders_the_iron_bank_when_a_loan_is_affordable(
    rules: Ruleset, players: int
) -> None:
    placed = orders_of(with_loan_on_offer(rules, players, 7))
    for house, orders in placed.items():
        banks = [area for area, token in orders.items() if token == "iron-bank"]
        assert len(banks) == 1, house  # every house starts with a ship at sea or in a port
        assert rules.areas[banks[0]].kind in SEA_KINDS


@pytest.mark.parametrize("players", [7, 8])
def test_11_9_4_the_baseline_ai_keeps_its_sea_areas_for_other_orders_when_too_poor(
    rules: Ruleset, players: int
) -> None:
    placed = orders_of(with_loan_on_offer(rules, players, 2))  # 2 PT are kept for interest
    assert all("iron-bank" not in orders.values() for orders in placed.values())


def test_11_9_4_no_iron_bank_order_while_only_the_dearest_loan_is_on_offer(
    rules: Ruleset,
) -> None:
    state = new_game(rules, 7, 3, ALL)  # round 1: one loan, in the 7-PT slot; houses hold 7
    assert all("iron-bank" not in orders.values() for orders in orders_of(state).values())
