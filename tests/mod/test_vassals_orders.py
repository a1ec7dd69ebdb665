"""Vassal orders (RULES.md 11.10.4): each vassal has four tokens (March +0, Raid/Support +1,
Defense +1/Muster, Defense +3), none starred; its commander places at most 2 of them, only in
areas with the vassal's units. They are hidden like any house's orders until the reveal, and
the commander alone sees them (and the question) before it. Commanders place them once every
player has placed its own orders."""

from __future__ import annotations

import pytest

from westeros.engine import board
from westeros.engine.action_phase import OrderLoop
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.content import Ruleset
from westeros.engine.errors import ForbiddenOrder, IllegalOrder
from westeros.engine.flow import advance, answering_house, apply, pending
from westeros.engine.planning import PlaceOrders
from westeros.engine.raid import ResolveRaid
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons.vassals import ClaimVassalsAction

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
PLAYERS = ("baratheon", "lannister", "stark", "greyjoy")
VASSAL_TOKENS = {
    "vassal-march+0",
    "vassal-raid-support+1",
    "vassal-defense+1-muster",
    "vassal-defense+3",
}


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


@pytest.fixture
def planning(rules: Ruleset) -> State:
    """A 4-player game after claiming: Baratheon commands Arryn, Lannister Martell, Greyjoy
    (last) Tyrell."""
    s = new_game(rules, 4, 1, VASSALS)
    for house, claimed in (("baratheon", ("arryn",)), ("lannister", ("martell",)), ("stark", ())):
        s, _ = apply(s, house, ClaimVassalsAction(claimed))
    return s


def fill(state: State, house: str) -> PlaceOrders:
    """Legal orders for a player: its own tokens, one per area, no star."""
    p = pending(state)[house]
    plain = [t["id"] for t in p.data["tokens"] if not t["star"]]
    return PlaceOrders(tuple(zip(p.data["areas"], plain, strict=False)))


def players_place(state: State) -> State:
    """Every player places its own orders."""
    for house in PLAYERS:
        state, _ = apply(state, house, fill(state, house))
    return state


def test_11_10_4_vassals_are_asked_after_the_players_placed_their_orders(planning: State) -> None:
    s = planning
    assert set(pending(s)) == set(PLAYERS)
    stark = pending(s)["stark"].data
    assert not VASSAL_TOKENS & {t["id"] for t in stark["tokens"]}
    s = players_place(s)
    assert set(pending(s)) == {"arryn"}  # Baratheon's vassal first, one at a time (11.10.4)
    assert s.orders == {}  # nothing revealed yet


def test_11_10_4_a_vassal_has_four_unstarred_tokens_and_places_at_most_two(
    planning: State,
) -> None:
    s = players_place(planning)
    arryn = pending(s)["arryn"].data
    assert {t["id"] for t in arryn["tokens"]} == VASSAL_TOKENS
    assert not any(t["star"] for t in arryn["tokens"])
    assert arryn["max_orders"] == 2
    assert arryn["star_limit"] == 0
    assert arryn["fill_every_area"] is False
    assert set(arryn["areas"]) == {
        "the-eyrie", "port-of-the-eyrie", "the-vale-of-arryn", "the-mountains-of-the-moon",
        "the-bite", "the-narrow-sea",
    }  # fmt: skip


def test_11_10_4_the_commander_answers_for_its_vassal(planning: State) -> None:
    assert answering_house(planning, "arryn") == "baratheon"
    assert answering_house(planning, "tyrell") == "greyjoy"


def test_11_10_4_more_than_two_orders_or_a_player_token_are_refused(planning: State) -> None:
    winterfell = pending(planning)["stark"].data["areas"][-1]
    with pytest.raises(IllegalOrder, match="no order token"):
        apply(planning, "stark", PlaceOrders(((winterfell, "vassal-defense+3"),)))
    s = players_place(planning)
    three = (
        ("the-eyrie", "vassal-defense+3"),
        ("the-bite", "vassal-march+0"),
        ("the-narrow-sea", "vassal-raid-support+1"),
    )
    with pytest.raises(IllegalOrder, match="at most 2"):
        apply(s, "arryn", PlaceOrders(three))
    with pytest.raises(IllegalOrder, match="no order token"):
        apply(s, "arryn", PlaceOrders((("the-eyrie", "march+1*"),)))
    apply(s, "arryn", PlaceOrders(()))  # none at all is allowed


@pytest.mark.parametrize("card", ["support", "raid"])
def test_11_10_5_web_of_lies_and_sea_of_storms_forbid_the_raid_support(
    planning: State, card: str
) -> None:
    planning.restrictions = frozenset({card})  # Web of Lies: no Support; Sea of Storms: no Raid
    s = players_place(planning)
    tokens = {t["id"]: t["forbidden"] for t in pending(s)["arryn"].data["tokens"]}
    assert tokens["vassal-raid-support+1"] is not None
    assert tokens["vassal-march+0"] is None
    with pytest.raises(ForbiddenOrder):
        apply(s, "arryn", PlaceOrders((("the-eyrie", "vassal-raid-support+1"),)))
    apply(s, "arryn", PlaceOrders((("the-eyrie", "vassal-defense+3"),)))


def test_11_10_4_vassal_orders_stay_hidden_but_the_commander_sees_them(planning: State) -> None:
    s = players_place(planning)
    commander = player_view(s, "baratheon")["answering_for"]
    assert set(commander) == {"arryn"}
    assert commander["arryn"]["prompt"]["kind"] == "place_orders"
    assert "arryn" not in player_view(s, "stark")["answering_for"]
    orders = (("the-eyrie", "vassal-defense+3"), ("the-bite", "vassal-march+0"))
    s, _ = apply(s, "arryn", PlaceOrders(orders))
    seen = player_view(s, "baratheon")["answering_for"]["arryn"]["take_back"]
    assert seen["commitment"]["orders"] == [list(o) for o in orders]
    secret = str(["the-eyrie", "vassal-defense+3"])
    assert secret not in str(player_view(s, "lannister"))
    assert secret not in str(player_view(s, None))
    assert secret not in str(player_view(s, "arryn")["orders"])
    s, _ = apply(s, "martell", PlaceOrders(()))
    s, _ = apply(s, "tyrell", PlaceOrders(()))
    revealed = player_view(s, "stark")["orders"]
    assert revealed["the-eyrie"] == ["arryn", "vassal-defense+3"]
    assert revealed["the-bite"] == ["arryn", "vassal-march+0"]


@pytest.fixture
def raiding(rules: Ruleset) -> State:
    """Arryn (commanded by Baratheon) has its Raid/Support +1 in The Mountains of the Moon next
    to a Stark Support in The Twins; the Raid step is about to start."""
    s = new_game(rules, 4, 1, VASSALS, start=False)
    s.ext["vassal_commanders"] = (("arryn", "baratheon"),)
    s.orders["the-mountains-of-the-moon"] = Order("arryn", "vassal-raid-support+1")
    board.add_units(s, "the-twins", "stark", ["footman"])
    s.orders["the-twins"] = Order("stark", "support+0")
    s.push(OrderLoop("raid"))
    advance(s)
    return s


def test_11_10_5_raid_support_raids_like_a_plain_raid(raiding: State) -> None:
    p = pending(raiding)["arryn"]
    assert p.data["raids"]["the-mountains-of-the-moon"]["targets"] == ["the-twins"]
    s, _ = apply(raiding, "arryn", ResolveRaid("the-mountains-of-the-moon", "the-twins"))
    assert "the-twins" not in s.orders
    assert "the-mountains-of-the-moon" not in s.orders


def test_11_10_5_raid_support_without_a_target_stays_as_a_support_plus_1(raiding: State) -> None:
    s, _ = apply(raiding, "arryn", ResolveRaid("the-mountains-of-the-moon", None))
    stays = s.orders["the-mountains-of-the-moon"]
    assert stays.house == "arryn"
    token = s.rules.order_tokens[stays.token]
    assert (token.type, token.bonus) == ("support", 1)
    assert not pending(s)  # the Raid step is over: it is no Raid any more


def test_11_10_5_defense_muster_musters_in_a_castle_area_at_consolidate_power(
    rules: Ruleset,
) -> None:
    s = new_game(rules, 4, 1, VASSALS, start=False)
    s.ext["vassal_commanders"] = (("martell", "stark"),)
    s.orders["sunspear"] = Order("martell", "vassal-defense+1-muster")
    s.orders["salt-shore"] = Order("martell", "vassal-defense+1-muster")
    s.push(OrderLoop("consolidate_power"))
    advance(s)
    p = pending(s)["martell"]
    assert p.kind == "consolidate_power"
    assert set(p.data["orders"]) == {"sunspear"}  # Salt Shore has no castle: a Defense +1 only
    assert p.data["orders"]["sunspear"]["may_muster"] is True
    assert answering_house(s, "martell") == "stark"
    s, _ = apply(s, "martell", ResolveConsolidate("sunspear", muster=True))
    assert pending(s)["martell"].kind == "muster"
    assert s.orders["salt-shore"].token == "vassal-defense+1-muster"
