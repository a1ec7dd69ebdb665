"""AI seats of a local game that talk (issue 15 point 4; ai/deals_seat.py): the strong AI's own
decisions are not bound by its deals, but any of them that would march on or raid the house it
made a pact with is replaced, so an honourable strong AI keeps its word too (5.2, 5.3)."""

from __future__ import annotations

import functools

import pytest

import westeros_ai_personalities.plugin as plugin
from tests.ai.test_deals_ai import attacks_on_greyjoy, next_to_greyjoy, pact_book, play_round
from westeros.ai import StrongBot
from westeros.ai.deals_seat import TalkingStrongBot
from westeros.ai.difficulty import LEVELS
from westeros.deals import DealBook
from westeros.engine.content import Ruleset


def test_issue_15_4_the_easy_strong_ai_alone_attacks_its_neighbour(rules: Ruleset) -> None:
    """Without a deal, the Easy strong AI (a quarter of its decisions at random) marches on
    Greyjoy in some of these games: the pact below is what stops it."""
    attacked = []
    for seed in range(3):
        book = DealBook()
        play_round(next_to_greyjoy(rules, False), StrongBot(seed, LEVELS["easy"]), book)
        attacked += attacks_on_greyjoy(book)
    assert attacked


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_issue_15_4_an_honourable_strong_ai_never_attacks_its_pact_partner(
    rules: Ruleset, level: str
) -> None:
    for seed in range(3):
        book = pact_book()
        seat = TalkingStrongBot(seed, LEVELS[level], plugin.TURTLE)
        seat.follow(functools.partial(book.seen_by, "stark"))
        play_round(next_to_greyjoy(rules, False), seat, book)
        assert attacks_on_greyjoy(book) == [], seed
        assert book.verdicts(2)["d1"].status == "kept"
