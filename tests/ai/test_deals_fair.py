"""Fair bargaining (issue 36 point 5): every offer and every counter of an AI gives the other
house something for what it asks — each binds the AI's own house to a term that restricts or
obliges it (``terms.binds``) — and an honourable AI takes a plain pact with a neighbour.

Hand-built boards (``tests.builders``) show the exchanges; a property test checks the rule on
real game states: games played by the baseline AI to the Planning phase (4) of a drawn round,
then every house, with every personality, asked for its offers and its answer to a pact from
every other house, from its own view only (0.4.4). Between two AIs at a local game's table
(``deals.table``) a counter goes back to the proposer, who may take it; an AI never promises
its support in one combat to both sides (5.4.1)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import westeros_ai_personalities.plugin as plugin
from tests.builders import blank, put, run
from westeros.ai import BaselineBot, PassiveBot, Player, ask
from westeros.ai.deals import DealBot, DealMind
from westeros.ai.deals_seat import TalkingBot
from westeros.ai.personality import BALANCED, AIPersonality
from westeros.deals import (
    ACCEPT,
    COUNTER,
    DECLINE,
    DealBook,
    NonAggression,
    Proposal,
    Reply,
    StayOut,
    SupportPromise,
    binds,
)
from westeros.deals.table import DealTable
from westeros.engine.action_phase import ActionPhase
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending
from westeros.engine.planning import PlaceOrders, PlanningPhase
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset

PERSONALITIES = (BALANCED, *plugin.PERSONALITIES)
GREYJOY_PACT = NonAggression(("greyjoy", "stark"), 1)


def two_against_one(rules: Ruleset) -> State:
    """Stark's army in Winterfell can take Greyjoy's Moat Cailin, Karhold and Castle Black (one
    footman each); Greyjoy's army in Widow's Watch can take Stark's White Harbor (one
    footman): a pact costs Stark more than it spares it. Martell holds Sunspear, far away.
    Round 1 from Planning."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman", "footman")
    put(s, "white-harbor", "stark", "footman")
    put(s, "widows-watch", "greyjoy", "knight", "footman", "footman")
    put(s, "moat-cailin", "greyjoy", "footman")
    put(s, "karhold", "greyjoy", "footman")
    put(s, "castle-black", "greyjoy", "footman")
    put(s, "pyke", "greyjoy", "footman")
    put(s, "sunspear", "martell", "footman")
    return run(s, PlanningPhase(), ActionPhase())


def support_wanted(rules: Ruleset) -> State:
    """Stark in Winterfell can attack Greyjoy's two footmen in White Harbor with the support of
    Lannister's footman in Widow's Watch; Martell holds Sunspear, far away. Round 1 from
    Planning."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman", "footman")
    put(s, "widows-watch", "lannister", "footman")
    put(s, "pyke", "greyjoy", "footman")
    put(s, "sunspear", "martell", "footman")
    return run(s, PlanningPhase(), ActionPhase())


def offer(book: DealBook, proposer: str, recipient: str, *terms: object) -> Proposal:
    return book.propose(proposer, recipient, terms, 1)  # type: ignore[arg-type]


def answer(
    state: State, house: str, personality: AIPersonality, book: DealBook, p: Proposal
) -> Reply:
    bot = DealBot(0, personality)
    bot.see(book.seen_by(house))
    return bot.answer(p, player_view(state, house), state.rules)


@pytest.mark.parametrize("personality", PERSONALITIES, ids=lambda p: p.id)
def test_issue_36_5_a_mutual_pact_offer_gets_no_one_sided_counter(
    rules: Ruleset, personality: AIPersonality
) -> None:
    s = two_against_one(rules)
    book = DealBook()
    reply = answer(s, "stark", personality, book, offer(book, "greyjoy", "stark", GREYJOY_PACT))
    assert reply.answer in (ACCEPT, DECLINE, COUNTER)
    if reply.answer == COUNTER:
        assert binds(reply.terms, "stark") and binds(reply.terms, "greyjoy"), reply.terms


def test_issue_36_5_a_refused_pact_is_countered_by_an_exchange_both_houses_take(
    rules: Ruleset,
) -> None:
    """Stark would give up three easy conquests for one: it offers instead to spare Moat
    Cailin if Greyjoy spares White Harbor, and a balanced Greyjoy takes that."""
    s = two_against_one(rules)
    book = DealBook()
    reply = answer(s, "stark", BALANCED, book, offer(book, "greyjoy", "stark", GREYJOY_PACT))
    assert reply == Reply(
        COUNTER, (StayOut("greyjoy", "white-harbor", 1), StayOut("stark", "moat-cailin", 1))
    )
    counter = book.reply("p1", "stark", reply, 1)
    assert isinstance(counter, Proposal) and counter.proposer == "stark"
    assert answer(s, "greyjoy", BALANCED, book, counter).answer == ACCEPT


def test_issue_36_5_the_turtle_takes_a_plain_pact_with_a_neighbour_it_could_raid(
    rules: Ruleset,
) -> None:
    """The Turtle (honourable, diplomacy 1.6) values the peace on its border more than the
    conquests it gives up, where a balanced seat counters."""
    s = two_against_one(rules)
    book = DealBook()
    reply = answer(s, "stark", plugin.TURTLE, book, offer(book, "greyjoy", "stark", GREYJOY_PACT))
    assert reply.answer == ACCEPT


@functools.cache
def planning(players: int, seed: int, round: int) -> State:
    """A real game of ``players`` played by the baseline AI from ``seed`` up to the Planning
    phase (4) of ``round`` (or its end, if sooner)."""
    rules = build_ruleset()
    state = new_game(rules, players, seed)
    bot = BaselineBot(seed)
    while waiting := pending(state):
        if state.round >= round and all(p.kind == "place_orders" for p in waiting.values()):
            break
        house = min(waiting)
        action, _ = ask(bot, state, house)
        state, _ = apply(state, house, action)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 5),
    round=st.integers(1, 4),
    personality=st.sampled_from(PERSONALITIES),
)
def test_issue_36_5_every_ai_offer_and_counter_gives_the_other_house_something(
    players: int, seed: int, round: int, personality: AIPersonality
) -> None:
    state = planning(players, seed, round)
    rules = state.rules
    for house in state.houses:
        view = player_view(state, house)
        mind = DealMind(house, personality)
        for to, terms in mind.proposals(view, rules, DealBook()):
            assert binds(terms, house), (house, to, terms)
        for other in state.houses:
            if other == house:
                continue
            book = DealBook()
            pact = NonAggression(tuple(sorted((house, other))), state.round)
            reply = mind.answer(book.propose(other, house, (pact,), state.round), view, rules)
            if reply.answer == COUNTER:
                assert binds(reply.terms, house) and binds(reply.terms, other), reply.terms


def hidden_twins(state: State, house: str) -> tuple[State, State]:
    """``state`` after two different order placements of ``house`` (4.1), still hidden."""
    areas = pending(state)[house].data["areas"]
    twins = []
    for tokens in (("defense+1", "march+0", "raid+0"), ("march+0", "support+0", "defense+0")):
        placed = PlaceOrders(tuple(zip(areas, tokens, strict=False)))
        twins.append(apply(state, house, placed)[0])
    return twins[0], twins[1]


@pytest.mark.parametrize(
    ("board", "other", "hidden"),
    [
        (two_against_one, "greyjoy", "martell"),
        (support_wanted, "greyjoy", "martell"),
    ],
    ids=["counter", "support-request"],
)
def test_0_4_4_counters_and_paid_support_requests_come_from_the_seats_own_view(
    rules: Ruleset, board: Callable[[Ruleset], State], other: str, hidden: str
) -> None:
    """Another house's hidden orders (4.1) and a private deal between two other houses change
    nothing in what Stark's AI counters or offers."""
    me = "stark"
    one, two = hidden_twins(board(rules), hidden)
    assert one.hash() != two.hash()
    assert player_view(one, me) == player_view(two, me)
    quiet, busy = DealBook(), DealBook()
    for book in (quiet, busy):
        book.propose(other, me, (NonAggression(tuple(sorted((me, other))), 1),), 1)
    secret = busy.propose(hidden, "tyrell", (NonAggression((hidden, "tyrell"), 1),), 1)
    busy.reply(secret.id, "tyrell", Reply(ACCEPT), 1)
    seen = []
    for state, book in ((one, quiet), (two, busy)):
        bot = DealBot(0)
        bot.see(book.seen_by(me))
        view = player_view(state, me)
        seen.append((bot.answer(book.proposals["p1"], view, rules), bot.proposals(view, rules)))
    assert seen[0] == seen[1]
    reply, offers = seen[0]
    assert reply.answer == COUNTER or any(binds(terms, me) for _, terms in offers)


def test_5_4_1_an_ai_never_promises_its_support_in_one_combat_to_both_sides(
    rules: Ruleset,
) -> None:
    """Lannister, which can support in White Harbor, takes Stark's paid request for support
    there, unless it already promised that support to Greyjoy (one promise would be broken)."""
    s = support_wanted(rules)
    ask = (
        SupportPromise("lannister", "stark", "white-harbor", 1),
        NonAggression(("lannister", "stark"), 1),
    )
    answers = []
    for promised_before in (False, True):
        book = DealBook()
        if promised_before:
            other = SupportPromise("lannister", "greyjoy", "white-harbor", 1)
            book.reply(offer(book, "greyjoy", "lannister", other).id, "lannister", Reply(ACCEPT), 1)
        answers.append(
            answer(s, "lannister", plugin.TURTLE, book, offer(book, "stark", "lannister", *ask))
        )
    assert [a.answer for a in answers] == [ACCEPT, DECLINE]


class TwoAis:
    """A local game's session as the deal table sees it: every seat played by the computer."""

    def __init__(self, state: State, players: dict[str, Player]) -> None:
        self.state = state
        self.players = players
        self.lock = threading.RLock()

    def is_ai(self, house: str) -> bool:
        return True

    def observe(self, observer: Callable[[Any], None]) -> None:
        """The state never moves here."""


def test_issue_36_5_between_ais_at_the_table_a_counter_goes_back_to_the_proposer(
    rules: Ruleset,
) -> None:
    """At the start of Planning (4) Greyjoy offers Stark a pact; Stark counters with the
    exchange of Stay-Out promises and Greyjoy takes it: the deal made is the exchange."""
    s = two_against_one(rules)
    players: dict[str, Player] = {h: PassiveBot() for h in s.houses}
    players["stark"] = TalkingBot(0)
    players["greyjoy"] = TalkingBot(1)
    table = DealTable(TwoAis(s, players), lambda h: player_view(s, h), lambda _: None)
    book = table.book
    pact = book.proposals["p1"]
    assert (pact.proposer, pact.recipient, pact.terms) == ("greyjoy", "stark", (GREYJOY_PACT,))
    swap = (StayOut("greyjoy", "white-harbor", 1), StayOut("stark", "moat-cailin", 1))
    assert book.replies["p1"] == Reply(COUNTER, swap)
    assert book.replies["p2"] == Reply(ACCEPT)
    assert [(d.houses, d.terms) for d in book.deals.values()] == [
        (frozenset({"greyjoy", "stark"}), swap)
    ]
