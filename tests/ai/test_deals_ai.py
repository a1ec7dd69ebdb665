"""AI seats at the table (issue 15 point 4): an honourable AI keeps the deals it accepted, a
schemer breaks one when breaking pays enough, every AI remembers who broke a deal with it, and
its answers come from its own view and its own side of the deal book only (RULES.md 0.4.4).

Boards are built by hand (``tests.builders``); the Planning (4) and Action (5) phases of round
1 are then played by the engine, Stark seated by the AI under test and every other house by
the passive bot."""

from __future__ import annotations

import pytest

import westeros_ai_personalities.plugin as plugin
from tests.ai.helpers import decision
from tests.ai.test_deals_model import support_board
from tests.builders import blank, order, put, run
from westeros.ai import BaselineBot, PassiveBot, Player, play_game
from westeros.ai.deals import DealBot
from westeros.ai.deals_table import play, talks
from westeros.ai.personality import BALANCED, AIPersonality
from westeros.deals import (
    ACCEPT,
    BROKEN,
    DECLINE,
    DealBook,
    NonAggression,
    Reply,
    SplitBids,
    SupportPromise,
)
from westeros.deals.record import acts
from westeros.engine.action_phase import ActionPhase
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import ClashOfKings
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending
from westeros.engine.planning import PlaceOrders, PlanningPhase
from westeros.engine.raid import RaidTurn, ResolveRaid
from westeros.engine.state import State
from westeros.engine.view import player_view

HONOURABLE = (BALANCED, plugin.TURTLE, plugin.POWER_BROKER)
SCHEMERS = (plugin.CONQUEROR, plugin.OPPORTUNIST)
PACT = NonAggression(("greyjoy", "stark"), 1)


def pact_book(accepted: bool = True) -> DealBook:
    """A book in which Stark offered Greyjoy non-aggression for round 1 (accepted or not)."""
    book = DealBook()
    p = book.propose("stark", "greyjoy", (PACT,), 1)
    book.reply(p.id, "greyjoy", Reply(ACCEPT if accepted else DECLINE), 1)
    return book


def next_to_greyjoy(rules: Ruleset, castle_held_by_token: bool) -> State:
    """Stark's big army in Winterfell beside Greyjoy's White Harbor (a castle held by one
    footman, or left empty and held by a power token) and Moat Cailin; round 1 from Planning."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman", "footman")
    put(s, "the-stony-shore", "stark", "footman")
    put(s, "pyke", "greyjoy", "footman")
    put(s, "moat-cailin", "greyjoy", "footman")
    if castle_held_by_token:
        s.power_tokens["white-harbor"] = "greyjoy"
    else:
        put(s, "white-harbor", "greyjoy", "footman")
    return run(s, PlanningPhase(), ActionPhase())


def beside_a_small_holding(rules: Ruleset) -> State:
    """Stark beside Greyjoy's one footman in Karhold (no castle); round 1 from Planning."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "castle-black", "stark", "footman", "footman")
    put(s, "pyke", "greyjoy", "footman")
    put(s, "karhold", "greyjoy", "footman")
    return run(s, PlanningPhase(), ActionPhase())


def play_round(state: State, stark: Player, book: DealBook) -> State:
    """Play until nothing is pending (end of this Action phase), recording the public acts."""
    others = PassiveBot()
    while waiting := pending(state):
        house = min(waiting)
        seat = stark if house == "stark" else others
        if isinstance(seat, DealBot):
            seat.see(book.seen_by(house))
        before = state
        state, events = apply(state, house, decision(seat, state, house))
        book.record(acts(before, events))
    return state


def attacks_on_greyjoy(book: DealBook) -> list[str]:
    return [a.target for a in book.acts if a.house == "stark" and a.other == "greyjoy"]


@pytest.mark.parametrize("token", [False, True], ids=["castle-held", "castle-empty"])
def test_issue_15_4_without_a_pact_the_ai_marches_on_greyjoy(rules: Ruleset, token: bool) -> None:
    for seed in range(3):
        book = DealBook()
        play_round(next_to_greyjoy(rules, token), DealBot(seed), book)
        assert attacks_on_greyjoy(book), seed


@pytest.mark.parametrize("personality", HONOURABLE, ids=lambda p: p.id)
@pytest.mark.parametrize("token", [False, True], ids=["castle-held", "castle-empty"])
def test_issue_15_4_an_honourable_ai_never_marches_on_or_raids_the_house_it_made_a_pact_with(
    rules: Ruleset, personality: AIPersonality, token: bool
) -> None:
    for seed in range(3):
        book = pact_book()
        play_round(next_to_greyjoy(rules, token), DealBot(seed, personality), book)
        assert attacks_on_greyjoy(book) == [], seed
        assert book.verdicts(2)["d1"].status == "kept"


def raid_next_to_greyjoy(rules: Ruleset) -> State:
    """Stark's Raid in Winterfell may remove Greyjoy's Consolidate Power in White Harbor."""
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    order(s, "winterfell", "raid+0")
    order(s, "white-harbor", "consolidate_power+0")
    return run(s, RaidTurn("stark"))


@pytest.mark.parametrize("accepted", [False, True], ids=["declined", "accepted"])
def test_5_2_an_honourable_ai_raids_no_order_of_its_pact_partner(
    rules: Ruleset, accepted: bool
) -> None:
    bot = DealBot(0)
    bot.see(pact_book(accepted))
    target = "white-harbor" if not accepted else None
    assert decision(bot, raid_next_to_greyjoy(rules), "stark") == ResolveRaid("winterfell", target)


@pytest.mark.parametrize("personality", SCHEMERS, ids=lambda p: p.id)
def test_issue_15_4_a_schemer_breaks_its_pact_to_take_an_undefended_castle(
    rules: Ruleset, personality: AIPersonality
) -> None:
    for seed in range(3):
        book = pact_book()
        play_round(next_to_greyjoy(rules, True), DealBot(seed, personality), book)
        assert "white-harbor" in attacks_on_greyjoy(book) or "moat-cailin" in attacks_on_greyjoy(
            book
        )
        verdict = book.verdicts(2)["d1"]
        assert verdict.status == BROKEN and verdict.breaker == "stark"


def test_issue_15_4_the_opportunist_keeps_its_pact_when_breaking_gains_little(
    rules: Ruleset,
) -> None:
    for seed in range(3):
        without = DealBook()
        play_round(beside_a_small_holding(rules), DealBot(seed, plugin.OPPORTUNIST), without)
        assert attacks_on_greyjoy(without) == ["karhold"]
        book = pact_book()
        play_round(beside_a_small_holding(rules), DealBot(seed, plugin.OPPORTUNIST), book)
        assert attacks_on_greyjoy(book) == []


def greyjoy_under_threat(rules: Ruleset) -> State:
    """Greyjoy's weak holdings beside Stark's big army, at the start of round 1's Planning."""
    return next_to_greyjoy(rules, False)


def test_issue_15_4_a_threatened_ai_accepts_a_pact_from_its_strong_neighbour(
    rules: Ruleset,
) -> None:
    s = greyjoy_under_threat(rules)
    book = DealBook()
    proposal = book.propose("stark", "greyjoy", (PACT,), 1)
    greyjoy = DealBot(0, plugin.TURTLE)
    greyjoy.see(book.seen_by("greyjoy"))
    assert greyjoy.answer(proposal, player_view(s, "greyjoy"), rules).answer == ACCEPT


def test_issue_15_4_an_ai_remembers_who_broke_a_deal_with_it_and_declines_its_next_proposal(
    rules: Ruleset,
) -> None:
    book = pact_book()
    play_round(next_to_greyjoy(rules, True), DealBot(0, plugin.CONQUEROR), book)
    assert book.verdicts(2)["d1"].breaker == "stark"
    s = greyjoy_under_threat(rules)
    greyjoy = DealBot(0, plugin.TURTLE)
    greyjoy.see(book.seen_by("greyjoy"))
    again = book.propose("stark", "greyjoy", (PACT,), 1)
    view = player_view(s, "greyjoy")
    assert greyjoy.answer(again, view, rules).answer == DECLINE
    assert all(house != "stark" for house, _ in greyjoy.proposals(view, rules))
    assert greyjoy.mind is not None and greyjoy.mind.grudges == {"stark"}


def test_0_4_4_an_ais_answers_ignore_hidden_orders_and_other_houses_private_deals(
    rules: Ruleset,
) -> None:
    base = greyjoy_under_threat(rules)
    stark_areas = pending(base)["stark"].data["areas"]
    tokens = ("defense+1", "march+0", "raid+0")
    other = ("march+0", "support+0", "consolidate_power+0")
    s_one, _ = apply(base, "stark", PlaceOrders(tuple(zip(stark_areas, tokens, strict=False))))
    s_two, _ = apply(base, "stark", PlaceOrders(tuple(zip(stark_areas, other, strict=False))))
    assert s_one.hash() != s_two.hash()
    assert player_view(s_one, "greyjoy") == player_view(s_two, "greyjoy")
    quiet = DealBook()
    busy = DealBook()
    for book in (quiet, busy):
        book.propose("stark", "greyjoy", (PACT,), 1)
    secret = busy.propose("stark", "lannister", (NonAggression(("lannister", "stark"), 1),), 1)
    busy.reply(secret.id, "lannister", Reply(ACCEPT), 1)
    answers = []
    for state, book in ((s_one, quiet), (s_two, busy)):
        greyjoy = DealBot(3, plugin.POWER_BROKER)
        greyjoy.see(book.seen_by("greyjoy"))
        view = player_view(state, "greyjoy")
        proposal = book.proposals["p1"]
        answers.append((greyjoy.answer(proposal, view, rules), greyjoy.proposals(view, rules)))
    assert answers[0] == answers[1]


def test_issue_15_4_in_whole_ai_games_with_talks_only_schemers_break_their_word(
    rules: Ruleset,
) -> None:
    seats = [*plugin.PERSONALITIES, BALANCED, plugin.TURTLE]
    made = 0
    for seed in range(2):
        bots = [DealBot(seed * 10 + k, p) for k, p in enumerate(seats)]
        game = play(rules, bots, seed)
        assert game.illegal == 0
        assert game.winner is not None
        seated = zip(game.seats, bots, strict=True)
        schemers = {h for h, b in seated if b.character.scheming > 0}
        made += len(game.book.deals)
        for verdict in game.book.verdicts(game.rounds + 1).values():
            assert verdict.status != BROKEN or verdict.breaker in schemers
    assert made > 0


@pytest.mark.parametrize("receiver", ["stark", "greyjoy"])
def test_5_4_1_an_ai_gives_the_support_it_promised(rules: Ruleset, receiver: str) -> None:
    book = DealBook()
    promise = SupportPromise("lannister", receiver, "white-harbor", 1)
    p = book.propose("lannister", receiver, (promise,), 1)
    book.reply(p.id, receiver, Reply(ACCEPT), 1)
    side = "attacker" if receiver == "stark" else "defender"
    for personality in (*HONOURABLE, *SCHEMERS):
        bot = DealBot(0, personality)
        bot.see(book.seen_by("lannister"))
        assert decision(bot, support_board(rules), "lannister") == Choose(side)


def attack_with_a_helper_nearby(rules: Ruleset) -> State:
    """Stark in Winterfell can attack Greyjoy's two footmen in White Harbor; Lannister's
    footman in Widow's Watch could support; round 1 from Planning."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman", "footman")
    put(s, "widows-watch", "lannister", "footman")
    put(s, "pyke", "greyjoy", "footman")
    return run(s, PlanningPhase(), ActionPhase())


def test_5_4_1_an_ai_asks_a_third_house_to_support_its_attack_and_the_helper_plans_it(
    rules: Ruleset,
) -> None:
    s = attack_with_a_helper_nearby(rules)
    stark = DealBot(0)
    stark.see(DealBook())
    offers = stark.proposals(player_view(s, "stark"), rules)
    ask = SupportPromise("lannister", "stark", "white-harbor", 1)
    peace = NonAggression(("lannister", "stark"), 1)
    assert ("lannister", (ask, peace)) in offers  # the support is paid for with peace
    for promised in (False, True):
        book = DealBook()
        if promised:
            p = book.propose("stark", "lannister", (ask, peace), 1)
            book.reply(p.id, "lannister", Reply(ACCEPT), 1)
        lannister = DealBot(0, plugin.TURTLE)
        lannister.see(book.seen_by("lannister"))
        placed = decision(lannister, s, "lannister")
        assert isinstance(placed, PlaceOrders)
        token = dict(placed.orders)["widows-watch"]
        assert rules.order_tokens[token].type == ("support" if promised else "defense"), token


def test_3_6_an_ai_that_agreed_to_split_bids_bids_no_more_than_agreed(rules: Ruleset) -> None:
    s = blank(rules, keep_units=True)
    s.power = dict.fromkeys(s.houses, 8)
    run(s, ClashOfKings())
    assert pending(s)["stark"].data["track"] == "iron_throne"
    free = decision(DealBot(0), s, "stark")
    assert isinstance(free, Bid) and free.amount > 1
    book = DealBook()
    p = book.propose(
        "stark", "lannister", (SplitBids(("lannister", "stark"), "iron_throne", 1, 1),), 1
    )
    book.reply(p.id, "lannister", Reply(ACCEPT), 1)
    bot = DealBot(0)
    bot.see(book.seen_by("stark"))
    assert decision(bot, s, "stark") == Bid(1)


def test_issue_15_4_talks_ask_every_negotiator_once_and_others_decline(rules: Ruleset) -> None:
    s = attack_with_a_helper_nearby(rules)
    assert all(p.kind == "place_orders" for p in pending(s).values())
    for negotiators in (("stark", "greyjoy"), ("greyjoy",), ("stark",)):
        seats: dict[str, Player] = {
            h: DealBot(k, plugin.TURTLE) if h in negotiators else PassiveBot()
            for k, h in enumerate(s.houses)
        }
        book = DealBook()
        made = talks(book, seats, s)
        assert book.proposals and set(book.replies) == set(book.proposals)
        assert made == list(book.deals.values())
        for proposal in book.proposals.values():
            assert proposal.proposer in negotiators
            if proposal.recipient not in negotiators:
                assert book.replies[proposal.id].answer == DECLINE


def test_issue_15_4_without_deals_the_deal_aware_ai_plays_exactly_as_the_baseline_ai(
    rules: Ruleset,
) -> None:
    styles = [*plugin.PERSONALITIES, BALANCED, plugin.TURTLE]
    dealing = play_game(rules, [DealBot(k, p) for k, p in enumerate(styles)], 7)
    baseline = play_game(rules, [BaselineBot(k, p.style()) for k, p in enumerate(styles)], 7)
    assert dealing.illegal == baseline.illegal == 0
    assert dealing.prompts == baseline.prompts
    assert (dealing.ranking, dealing.castles) == (baseline.ranking, baseline.castles)
