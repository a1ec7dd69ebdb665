"""The deal log and the promises a march would break (issue 36 point 5; ``deals.table``):
each offer, its answer, and — once known — whether EACH house kept its side of each deal
(``party_verdicts``), for the deal's two houses only; and the areas a house's deals of this
round forbid it to march into (5.3), read on who controls each area now (1.3)."""

from __future__ import annotations

from tests.builders import blank, put
from westeros.deals import (
    ACCEPT,
    BROKEN,
    COUNTER,
    KEPT,
    PENDING,
    Act,
    DealBook,
    NonAggression,
    Reply,
    StayOut,
    SupportPromise,
    party_verdicts,
)
from westeros.deals.book import MARCH, SUPPORT
from westeros.deals.table import log, promises, raid_promises
from westeros.engine.content import Ruleset
from westeros.engine.state import Order

PACT = NonAggression(("greyjoy", "stark"), 1)


def accepted(*terms: object) -> DealBook:
    book = DealBook()
    p = book.propose("stark", "greyjoy", terms, 1)  # type: ignore[arg-type]
    book.reply(p.id, "greyjoy", Reply(ACCEPT), 1)
    return book


def statuses(book: DealBook, now: int) -> dict[str, str]:
    return {h: v.status for h, v in party_verdicts(book.deals["d1"], book.acts, now).items()}


def test_issue_36_5_each_house_of_a_deal_is_judged_on_its_own_deeds() -> None:
    book = accepted(PACT)
    assert statuses(book, 1) == {"greyjoy": PENDING, "stark": PENDING}
    book.record([Act(MARCH, "greyjoy", 1, "karhold", None)])  # into nobody's area: allowed
    assert statuses(book, 2) == {"greyjoy": KEPT, "stark": KEPT}
    book.record([Act(MARCH, "stark", 1, "moat-cailin", "greyjoy")])
    assert statuses(book, 1) == {"greyjoy": PENDING, "stark": BROKEN}
    assert statuses(book, 2) == {"greyjoy": KEPT, "stark": BROKEN}


def test_issue_36_5_a_support_receiver_keeps_its_side_once_the_round_is_over() -> None:
    book = accepted(SupportPromise("stark", "greyjoy", "white-harbor", 1))
    assert statuses(book, 1) == {"greyjoy": PENDING, "stark": PENDING}
    book.record([Act(SUPPORT, "stark", 1, "white-harbor", "greyjoy", fighting=("greyjoy", "x"))])
    assert statuses(book, 1) == {"greyjoy": PENDING, "stark": KEPT}
    assert statuses(book, 2) == {"greyjoy": KEPT, "stark": KEPT}


def test_issue_36_5_the_log_shows_each_offer_its_answer_and_each_side_kept_or_broken() -> None:
    book = DealBook()
    first = book.propose("greyjoy", "stark", (PACT,), 1)
    swap = (StayOut("greyjoy", "white-harbor", 1), StayOut("stark", "moat-cailin", 1))
    counter = book.reply(first.id, "stark", Reply(COUNTER, swap), 1)
    assert counter is not None
    book.reply(counter.id, "greyjoy", Reply(ACCEPT), 1)
    book.record([Act(MARCH, "greyjoy", 1, "white-harbor", "stark")])
    during = [(e["kind"], e.get("answer"), e.get("house")) for e in log(book, 1)]
    assert during == [
        ("deal_proposed", None, None),
        ("deal_answered", COUNTER, None),
        ("deal_proposed", None, None),
        ("deal_answered", ACCEPT, None),
        ("deal_broken", None, "greyjoy"),
    ]
    after = log(book, 2)
    assert [(e["kind"], e.get("house")) for e in after[-2:]] == [
        ("deal_broken", "greyjoy"),
        ("deal_kept", "stark"),
    ]
    assert after[2]["proposer"] == "stark" and after[2]["recipient"] == "greyjoy"
    assert after[2]["terms"] == [
        {"kind": "stay_out", "house": "greyjoy", "area": "white-harbor", "round": 1},
        {"kind": "stay_out", "house": "stark", "area": "moat-cailin", "round": 1},
    ]
    assert len({e["key"] for e in after}) == len(after)


def test_issue_36_5_a_house_reads_no_deal_log_of_others() -> None:
    book = accepted(PACT)
    book.record([Act(MARCH, "stark", 1, "moat-cailin", "greyjoy")])
    assert log(book.seen_by("lannister"), 2) == []
    assert [e["kind"] for e in log(book.seen_by("greyjoy"), 2)][-2:] == ["deal_kept", "deal_broken"]


def test_5_3_a_pact_forbids_marching_into_the_partners_areas_and_a_stay_out_its_area(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "moat-cailin", "greyjoy", "footman")
    put(s, "pyke", "greyjoy", "footman")
    s.power_tokens["white-harbor"] = "greyjoy"
    s.round = 1
    book = accepted(PACT, StayOut("stark", "karhold", 1))
    assert promises(book, "stark", s) == {
        "moat-cailin": ["d1"],
        "pyke": ["d1"],
        "port-of-pyke": ["d1"],  # a port is its castle's (ports plugin)
        "white-harbor": ["d1"],
        "port-of-white-harbor": ["d1"],
        "karhold": ["d1"],
    }
    assert promises(book, "greyjoy", s) == {"winterfell": ["d1"], "port-of-winterfell": ["d1"]}
    s.round = 2  # the deal held for round 1 only
    assert promises(book, "stark", s) == {}


def test_5_2_a_pact_forbids_raiding_the_partners_orders_and_a_stay_out_does_not(
    rules: Ruleset,
) -> None:
    """A raid on an order of the pact's partner breaks the pact (as ``check_kept`` judges it);
    raiding a third house, or an area a Stay-Out names, breaks nothing."""
    s = blank(rules)
    s.round = 1
    s.orders["moat-cailin"] = Order("greyjoy", "raid+0")
    s.orders["winterfell"] = Order("stark", "defense+1")
    s.orders["the-twins"] = Order("lannister", "support+0")
    s.orders["karhold"] = Order("baratheon", "march+0")
    book = accepted(PACT, StayOut("stark", "karhold", 1))
    assert raid_promises(book, "stark", s) == {"moat-cailin": ["d1"]}
    assert raid_promises(book, "greyjoy", s) == {"winterfell": ["d1"]}
    assert raid_promises(book, "lannister", s) == {}
    s.round = 2
    assert raid_promises(book, "stark", s) == {}
