"""Three Mother of Dragons rules found wrong by hidden scenarios (issue 37 point 3), each on a
small board set up by hand: commanders place their vassals' orders one after another in turn
order (RULES.md 11.10.4); a defeated vassal's ship never retreats into a port (6.3.5 with
11.10.6); a dragon's flight obeys the family restriction (11.5.3 with 11.10.6)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.builders import act, run
from westeros.engine import board, march
from westeros.engine.combat import ATTACKER, DEFENDER, Combat, Side
from westeros.engine.combat.retreat import Retreat, retreat_areas
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalMove, NotPending
from westeros.engine.flow import answering_house, apply, pending
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.planning import PlaceOrders
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State, Unit
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons.vassals import ClaimVassalsAction

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
PLAYERS = ("baratheon", "lannister", "stark", "greyjoy")
COMMANDERS = "vassal_commanders"
NARROW_SEA = "the-narrow-sea"
PORT = "port-of-the-eyrie"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


def own_orders(state: State, house: str) -> PlaceOrders:
    """Legal orders for a player: its own unstarred tokens, one per area."""
    data = pending(state)[house].data
    plain = [t["id"] for t in data["tokens"] if not t["star"]]
    return PlaceOrders(tuple(zip(data["areas"], plain, strict=False)))


def test_11_10_4_commanders_place_vassal_orders_one_after_another(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.10.4): once the players have placed their own orders, the
    commanders place their vassals' orders one vassal at a time, commanders in Iron Throne
    order (Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell, Arryn): Lannister's Martell
    and Arryn first, then Greyjoy's Tyrell, though Tyrell stands above Arryn on the track."""
    s = new_game(rules, 4, 1, VASSALS)
    s = act(s, "baratheon", ClaimVassalsAction(()))
    s = act(s, "lannister", ClaimVassalsAction(("arryn", "martell")))
    s = act(s, "stark", ClaimVassalsAction(()))  # Greyjoy, last, takes Tyrell
    assert {v: answering_house(s, v) for v in ("martell", "arryn", "tyrell")} == {
        "martell": "lannister",
        "arryn": "lannister",
        "tyrell": "greyjoy",
    }
    for house in PLAYERS:
        s = act(s, house, own_orders(s, house))
    asked = []
    while pending(s) and pending(s).keys() <= {"martell", "arryn", "tyrell"}:
        assert len(pending(s)) == 1, f"asked at once: {sorted(pending(s))}"
        [vassal] = pending(s)
        asked.append(vassal)
        later = {"martell", "arryn", "tyrell"} - set(asked)
        for other in sorted(later):
            with pytest.raises(NotPending):
                apply(s, other, PlaceOrders(()))
        assert s.orders == {}  # still secret until the last vassal's orders are in
        s = act(s, vassal, PlaceOrders(()))
    assert asked == ["martell", "arryn", "tyrell"]
    assert s.orders  # revealed once the last vassal's orders were in
    assert {o.house for o in s.orders.values()} <= set(PLAYERS)  # the vassals placed none


def narrow_sea_battle(rules: Ruleset, *, bite_free: bool) -> State:
    """A 4-player vassal game where Stark's two ships have beaten Arryn's vassal ship in The
    Narrow Sea, coming from The Shivering Sea: Arryn holds The Eyrie and its empty port;
    Baratheon holds Shipbreaker Bay; The Bite is empty (``bite_free``) or Stark's."""
    s = new_game(rules, 4, 1, VASSALS, start=False)
    s.ext[COMMANDERS] = (("arryn", "baratheon"), ("martell", "lannister"), ("tyrell", "greyjoy"))
    for area in (PORT, "the-bite"):
        board.remove_units(s, area, list(s.units[area]))
    if not bite_free:
        board.add_units(s, "the-bite", "stark", ["ship"])
    assert board.controller(s, "the-eyrie") == "arryn"
    stark = (Unit("stark", "ship"), Unit("stark", "ship"))
    arryn = tuple(s.units[NARROW_SEA])
    s.combat = Combat(
        NARROW_SEA, "the-shivering-sea", "march+0", Side("stark", stark), Side("arryn", arryn)
    )
    s.combat = dataclasses.replace(s.combat, winner=ATTACKER)
    return s


def test_6_3_5_a_defeated_vassal_ship_never_retreats_into_a_port(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 6.3.5 with 11.10.6): Arryn's vassal ship loses in The Narrow
    Sea; the Port of the Eyrie is Arryn's and empty, but a vassal may not enter a port, so the
    ship retreats into The Bite, the one open sea area, without a question; with The Bite taken
    too it has nowhere to go and is destroyed."""
    s = narrow_sea_battle(rules, bite_free=True)
    assert retreat_areas(s, s.combat, DEFENDER) == ["the-bite"]
    run(s, Retreat())
    assert pending(s) == {}
    assert [(u.house, u.type, u.routed) for u in s.units["the-bite"]] == [("arryn", "ship", True)]
    assert PORT not in s.units

    s = narrow_sea_battle(rules, bite_free=False)
    assert retreat_areas(s, s.combat, DEFENDER) == []
    run(s, Retreat())
    assert PORT not in s.units
    assert NARROW_SEA not in s.units
    assert not any(u.house == "arryn" and u.type == "ship" for u in s.units.get("the-bite", ()))


def test_6_3_5_a_player_ship_still_retreats_into_its_own_port(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 6.2.6): the port restriction is the vassals' alone; the same
    defeat with Arryn as a player in a 7-player game may retreat into its own port."""
    seven = {"mother_of_dragons": True}
    s = new_game(build_ruleset(seven), 7, 1, seven, start=False)
    for area in (PORT, "the-bite"):
        board.remove_units(s, area, list(s.units.get(area, ())))
    board.add_units(s, "the-bite", "stark", ["ship"])
    board.add_units(s, NARROW_SEA, "arryn", ["ship"])
    arryn = tuple(s.units[NARROW_SEA])
    stark = (Unit("stark", "ship"),) * 2
    s.combat = Combat(
        NARROW_SEA, "the-shivering-sea", "march+0", Side("stark", stark), Side("arryn", arryn)
    )
    assert retreat_areas(s, s.combat, DEFENDER) == [PORT]


def targaryen_commands_martell(rules: Ruleset) -> State:
    """An 8-house vassal game set up by hand: the 8-player board with players Targaryen,
    Stark and Lannister; Targaryen commands Martell this round and a lone dragon with a March
    order stands in Norvos. Martell holds Sunspear (its units) and Salt Shore (a power token)."""
    s = new_game(rules, 8, 1, VASSALS, start=False)
    s.setup = dataclasses.replace(s.setup, players=("stark", "lannister", "targaryen"))
    s.ext[COMMANDERS] = (("martell", "targaryen"), ("tyrell", "stark"))
    for area in ("salt-shore", "starfall"):
        board.remove_units(s, area, list(s.units.get(area, ())))
    s.power_tokens["salt-shore"] = "martell"
    s.units.pop("norvos", None)
    board.add_units(s, "norvos", "targaryen", ["dragon"])
    s.orders["norvos"] = Order("targaryen", "march+0")
    s.round = 4
    return s


def test_11_5_3_a_dragon_flight_obeys_the_family_restriction(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.5.3 with 11.10.6): a lone dragon flies to any land area,
    but not into an area of its family: Targaryen commands Martell, so its dragon may not fly
    into Sunspear (Martell's units) nor Salt Shore (Martell's power token alone); it still
    flies to Starfall, and, once Stark commands Martell, attacks Sunspear."""
    s = targaryen_commands_martell(rules)
    assert board.controller(s, "sunspear") == "martell"
    reach = march.group_reach(s, "targaryen", "norvos", ["dragon"])
    assert {"starfall", "winterfell"} <= reach
    assert not {"sunspear", "salt-shore"} & reach
    for dst in ("sunspear", "salt-shore"):
        with pytest.raises(IllegalMove):
            march.check(s, "targaryen", ResolveMarch("norvos", ((dst, ("dragon",)),)))
    run(s, MarchTurn("targaryen"))
    offered = pending(s)["targaryen"].data["marches"]["norvos"]["group_reach"]["dragon"]
    assert not {"sunspear", "salt-shore"} & {e["area"] for e in offered}
    s = act(s, "targaryen", ResolveMarch("norvos", (("starfall", ("dragon",)),)))
    assert [u.type for u in s.units["starfall"]] == ["dragon"]

    s = targaryen_commands_martell(rules)
    s.ext[COMMANDERS] = (("martell", "stark"),)
    assert {"sunspear", "salt-shore"} <= march.group_reach(s, "targaryen", "norvos", ["dragon"])
