"""AI seats of a local game that talk (issue 15 point 4, issue 36 point 5; ai/deals_seat.py):
the strong AI's own decisions (Standard's among them) are not bound by their deals, but any of
them that would march on or raid the house they made a pact with is replaced, so an honourable
seat keeps its word at every level (5.2, 5.3)."""

from __future__ import annotations

import functools

import pytest

import westeros_ai_personalities.plugin as plugin
from tests.ai.test_deals_ai import attacks_on_greyjoy, next_to_greyjoy, pact_book, play_round
from tests.ai.test_deals_fair import GREYJOY_PACT, two_against_one
from westeros.ai import StrongBot
from westeros.ai.deals_seat import TalkingStrongBot
from westeros.ai.difficulty import LEVELS
from westeros.ai.seats import seat_ai
from westeros.deals import ACCEPT, DealBook
from westeros.deals.table import Negotiator
from westeros.engine.content import Ruleset
from westeros.engine.view import player_view


def test_issue_15_4_the_easy_strong_ai_alone_attacks_its_neighbour(rules: Ruleset) -> None:
    """Without a deal, the Easy strong AI (a quarter of its decisions at random) marches on
    Greyjoy in some of these games: the pact below is what stops it."""
    attacked = []
    for seed in range(3):
        book = DealBook()
        play_round(next_to_greyjoy(rules, False), StrongBot(seed, LEVELS["easy"]), book)
        attacked += attacks_on_greyjoy(book)
    assert attacked


def test_issue_36_5_normal_alone_takes_greyjoy_s_empty_castle(rules: Ruleset) -> None:
    """Without a deal, Normal marches from Winterfell into White Harbor, empty and held by a
    Greyjoy power token, in every game (it leaves the castle held by a footman alone): the pact
    below is what stops it. Standard, the same search with a smaller budget and the same
    ``TalkingStrongBot`` guard, leaves both alone here, so a pact test of it would prove
    nothing."""
    for seed in range(3):
        book = DealBook()
        play_round(next_to_greyjoy(rules, True), StrongBot(seed, LEVELS["normal"]), book)
        assert attacks_on_greyjoy(book), seed


@pytest.mark.parametrize("level", ["easy", "normal"])
@pytest.mark.parametrize("token", [False, True], ids=["castle-held", "castle-empty"])
def test_issue_15_4_an_honourable_strong_ai_never_attacks_its_pact_partner(
    rules: Ruleset, level: str, token: bool
) -> None:
    for seed in range(3):
        book = pact_book()
        seat = TalkingStrongBot(seed, LEVELS[level], plugin.TURTLE)
        seat.follow(functools.partial(book.seen_by, "stark"))
        play_round(next_to_greyjoy(rules, token), seat, book)
        assert attacks_on_greyjoy(book) == [], seed
        assert book.verdicts(2)["d1"].status == "kept"


@pytest.mark.parametrize("level", ["baseline", "standard", "normal"])
def test_issue_36_5_an_ai_seat_of_every_level_takes_part_in_the_talks(
    rules: Ruleset, level: str
) -> None:
    """Every level an AI seat may have answers offers and makes its own (until issue 36 a
    Standard seat declined every offer and made none), from its own view (0.4.4): as Stark the
    Turtle takes Greyjoy's plain pact; as Greyjoy, whose neighbour could take White Harbor, it
    offers Stark that pact itself."""
    state = two_against_one(rules)
    book = DealBook()
    stark = seat_ai(level, plugin.TURTLE, 0)
    assert isinstance(stark, Negotiator)
    stark.follow(functools.partial(book.seen_by, "stark"))
    proposal = book.propose("greyjoy", "stark", (GREYJOY_PACT,), 1)
    assert stark.answer(proposal, player_view(state, "stark"), rules).answer == ACCEPT
    greyjoy = seat_ai(level, plugin.TURTLE, 0)
    assert isinstance(greyjoy, Negotiator)
    greyjoy.follow(functools.partial(DealBook().seen_by, "greyjoy"))
    offers = greyjoy.proposals(player_view(state, "greyjoy"), rules)
    assert offers == [("stark", (GREYJOY_PACT,))]
