"""The deal model of issue 15 point 4 ("Deals at the table"): typed terms, proposals and
replies that round-trip through JSON, a deal book that keeps each house's side private, and
kept/broken verdicts read off the public record of real engine decisions (marches 5.3, raids
5.2, support 5.4.1, Clash of Kings bids 3.6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.deals import (
    ACCEPT,
    BROKEN,
    COUNTER,
    DECLINE,
    KEPT,
    PENDING,
    Act,
    Deal,
    DealBook,
    NonAggression,
    Proposal,
    Reply,
    SplitBids,
    StayOut,
    SupportPromise,
    check_kept,
)
from westeros.deals import terms as t
from westeros.deals.record import acts
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.raid import RaidTurn, ResolveRaid
from westeros.engine.state import State

TERMS = [
    NonAggression(("greyjoy", "stark"), 2),
    SupportPromise("lannister", "stark", "white-harbor", 3),
    StayOut("greyjoy", "winterfell", 4),
    SplitBids(("lannister", "tyrell"), "kings_court", 5, 1),
]


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("term", TERMS, ids=lambda x: x.kind)
def test_issue_15_4_every_term_round_trips_through_json(term: t.Term) -> None:
    assert t.from_json(through_json(t.to_json(term))) == term


@pytest.mark.parametrize(
    "reply",
    [Reply(ACCEPT), Reply(DECLINE), Reply(COUNTER, (StayOut("stark", "moat-cailin", 2),))],
    ids=lambda r: r.answer,
)
def test_issue_15_4_every_reply_round_trips_through_json(reply: Reply) -> None:
    assert Reply.from_json(through_json(reply.to_json())) == reply


def test_issue_15_4_proposals_deals_and_the_whole_book_round_trip_through_json() -> None:
    book = DealBook()
    first = book.propose("stark", "greyjoy", TERMS[:1], 2)
    counter = book.reply(first.id, "greyjoy", Reply(COUNTER, (TERMS[2],)), 2)
    assert isinstance(counter, Proposal) and counter.counters == first.id
    deal = book.reply(counter.id, "stark", Reply(ACCEPT), 2)
    assert isinstance(deal, Deal)
    book.record([Act("march", "stark", 2, "pyke", "greyjoy")])
    assert Proposal.from_json(through_json(first.to_json())) == first
    assert Deal.from_json(through_json(deal.to_json())) == deal
    again = DealBook.from_json(through_json(book.to_json()))
    assert again.to_json() == book.to_json()
    assert again.verdicts(3) == book.verdicts(3)


def test_issue_15_4_unknown_terms_and_malformed_replies_are_refused() -> None:
    with pytest.raises(ValueError):
        t.from_json({"kind": "marriage"})
    with pytest.raises(ValueError):
        Reply("maybe")
    with pytest.raises(ValueError):
        Reply(COUNTER)
    with pytest.raises(ValueError):
        Reply(ACCEPT, TERMS[:1])


def test_issue_15_4_a_proposal_binds_only_its_two_houses_and_is_answered_once_in_time() -> None:
    book = DealBook()
    with pytest.raises(ValueError):
        book.propose("stark", "greyjoy", [TERMS[1]], 3)  # binds Lannister
    with pytest.raises(ValueError):
        book.propose("stark", "stark", TERMS[:1], 2)
    p = book.propose("stark", "greyjoy", TERMS[:1], 2)
    with pytest.raises(ValueError):
        book.reply(p.id, "lannister", Reply(ACCEPT), 2)
    with pytest.raises(ValueError):
        book.reply(p.id, "greyjoy", Reply(ACCEPT), 3)  # lapsed after round 2
    assert book.open_for("greyjoy", 2) == [p]
    assert book.reply(p.id, "greyjoy", Reply(DECLINE), 2) is None
    assert book.open_for("greyjoy", 2) == []
    with pytest.raises(ValueError):
        book.reply(p.id, "greyjoy", Reply(ACCEPT), 2)


def test_issue_15_4_a_house_sees_only_its_own_proposals_and_deals_but_every_act() -> None:
    book = DealBook()
    mine = book.propose("stark", "greyjoy", TERMS[:1], 2)
    book.reply(mine.id, "greyjoy", Reply(ACCEPT), 2)
    theirs = book.propose("lannister", "tyrell", [TERMS[3]], 5)
    book.reply(theirs.id, "tyrell", Reply(ACCEPT), 5)
    book.record([Act("raid", "tyrell", 5, "highgarden", "lannister")])
    seen = book.seen_by("stark")
    assert list(seen.proposals) == [mine.id]
    assert [sorted(d.houses) for d in seen.deals.values()] == [["greyjoy", "stark"]]
    assert seen.acts == book.acts
    assert theirs.id in book.seen_by("tyrell").proposals


def accepted(*terms: t.Term) -> tuple[DealBook, Deal]:
    book = DealBook()
    houses = sorted({h for term in terms for h in term.parties()})
    p = book.propose(houses[0], houses[1], terms, 1)
    deal = book.reply(p.id, houses[1], Reply(ACCEPT), 1)
    assert isinstance(deal, Deal)
    return book, deal


def decide(state: State, book: DealBook, house: str, action: object) -> State:
    """Apply one decision and add what every house saw to the book's record."""
    from westeros.engine.flow import apply

    new, events = apply(state, house, action)
    book.record(acts(state, events))
    return new


def marching_board(rules: Ruleset) -> State:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    put(s, "moat-cailin", "greyjoy", "footman")
    order(s, "winterfell", "march+0")
    return run(s, MarchTurn("stark"))


def test_5_3_a_march_into_the_partners_area_breaks_non_aggression(rules: Ruleset) -> None:
    book, deal = accepted(NonAggression(("greyjoy", "stark"), 1))
    s = marching_board(rules)
    assert check_kept(deal, book.acts, 1).status == PENDING
    decide(s, book, "stark", ResolveMarch("winterfell", (("white-harbor", ("knight", "footman")),)))
    verdict = check_kept(deal, book.acts, 1)
    assert verdict.status == BROKEN and verdict.breaker == "stark"
    assert verdict.act is not None and verdict.act.target == "white-harbor"


def test_5_3_a_march_elsewhere_keeps_non_aggression_once_the_round_is_over(
    rules: Ruleset,
) -> None:
    book, deal = accepted(NonAggression(("greyjoy", "stark"), 1))
    s = marching_board(rules)
    decide(s, book, "stark", ResolveMarch("winterfell", (("karhold", ("knight", "footman")),)))
    assert check_kept(deal, book.acts, 1).status == PENDING
    assert check_kept(deal, book.acts, 2).status == KEPT


def test_5_3_marching_into_an_area_one_promised_to_stay_out_of_breaks_the_promise(
    rules: Ruleset,
) -> None:
    book, deal = accepted(StayOut("stark", "karhold", 1), NonAggression(("greyjoy", "stark"), 1))
    s = marching_board(rules)
    decide(s, book, "stark", ResolveMarch("winterfell", (("karhold", ("knight", "footman")),)))
    assert check_kept(deal, book.acts, 2).breaker == "stark"


def test_5_2_a_raid_on_the_partners_order_breaks_non_aggression(rules: Ruleset) -> None:
    book, deal = accepted(NonAggression(("greyjoy", "stark"), 1))
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    order(s, "winterfell", "raid+0")
    order(s, "white-harbor", "support+0")
    run(s, RaidTurn("stark"))
    decide(s, book, "stark", ResolveRaid("winterfell", "white-harbor"))
    verdict = check_kept(deal, book.acts, 2)
    assert verdict.status == BROKEN and verdict.breaker == "stark"


def support_board(rules: Ruleset) -> State:
    """Stark attacks Greyjoy in White Harbor; Lannister has a Support order next door."""
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    put(s, "widows-watch", "lannister", "footman")
    order(s, "winterfell", "march+0")
    order(s, "widows-watch", "support+0")
    run(s, MarchTurn("stark"))
    s = act(s, "stark", ResolveMarch("winterfell", (("white-harbor", ("knight", "footman")),)))
    assert prompt(s, "lannister").kind == "declare_support"
    return s


@pytest.mark.parametrize(("side", "status"), [("attacker", KEPT), ("defender", BROKEN)])
def test_5_4_1_support_given_as_promised_keeps_the_promise_and_other_support_breaks_it(
    rules: Ruleset, side: str, status: str
) -> None:
    book, deal = accepted(SupportPromise("lannister", "stark", "white-harbor", 1))
    s = support_board(rules)
    decide(s, book, "lannister", Choose(side))
    verdict = check_kept(deal, book.acts, 1)
    assert verdict.status == status
    assert verdict.breaker == (None if status == KEPT else "lannister")


def test_3_6_a_bid_above_the_agreed_cap_breaks_split_bids() -> None:
    book, deal = accepted(SplitBids(("lannister", "tyrell"), "kings_court", 1, 1))
    book.record([Act("bid", "lannister", 1, track="kings_court", amount=1)])
    book.record([Act("bid", "tyrell", 1, track="iron_throne", amount=5)])
    assert check_kept(deal, book.acts, 2).status == KEPT
    book.record([Act("bid", "tyrell", 1, track="kings_court", amount=2)])
    assert check_kept(deal, book.acts, 2).breaker == "tyrell"


def test_5_4_1_support_in_a_combat_the_receiver_does_not_fight_breaks_no_promise(
    rules: Ruleset,
) -> None:
    book, deal = accepted(SupportPromise("lannister", "tyrell", "white-harbor", 1))
    s = support_board(rules)
    decide(s, book, "lannister", Choose("defender"))
    assert check_kept(deal, book.acts, 2).status == KEPT
