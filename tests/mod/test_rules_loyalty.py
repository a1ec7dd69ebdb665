"""Loyalty-token rules of RULES.md 11.6 that the other loyalty tests leave out: the 20-token
limit counts only tokens on the board (11.6.1), tokens stack (11.6.1), collection after a
combat and around deck IV's token moves (11.6.3), and Targaryen bids in wildling attacks and
suffers their penalties (11.6.7). Expected values are read from the rule text."""

from __future__ import annotations

from tests.builders import act, prompt, put, run
from tests.engine.test_combat import fight, hand
from tests.engine.test_house_cards import block
from westeros.engine import board
from westeros.engine.actions import Bid, Choose
from westeros.engine.content import Ruleset
from westeros.engine.state import State
from westeros.engine.wildlings import WildlingAttack

from .test_deck_iv_cards import tokens
from .test_rules_deck_iv import reveal
from .test_targaryen_cards import blank8

T = "targaryen"
FOURTEEN = {"riverrun": 4, "harrenhal": 4, "the-twins": 3, "winterfell": 3}
TWENTY = {**FOURTEEN, "sunspear": 6}


def nobody_can_pay(rules: Ruleset) -> State:
    """An 8-player board in round 3 where no house has PT for a deck IV option."""
    s = blank8(rules, 3)
    s.power = dict.fromkeys(s.houses, 0)
    return s


def word_spreads_with_targaryen_in(rules: Ruleset, area: str) -> State:
    """Word Spreads Quickly is resolved while a Targaryen footman holds ``area``."""
    s = nobody_can_pay(rules)
    put(s, area, T, "footman")
    return reveal(s, "word-spreads-quickly")


def test_11_6_1_collected_tokens_leave_room_on_the_board(mod_rules: Ruleset) -> None:
    """14 on the board and 6 collected: not all 20 are on the board, so Seagard gets one."""
    s = reveal(nobody_can_pay(mod_rules), "strongholds-of-resistance", FOURTEEN, 6)
    assert tokens(s) == {**FOURTEEN, "seagard": 1}


def test_11_6_1_no_placement_while_all_20_are_on_the_board(mod_rules: Ruleset) -> None:
    s = reveal(nobody_can_pay(mod_rules), "strongholds-of-resistance", TWENTY)
    assert tokens(s) == TWENTY
    assert [e.data["area"] for e in s.events if e.kind == "loyalty_exhausted"] == ["seagard"]


def test_11_6_1_any_number_of_tokens_stack_in_one_area(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power[T] = 1
    s = reveal(s, "southron-ambitions", {"the-boneway": 2})
    s = act(s, T, Choose("the-boneway"))
    assert tokens(s) == {"searoad-marches": 1, "dornish-marches": 1, "the-boneway": 3}


def test_11_6_3_a_token_moved_into_a_targaryen_area_is_collected(mod_rules: Ruleset) -> None:
    """Word Spreads Quickly: a house moves the Crackclaw Point token into Harrenhal, which a
    Targaryen footman holds; Targaryen has no PT to cancel, and collects it by the card's end."""
    s = word_spreads_with_targaryen_in(mod_rules, "harrenhal")
    first = s.tracks["iron_throne"][0]
    assert "crackclaw-point>harrenhal" in prompt(s, first).data["options"]
    s = act(s, first, Choose("crackclaw-point>harrenhal"))
    while waiting := [h for h in s.houses if prompt(s, h) is not None]:
        s = act(s, waiting[0], Choose(prompt(s, waiting[0]).data["options"][0]))
    assert s.ext["loyalty_collected"] >= 1
    assert "harrenhal" not in tokens(s)


def test_11_6_7_targaryen_bids_against_the_wildlings_and_suffers_as_lowest_bidder(
    mod_rules: Ruleset,
) -> None:
    """Every other house bids 1, Targaryen 0 against strength 10: the wildlings win and
    Targaryen, alone lowest, suffers Crow Killers (its knights become footmen)."""
    s = blank8(mod_rules, 3)
    put(s, "pentos", T, "knight", "knight")
    s.power = dict.fromkeys(s.houses, 2)
    s.wildling_deck = ("crow-killers", *(c for c in s.wildling_deck if c != "crow-killers"))
    run(s, WildlingAttack(10))
    assert prompt(s, T).kind == "wildling_bid"
    for house in s.houses:
        s = act(s, house, Bid(0 if house == T else 1))
    assert sorted(u.type for u in s.units["pentos"]) == ["footman", "footman"]
    assert s.power[T] == 2
    assert all(s.power[h] == 1 for h in s.houses if h != T)


def test_11_6_3_a_printed_token_on_a_targaryen_area_is_collected_before_any_move(
    mod_rules: Ruleset,
) -> None:
    """Word Spreads Quickly prints a token on Crackclaw Point, which Targaryen holds: it is
    collected before the first house moves a token, so no house can move it away."""
    s = word_spreads_with_targaryen_in(mod_rules, "crackclaw-point")
    assert s.ext["loyalty_collected"] == 1
    first = s.tracks["iron_throne"][0]
    assert not [m for m in prompt(s, first).data["options"] if m.startswith("crackclaw-point>")]


def test_11_6_3_collected_after_a_march_that_wins_a_combat(mod_rules: Ruleset) -> None:
    """Targaryen takes Blackwater (2 tokens) from a Stark footman: the tokens are collected
    once the combat is over."""
    s = blank8(mod_rules, 3)
    s.ext["loyalty_tokens"] = (("blackwater", 2),)
    s.ext["loyalty_collected"] = 0
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", T, "knight", "knight")
    block(s, T, "stark")
    hand(s, T, "arstan-whitebeard")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, T, "stoney-sept", "blackwater")
    assert board.controller(s, "blackwater") == T
    assert s.ext["loyalty_collected"] == 2
    assert tokens(s) == {}
