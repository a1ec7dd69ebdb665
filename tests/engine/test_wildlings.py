"""The wildling attack procedure (RULES.md 7.2) and its edge cases (§12.23, §12.44).

3-player boards: turn order Baratheon, Lannister, Stark; every house starts with 5 PT."""

from __future__ import annotations

import json
import random

import pytest

from tests.builders import act, blank, prompt, put, run
from westeros.conformance import violations
from westeros.engine.actions import Action, Bid, Choose, SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice, NotEnoughPower
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.state import State
from westeros.engine.view import player_view
from westeros.engine.wildlings import WildlingAttack

B, L, S = "baratheon", "lannister", "stark"


def top(state: State, *cards: str) -> None:
    """Put ``cards`` on top of the wildling deck, in this order."""
    rest = tuple(c for c in state.wildling_deck if c not in cards)
    state.wildling_deck = (*cards, *rest)


def attack(
    state: State, bids: dict[str, int], *, card: str | None = None, strength: int | None = None
) -> State:
    """Start an attack (top card ``card``) and commit ``bids`` of the houses that are asked."""
    if card is not None:
        top(state, card)
    run(state, WildlingAttack(strength))
    for house, amount in bids.items():
        if prompt(state, house) is not None:
            state = act(state, house, Bid(amount))
    return state


def test_7_2_1_every_house_is_asked_to_bid_up_to_its_available_power(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power[L] = 3
    s.threat = 6
    run(s, WildlingAttack())
    for house, most in ((B, 5), (L, 3), (S, 5)):
        p = prompt(s, house)
        assert p.kind == "wildling_bid"
        assert p.data["min"] == 0 and p.data["max"] == most and p.data["strength"] == 6


def test_7_2_1_bids_go_to_the_pool_whoever_wins(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 12
    s = attack(s, {B: 3, L: 1, S: 2}, card="silence-at-the-wall")
    assert s.power == {B: 2, L: 4, S: 3}
    s = blank(rules, 3)
    s.threat = 2
    s = attack(s, {B: 3, L: 1, S: 2}, card="silence-at-the-wall")
    assert s.power == {B: 2, L: 4, S: 3}


def test_7_2_1_bid_above_available_power_is_illegal_and_changes_nothing(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power[L] = 2
    run(s, WildlingAttack())
    before = s.hash()
    with pytest.raises(NotEnoughPower):
        apply(s, L, Bid(3))
    assert s.hash() == before
    assert prompt(s, L) is not None


def test_7_2_1_negative_bid_is_illegal_and_changes_nothing(rules: Ruleset) -> None:
    s = blank(rules, 3)
    run(s, WildlingAttack())
    before = s.hash()
    with pytest.raises(IllegalChoice):
        apply(s, B, Bid(-1))
    assert s.hash() == before


def test_7_2_1_a_house_without_power_bids_zero_without_being_asked(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power[S] = 0
    run(s, WildlingAttack())
    assert prompt(s, S) is None
    assert prompt(s, B) is not None and prompt(s, L) is not None


def test_0_4_4_hidden_bids_never_appear_to_other_houses_before_the_reveal(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power[B] = 17
    run(s, WildlingAttack())
    high, high_events = apply(s, B, Bid(13))
    low, low_events = apply(s, B, Bid(0))
    for viewer in (L, S, None):
        assert player_view(high, viewer) == player_view(low, viewer)
    assert [(e.kind, e.data, e.to) for e in high_events] == [
        (e.kind, e.data, e.to) for e in low_events
    ]
    assert high.power[B] == 17


def test_7_2_1_bids_are_revealed_together_as_a_public_event(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 12
    top(s, "silence-at-the-wall")
    run(s, WildlingAttack())
    s = act(s, B, Bid(2))
    s = act(s, L, Bid(0))
    s, events = apply(s, S, Bid(4))
    reveal = next(e for e in events if e.kind == "wildling_bids")
    assert reveal.to is None
    assert reveal.data["bids"] == {B: 2, L: 0, S: 4}
    assert reveal.data["total"] == 6


def test_7_2_2_bids_equal_to_the_threat_win_for_the_nights_watch(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 6
    s = attack(s, {B: 1, L: 2, S: 3}, card="skinchanger-scout")
    # Skinchanger Scout, Night's Watch: the highest bidder (Stark) gets its 3 PT back; a
    # wildling victory would have stripped the lowest bidder of all its power instead.
    assert s.threat == 0
    assert s.power == {B: 4, L: 3, S: 5}


def test_7_2_6_wildling_victory_lowers_the_threat_by_four(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 10
    s = attack(s, {B: 3, L: 1, S: 5}, card="silence-at-the-wall")
    assert s.threat == 6


def test_7_2_6_wildling_victory_never_lowers_the_threat_below_zero(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 2
    s = attack(s, {B: 0, L: 1, S: 0}, card="silence-at-the-wall")
    s = act(s, B, Choose(S))
    assert s.threat == 0


def test_7_2_6_nights_watch_victory_sets_the_threat_to_zero(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 8
    s = attack(s, {B: 3, L: 2, S: 3}, card="silence-at-the-wall")
    s = act(s, B, Choose(B))
    assert s.threat == 0


def test_7_2_3_tied_highest_bidders_iron_throne_holder_chooses_before_the_card(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    s.threat = 4
    deck = ("skinchanger-scout", "silence-at-the-wall")
    top(s, *deck)
    s = attack(s, {B: 0, L: 3, S: 3})
    p = prompt(s, B)
    assert p.kind == "choose_option"
    assert sorted(p.data["options"]) == [L, S]
    assert s.wildling_deck[:2] == deck  # the card is still face down (7.2.4)
    assert prompt(s, L) is None and prompt(s, S) is None
    s = act(s, B, Choose(S))
    assert s.wildling_deck[0] == "silence-at-the-wall"
    assert s.wildling_deck[-1] == "skinchanger-scout"
    # Skinchanger Scout: the chosen highest bidder gets its 3 PT back, the other does not.
    assert s.power == {B: 5, L: 2, S: 5}


def test_7_2_3_tied_lowest_bidders_iron_throne_holder_chooses(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 12
    s = attack(s, {B: 2, L: 1, S: 1}, card="skinchanger-scout")
    p = prompt(s, B)
    assert sorted(p.data["options"]) == [L, S]
    with pytest.raises(IllegalChoice):
        apply(s, B, Choose(B))
    s = act(s, B, Choose(L))
    # Lowest bidder discards all its power; everyone else discards 2.
    assert s.power == {B: 1, L: 0, S: 2}


def test_7_2_4_revealed_card_goes_to_the_bottom_and_raven_knowledge_expires(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    top(s, "silence-at-the-wall", "crow-killers")
    s.wildling_seen = frozenset({L})
    assert player_view(s, L)["wildling_top"] == "silence-at-the-wall"
    s = attack(s, {B: 1, L: 2, S: 3})
    assert s.wildling_deck[0] == "crow-killers"
    assert s.wildling_deck[-1] == "silence-at-the-wall"
    assert len(s.wildling_deck) == 9
    assert "wildling_top" not in player_view(s, L)


def test_7_2_5_everyone_else_resolves_in_turn_order_without_the_lowest_bidder(
    rules: Ruleset,
) -> None:
    s = blank(rules, 4)
    for house, area in (
        (B, "dragonstone"),
        (L, "lannisport"),
        (S, "winterfell"),
        ("greyjoy", "pyke"),
    ):
        put(s, area, house, "footman", "footman", "knight")
    put(s, "searoad-marches", L, "footman")
    s.threat = 12
    s = attack(s, {B: 1, L: 0, S: 1, "greyjoy": 1}, card="mammoth-riders")
    assert prompt(s, L).kind == "destroy_units" and prompt(s, L).data["count"] == 3
    s = act(s, L, SelectUnits((("lannisport", "footman"),) * 2 + (("lannisport", "knight"),)))
    asked = []
    while True:
        waiting = [h for h in (B, L, S, "greyjoy") if prompt(s, h) is not None]
        if not waiting:
            break
        assert len(waiting) == 1
        house = waiting[0]
        asked.append(house)
        assert prompt(s, house).data["count"] == 2
        s = act(s, house, random_action(s, house, random.Random(0)))
    assert asked == [B, S, "greyjoy"]


def test_12_23_threat_zero_and_all_bids_zero_nights_watch_wins(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.threat = 0
    s.power = {B: 0, L: 0, S: 0}
    top(s, "skinchanger-scout")
    run(s, WildlingAttack())
    p = prompt(s, B)
    assert p.kind == "choose_option"
    assert sorted(p.data["options"]) == [B, L, S]
    s = act(s, B, Choose(S))
    assert s.threat == 0
    assert s.power == {B: 0, L: 0, S: 0}
    assert s.wildling_deck[-1] == "skinchanger-scout"


def test_12_44_wildling_penalty_returns_a_captured_home_area_and_its_owner_wins(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    for area in (
        "moat-cailin",
        "white-harbor",
        "flints-finger",
        "the-eyrie",
        "riverrun",
        "seagard",
    ):
        s.power_tokens[area] = S
    put(s, "winterfell", L, "footman")
    put(s, "lannisport", L, "footman")
    put(s, "the-reach", B, "footman")
    s.threat = 12
    s = attack(s, {B: 1, L: 0, S: 2}, card="the-horde-descends")
    # Lannister (lowest) has no castle area holding 2 of its units: it destroys 2 anywhere,
    # which are both of its units; Winterfell reverts to Stark: its 7th castle area.
    assert "winterfell" not in s.units
    assert s.winner == S
    assert s.stack == ()


def test_7_2_random_play_through_every_card_stays_legal(rules: Ruleset) -> None:
    for card in rules.wildling_cards:
        for seed in range(8):
            s = blank(rules, 6, seed=seed, keep_units=True)
            s.threat = 2 * (seed % 7)
            top(s, card)
            run(s, WildlingAttack())
            rnd = random.Random(seed)
            while pending(s):
                house = rnd.choice(sorted(pending(s)))
                json.dumps(pending(s)[house].data)
                action = random_action(s, house, rnd)
                assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
                s = act(s, house, action)
                assert [v for v in violations(s) if not v.startswith("no decision")] == []
            assert s.stack == () or s.winner is not None
            assert card in s.wildling_deck[-2:]  # Preemptive Raid may draw a second card
