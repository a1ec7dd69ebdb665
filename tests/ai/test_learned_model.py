"""The shipped learned evaluation scores positions sensibly (issue 15, point 2): on a
hand-built board, holding one more castle area (9.1) gives a house a higher score and a higher
chance to win; only the Hard level with the learned evaluation searches with it."""

from __future__ import annotations

from tests.ai.helpers import stark_attacks_white_harbor
from tests.builders import blank, put
from westeros.ai import ask
from westeros.ai.difficulty import HARD, HARD_LEARNED
from westeros.ai.evaluation import DEFAULT_WEIGHTS, features, scores, utilities
from westeros.ai.learned.model import learned_weights
from westeros.ai.strong import StrongBot
from westeros.engine.content import Ruleset
from westeros.engine.round import LAST_ROUND
from westeros.engine.state import State


def stark_footman_in(rules: Ruleset, area: str, round_: int) -> State:
    """Stark's footman in ``area`` and Lannister's in Stoney Sept in round ``round_``: Stark
    holds Winterfell and, if ``area`` is one, a second castle."""
    s = blank(rules)
    s.round = round_
    put(s, area, "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    return s


def test_9_1_one_more_castle_area_scores_higher_with_the_learned_weights(rules: Ruleset) -> None:
    with_castle = stark_footman_in(rules, "white-harbor", LAST_ROUND)
    without = stark_footman_in(rules, "widows-watch", LAST_ROUND)
    assert features(with_castle)["stark"]["castle"] == 2.0
    assert features(without)["stark"]["castle"] == 1.0
    learned = dict.fromkeys(with_castle.houses, learned_weights())
    assert scores(with_castle, learned)["stark"] > scores(without, learned)["stark"]


def test_9_1_one_more_castle_area_is_a_better_chance_to_win_with_the_learned_weights(
    rules: Ruleset,
) -> None:
    """Before the last round the win chance is the softmax of the scores, threats included."""
    with_castle = stark_footman_in(rules, "white-harbor", LAST_ROUND - 1)
    without = stark_footman_in(rules, "widows-watch", LAST_ROUND - 1)
    learned = dict.fromkeys(with_castle.houses, learned_weights())
    assert utilities(with_castle, learned)["stark"] > utilities(without, learned)["stark"]
    assert utilities(with_castle, learned)["stark"] > utilities(with_castle, learned)["lannister"]


def test_only_the_learned_level_searches_with_the_learned_weights_for_every_house(
    rules: Ruleset,
) -> None:
    s = stark_attacks_white_harbor(rules, ("knight", "footman"), ("footman", "footman"))
    learned = StrongBot(0, HARD_LEARNED)
    hard = StrongBot(0, HARD)
    for bot in (learned, hard):
        ask(bot, s, "stark", 600.0)
    assert learned.last is not None and hard.last is not None
    assert learned.last.weights == dict.fromkeys(s.houses, learned_weights())
    assert hard.last.weights == {"stark": DEFAULT_WEIGHTS}
