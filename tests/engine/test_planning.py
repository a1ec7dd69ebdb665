"""Planning phase (RULES.md 4): secret placement, its limits, the reveal and the Messenger Raven."""

from __future__ import annotations

import random

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine.actions import Action, Choose
from westeros.engine.content import OrderToken, Ruleset
from westeros.engine.errors import (
    AreaLeftEmpty,
    ForbiddenOrder,
    IllegalAction,
    IllegalChoice,
    IllegalOrder,
    StarLimitExceeded,
    TokenReused,
)
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.planning import MessengerRaven, PlaceOrders, PlanningPhase, ReplaceOrder
from westeros.engine.state import Order, State
from westeros.engine.view import player_view, visible

# 1.4.1: the five starred tokens and ten plain ones of every house.
STARRED = ("march+1*", "defense+2*", "support+1*", "raid+0*", "consolidate_power+0*")
PLAIN = ("march-1", "march+0", "defense+1", "defense+1.2", "support+0")
STARK_AREAS = ("castle-black", "karhold", "the-stony-shore", "white-harbor", "winterfell")


def refused(state: State, house: str, action: Action, error: type[IllegalAction]) -> IllegalAction:
    """Apply an illegal ``action``: it raises ``error`` and the state is unchanged."""
    before = state.hash()
    with pytest.raises(error) as info:
        act(state, house, action)
    assert state.hash() == before
    return info.value


def stark_board(rules: Ruleset, players: int = 6) -> State:
    """Only Stark has units: one footman in each of five northern land areas."""
    s = blank(rules, players)
    for area in STARK_AREAS:
        put(s, area, "stark", "footman")
    return s


def at_kings_court(state: State, house: str, position: int) -> None:
    """Put ``house`` at 0-based ``position`` of the King's Court track."""
    others = [h for h in state.tracks["kings_court"] if h != house]
    others.insert(position, house)
    state.tracks["kings_court"] = tuple(others)


def placement(stars: int) -> PlaceOrders:
    """Orders in all five Stark areas, the first ``stars`` of them starred."""
    tokens = STARRED[:stars] + PLAIN[: len(STARK_AREAS) - stars]
    return PlaceOrders(tuple(zip(STARK_AREAS, tokens, strict=True)))


# ---------------------------------------------------------------- 4.1 placement


def test_4_1_every_house_with_units_is_asked_for_its_areas(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "port-of-lannisport", "lannister", "ship")
    s.power_tokens["stoney-sept"] = "lannister"
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    assert sorted(pending(s)) == ["lannister", "stark"]
    # Land, sea and port areas with units; an area held only by a PT gets no order.
    assert prompt(s, "lannister").data["areas"] == [
        "lannisport",
        "port-of-lannisport",
        "the-golden-sound",
    ]
    assert prompt(s, "stark").kind == "place_orders"


def test_4_1_orders_in_land_sea_and_port_are_revealed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "port-of-lannisport", "lannister", "ship")
    run(s, PlanningPhase())
    orders = (
        ("lannisport", "defense+1"),
        ("the-golden-sound", "raid+0"),
        ("port-of-lannisport", "consolidate_power+0"),
    )
    s = act(s, "lannister", PlaceOrders(orders))
    assert s.orders == {a: Order("lannister", t) for a, t in orders}
    assert s.placed["lannister"] == frozenset({"defense+1", "raid+0", "consolidate_power+0"})


def test_4_1_order_in_an_area_without_own_units_is_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    action = PlaceOrders((("lannisport", "march+0"), ("winterfell", "raid+0")))
    assert refused(s, "lannister", action, IllegalOrder).rule == "4.1"


def test_4_1_two_orders_in_one_area_are_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman", "knight")
    run(s, PlanningPhase())
    action = PlaceOrders((("lannisport", "march+0"), ("lannisport", "raid+0")))
    assert refused(s, "lannister", action, IllegalOrder).rule == "4.1"


def test_4_1_unknown_token_is_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    run(s, PlanningPhase())
    refused(s, "lannister", PlaceOrders((("lannisport", "march+3"),)), IllegalOrder)


def test_1_4_1_one_token_cannot_be_placed_twice(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    run(s, PlanningPhase())
    action = PlaceOrders((("lannisport", "raid+0"), ("stoney-sept", "raid+0")))
    assert refused(s, "lannister", action, TokenReused).rule == "1.4.1"
    # The second physical Raid token is a different token and may be used.
    s = act(s, "lannister", PlaceOrders((("lannisport", "raid+0"), ("stoney-sept", "raid+0.2"))))
    assert s.orders["stoney-sept"] == Order("lannister", "raid+0.2")


def test_4_1_house_without_units_is_not_asked(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    assert sorted(pending(s)) == ["stark"]


# ---------------------------------------------------------------- 4.3.1 star limits


@pytest.mark.parametrize(("position", "limit"), [(0, 3), (1, 2), (2, 1), (3, 0)])
def test_4_3_1_star_limit_with_4_players_by_kings_court_position(
    rules: Ruleset, position: int, limit: int
) -> None:
    s = stark_board(rules, players=4)
    at_kings_court(s, "stark", position)
    run(s, PlanningPhase())
    assert prompt(s, "stark").data["star_limit"] == limit
    err = refused(s, "stark", placement(limit + 1), StarLimitExceeded)
    assert err.rule == "4.3.1"
    s = act(s, "stark", placement(limit))
    assert sum(s.rules.order_tokens[o.token].star for o in s.orders.values()) == limit


@pytest.mark.parametrize(
    ("players", "position", "limit"),
    [(6, 0, 3), (6, 1, 3), (6, 2, 2), (6, 3, 1), (6, 4, 0), (6, 5, 0), (5, 1, 3), (5, 4, 0)],
)
def test_4_3_1_star_limit_with_5_or_6_players_by_kings_court_position(
    rules: Ruleset, players: int, position: int, limit: int
) -> None:
    s = stark_board(rules, players)
    at_kings_court(s, "stark", position)
    run(s, PlanningPhase())
    assert prompt(s, "stark").data["star_limit"] == limit
    refused(s, "stark", placement(limit + 1), StarLimitExceeded)
    s = act(s, "stark", placement(limit))
    assert sum(s.rules.order_tokens[o.token].star for o in s.orders.values()) == limit


def test_4_3_1_star_limit_with_3_players(rules: Ruleset) -> None:
    s = stark_board(rules, players=3)
    at_kings_court(s, "stark", 2)
    run(s, PlanningPhase())
    refused(s, "stark", placement(2), StarLimitExceeded)
    act(s, "stark", placement(1))


# ---------------------------------------------------------------- 4.3.2 restrictions


def test_4_3_2_restricted_order_type_cannot_be_placed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    s.restrictions = frozenset({"raid"})
    run(s, PlanningPhase())
    for token in ("raid+0", "raid+0.2", "raid+0*"):
        err = refused(s, "lannister", PlaceOrders((("lannisport", token),)), ForbiddenOrder)
        assert err.rule == "4.3.2"
    act(s, "lannister", PlaceOrders((("lannisport", "support+0"),)))


def test_4_3_2_restricted_march_plus_one_leaves_other_marches_legal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    s.restrictions = frozenset({"march+1"})
    run(s, PlanningPhase())
    refused(s, "lannister", PlaceOrders((("lannisport", "march+1*"),)), ForbiddenOrder)
    s = act(s, "lannister", PlaceOrders((("lannisport", "march+0"),)))
    assert s.orders["lannisport"] == Order("lannister", "march+0")


def test_4_prompt_lists_tokens_forbidden_ones_with_reason_and_star_limit(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    s.restrictions = frozenset({"consolidate_power", "march+1"})
    at_kings_court(s, "lannister", 3)
    run(s, PlanningPhase())
    data = prompt(s, "lannister").data
    assert data["star_limit"] == 1
    tokens = {t["id"]: t for t in data["tokens"]}
    assert len(tokens) == 15
    assert tokens["march+1*"]["type"] == "march"
    assert tokens["march+1*"]["bonus"] == 1
    assert tokens["march+1*"]["star"] is True
    forbidden = sorted(t for t, d in tokens.items() if d["forbidden"])
    assert forbidden == [
        "consolidate_power+0",
        "consolidate_power+0*",
        "consolidate_power+0.2",
        "march+1*",
    ]
    assert "march+1" in tokens["march+1*"]["forbidden"]
    assert tokens["march+0"]["forbidden"] is None


# ---------------------------------------------------------------- 4.2 obligation


def test_4_2_every_area_must_get_an_order_while_tokens_remain(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    run(s, PlanningPhase())
    err = refused(s, "lannister", PlaceOrders((("lannisport", "march+0"),)), AreaLeftEmpty)
    assert err.rule == "4.2"
    refused(s, "lannister", PlaceOrders(()), AreaLeftEmpty)


def test_4_2_areas_may_stay_empty_when_legal_tokens_run_out(rules: Ruleset) -> None:
    """Only March -1, March +0 and March +1* are allowed; with no star left, two orders fill
    three areas legally."""
    s = blank(rules)
    for area in ("lannisport", "stoney-sept", "searoad-marches"):
        put(s, area, "lannister", "footman")
    s.restrictions = frozenset({"raid", "support", "defense", "consolidate_power"})
    at_kings_court(s, "lannister", 5)
    run(s, PlanningPhase())
    s = act(s, "lannister", PlaceOrders((("lannisport", "march-1"), ("stoney-sept", "march+0"))))
    assert set(s.orders) == {"lannisport", "stoney-sept"}


def test_4_2_an_allowed_starred_token_must_still_be_used(rules: Ruleset) -> None:
    s = blank(rules)
    for area in ("lannisport", "stoney-sept", "searoad-marches"):
        put(s, area, "lannister", "footman")
    s.restrictions = frozenset({"raid", "support", "defense", "consolidate_power"})
    at_kings_court(s, "lannister", 3)
    run(s, PlanningPhase())
    action = PlaceOrders((("lannisport", "march-1"), ("stoney-sept", "march+0")))
    refused(s, "lannister", action, AreaLeftEmpty)
    act(s, "lannister", PlaceOrders((*action.orders, ("searoad-marches", "march+1*"))))


@pytest.mark.parametrize("seed", range(30))
def test_4_random_placement_is_legal_and_as_full_as_possible(rules: Ruleset, seed: int) -> None:
    rnd = random.Random(seed)
    s = blank(rules)
    areas = (*STARK_AREAS, "moat-cailin", "the-twins", "bay-of-ice", "the-shivering-sea")
    for area in areas:
        put(s, area, "stark", "ship" if s.rules.domain[area] == "sea" else "footman")
    kinds = ["raid", "support", "defense", "consolidate_power", "march+1", "march-1"]
    s.restrictions = frozenset(rnd.sample(kinds, rnd.randint(0, len(kinds))))
    at_kings_court(s, "stark", rnd.randrange(6))
    run(s, PlanningPhase())
    limit = [3, 3, 2, 1, 0, 0][s.tracks["kings_court"].index("stark")]
    allowed = [t for t in s.rules.order_tokens.values() if not _restricted(t, s.restrictions)]
    placeable = sum(not t.star for t in allowed) + min(limit, sum(t.star for t in allowed))
    s, _ = apply(s, "stark", random_action(s, "stark", rnd))
    # 4.2: as many areas as the legal tokens can fill.
    assert len(s.orders) == min(len(areas), placeable)


def _restricted(token: OrderToken, restrictions: frozenset[str]) -> bool:
    return token.type in restrictions or f"{token.type}{token.bonus:+d}" in restrictions


# ---------------------------------------------------------------- 0.4.4 secrecy and reveal


def _without_waiting(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("waiting_for", "committed")}


def test_0_4_4_orders_are_hidden_from_other_houses_until_the_reveal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    before = {h: player_view(s, h) for h in ("stark", None)}
    s, events = apply(s, "lannister", PlaceOrders((("lannisport", "raid+0*"),)))
    for viewer in ("stark", None):
        assert _without_waiting(player_view(s, viewer)) == _without_waiting(before[viewer])
        seen = [e for e in events if visible(e, viewer)]
        assert [(e.kind, e.data) for e in seen] == [("committed", {"house": "lannister"})]
    assert player_view(s, "stark")["orders"] == {}
    s, events = apply(s, "stark", PlaceOrders((("winterfell", "defense+1"),)))
    revealed = {"lannisport": ["lannister", "raid+0*"], "winterfell": ["stark", "defense+1"]}
    for viewer in ("stark", "lannister", "tyrell", None):
        assert player_view(s, viewer)["orders"] == revealed
    reveal = [e for e in events if e.kind == "orders_revealed"]
    assert len(reveal) == 1 and reveal[0].to is None
    assert reveal[0].data["orders"] == revealed


# ---------------------------------------------------------------- 4.4 Messenger Raven


def raven_board(rules: Ruleset, third: str = "raid+0") -> State:
    """Lannister holds the Raven (limit 3) with four orders: two starred, ``third`` at sea and a
    plain Defense; Stark has one order. The Raven decision is pending."""
    s = blank(rules)
    s.tracks["kings_court"] = ("lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy")
    put(s, "lannisport", "lannister", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "searoad-marches", "lannister", "footman")
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    s = act(
        s,
        "lannister",
        PlaceOrders(
            (
                ("lannisport", "defense+2*"),
                ("stoney-sept", "march+1*"),
                ("the-golden-sound", third),
                ("searoad-marches", "defense+1"),
            )
        ),
    )
    return act(s, "stark", PlaceOrders((("winterfell", "support+0"),)))


def test_4_4_raven_holder_decides_after_the_reveal(rules: Ruleset) -> None:
    s = raven_board(rules)
    assert sorted(pending(s)) == ["lannister"]
    p = prompt(s, "lannister")
    assert p.kind == "messenger_raven"
    assert set(p.data["options"]) == {"look_at_wildling_card", "nothing"}
    assert p.data["orders"] == {
        "lannisport": "defense+2*",
        "stoney-sept": "march+1*",
        "the-golden-sound": "raid+0",
        "searoad-marches": "defense+1",
    }
    assert p.data["stars_placed"] == 2 and p.data["star_limit"] == 3
    # Unplaced tokens only: 15 minus the 4 placed.
    assert len(p.data["tokens"]) == 11


def test_4_4_a_raven_replaces_an_order_with_an_unplaced_token(rules: Ruleset) -> None:
    s = raven_board(rules)
    s, events = apply(s, "lannister", ReplaceOrder("the-golden-sound", "consolidate_power+0*"))
    assert s.orders["the-golden-sound"] == Order("lannister", "consolidate_power+0*")
    assert s.placed["lannister"] == frozenset(
        {"defense+2*", "march+1*", "consolidate_power+0*", "defense+1"}
    )
    assert s.raven_used is True
    assert not pending(s)
    assert any(e.kind == "raven_replaced" and e.to is None for e in events)


def test_4_4_a_raven_replacement_respects_the_star_limit(rules: Ruleset) -> None:
    s = raven_board(rules, third="support+1*")
    err = refused(s, "lannister", ReplaceOrder("searoad-marches", "raid+0*"), StarLimitExceeded)
    assert err.rule == "4.3.1"
    # Swapping one starred order for another keeps the count at the limit and is allowed.
    s = act(s, "lannister", ReplaceOrder("stoney-sept", "raid+0*"))
    assert s.orders["stoney-sept"] == Order("lannister", "raid+0*")
    assert "march+1*" not in s.placed["lannister"]


def test_4_4_a_raven_cannot_use_a_placed_token(rules: Ruleset) -> None:
    s = raven_board(rules)
    refused(s, "lannister", ReplaceOrder("the-golden-sound", "march+1*"), TokenReused)


def test_4_4_a_raven_cannot_place_a_forbidden_token(rules: Ruleset) -> None:
    s = raven_board(rules)
    s.restrictions = frozenset({"support"})
    err = refused(s, "lannister", ReplaceOrder("the-golden-sound", "support+0"), ForbiddenOrder)
    assert err.rule == "4.3.2"


def test_4_4_a_raven_changes_only_own_areas_holding_an_order(rules: Ruleset) -> None:
    s = raven_board(rules)
    refused(s, "lannister", ReplaceOrder("winterfell", "raid+0.2"), IllegalOrder)
    # Only an area that already holds an order can be changed (4.4 a).
    put(s, "blackwater", "lannister", "footman")
    err = refused(s, "lannister", ReplaceOrder("blackwater", "raid+0.2"), IllegalOrder)
    assert err.rule == "4.4"


def test_4_4_b_raven_looks_at_the_top_wildling_card_and_keeps_it(rules: Ruleset) -> None:
    s = raven_board(rules)
    deck = s.wildling_deck
    s, events = apply(s, "lannister", Choose("look_at_wildling_card"))
    secret = [e for e in events if e.kind == "wildling_card_seen"]
    assert len(secret) == 1 and secret[0].to == frozenset({"lannister"})
    assert secret[0].data["card"] == deck[0]
    assert player_view(s, "lannister")["wildling_top"] == deck[0]
    for viewer in ("stark", None):
        assert "wildling_top" not in player_view(s, viewer)
        assert all(deck[0] not in repr(e.data) for e in events if visible(e, viewer))
    assert prompt(s, "lannister").data["options"] == ["keep_on_top", "move_to_bottom"]
    s = act(s, "lannister", Choose("keep_on_top"))
    assert s.wildling_deck == deck
    assert s.wildling_seen == frozenset({"lannister"})
    assert s.raven_used is True
    assert not pending(s)


def test_4_4_b_raven_moves_the_top_wildling_card_to_the_bottom(rules: Ruleset) -> None:
    s = raven_board(rules)
    deck = s.wildling_deck
    s = act(s, "lannister", Choose("look_at_wildling_card"))
    s = act(s, "lannister", Choose("move_to_bottom"))
    assert s.wildling_deck == deck[1:] + deck[:1]
    assert s.wildling_seen == frozenset()
    assert "wildling_top" not in player_view(s, "lannister")
    assert s.raven_used is True


def test_4_4_c_raven_does_nothing(rules: Ruleset) -> None:
    s = raven_board(rules)
    orders, deck = dict(s.orders), s.wildling_deck
    s = act(s, "lannister", Choose("nothing"))
    assert s.orders == orders and s.wildling_deck == deck
    assert s.wildling_seen == frozenset()
    assert s.raven_used is True
    assert not pending(s)


def test_4_4_raven_refuses_an_unknown_option(rules: Ruleset) -> None:
    s = raven_board(rules)
    assert refused(s, "lannister", Choose("draw_again"), IllegalChoice).rule == "4.4"


def test_4_4_raven_runs_even_when_the_holder_has_no_units(rules: Ruleset) -> None:
    s = blank(rules)
    s.tracks["kings_court"] = ("tyrell", "lannister", "stark", "martell", "baratheon", "greyjoy")
    put(s, "lannisport", "lannister", "footman")
    run(s, PlanningPhase())
    s = act(s, "lannister", PlaceOrders((("lannisport", "march+0"),)))
    assert sorted(pending(s)) == ["tyrell"]
    assert prompt(s, "tyrell").data["orders"] == {}
    refused(s, "tyrell", ReplaceOrder("lannisport", "raid+0"), IllegalOrder)


@pytest.mark.parametrize("seed", range(20))
def test_4_4_random_raven_choice_is_legal(rules: Ruleset, seed: int) -> None:
    rnd = random.Random(seed)
    s = raven_board(rules)
    s.restrictions = frozenset({"support"})
    while pending(s):
        house = sorted(pending(s))[0]
        s, _ = apply(s, house, random_action(s, house, rnd))
    assert s.raven_used is True
    stars = sum(s.rules.order_tokens[o.token].star for o in s.orders.values())
    assert stars <= 3
    assert all(not o.token.startswith("support") for a, o in s.orders.items() if a != "winterfell")


def test_4_4_raven_step_can_follow_orders_placed_by_hand(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "march+0")
    s.placed["lannister"] = frozenset({"march+0"})
    run(s, MessengerRaven())
    s = act(s, "lannister", ReplaceOrder("lannisport", "march-1"))
    assert s.orders["lannisport"] == Order("lannister", "march-1")
