"""The learned evaluation reads nothing outside the seat's view (RULES.md 0.4.4; issue 15,
point 4): the features it is trained on come from the house's own view alone, and the Hard
level with the learned evaluation gets the same decisions from states that differ only in
hidden information — the existing strong-AI view-only tests, run at that level."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ai import test_strong_view_only as strong
from tests.ai.test_view_only import commit_others, twins
from westeros.ai import PassiveBot, ask
from westeros.ai.difficulty import HARD_LEARNED, Difficulty
from westeros.ai.evaluation import FEATURES
from westeros.ai.learned.record import Recorder
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game

VIEW_ONLY_TESTS: list[Callable[[Ruleset, Difficulty], None]] = [
    strong.test_0_4_4_other_houses_secret_orders_and_deck_order_change_no_planning,
    strong.test_0_4_4_other_houses_secret_bids_change_no_bid,
    strong.test_0_4_4_the_opponents_chosen_house_card_changes_no_card,
    strong.test_0_4_4_the_hidden_seed_and_decks_change_no_march,
]


def test_0_4_4_a_seat_records_its_own_houses_features_from_its_view(rules: Ruleset) -> None:
    """Hidden information (other houses' secret orders, the decks' order) changes nothing a
    recording seat keeps, and what it keeps is its own house's: Stark starts with two castle
    areas, Winterfell a stronghold (2.1), where every other house starts with one."""
    state = new_game(rules, 6, 5)
    one, two = twins(state, "stark", commit_others("stark"))
    kept = []
    for s in (one, two):
        seat = Recorder(PassiveBot())
        ask(seat, s, "stark")
        kept.append(seat.rows)
    assert kept[0] == kept[1]
    own = dict(zip(FEATURES, kept[0][1], strict=True))
    assert (own["castle"], own["stronghold"], own["power"]) == (2.0, 1.0, 5.0)


@pytest.mark.parametrize("check", VIEW_ONLY_TESTS, ids=lambda t: t.__name__)
def test_0_4_4_hidden_information_changes_no_decision_of_hard_learned(
    rules: Ruleset, check: Callable[[Ruleset, Difficulty], None]
) -> None:
    check(rules, HARD_LEARNED)
