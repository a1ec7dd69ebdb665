"""The baseline AI decides sensibly (issue: "defends its castles, attacks weaker neighbours,
supports, bids and musters"): small boards set up by hand, one decision each, asked through the
player protocol (the bot sees only its own view)."""

from __future__ import annotations

from tests.ai.helpers import (
    close_fight,
    decision,
    orders_of,
    planning,
    stark_attacks_white_harbor,
)
from tests.builders import act, blank, order, prompt, put, run
from westeros.ai import BaselineBot
from westeros.engine.actions import Bid, Choose, SelectUnits
from westeros.engine.bidding import ClashOfKings
from westeros.engine.choices import DestroyUnits
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.mustering import MusterIn, MusterUnit
from westeros.engine.planning import PlaceOrders
from westeros.engine.state import State

# ---------------------------------------------------------------- 4 Planning


def test_4_1_a_threatened_home_castle_gets_a_defense_order(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["greyjoy"] = 6
    put(s, "winterfell", "stark", "footman")
    put(s, "moat-cailin", "greyjoy", "knight", "knight", "footman")
    action = decision(BaselineBot(1), planning(s), "stark")
    assert isinstance(action, PlaceOrders)
    assert orders_of(rules, action) == {"winterfell": "defense"}


def test_4_1_an_army_beside_a_weaker_neighbour_gets_a_march_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    action = decision(BaselineBot(1), planning(s), "stark")
    assert isinstance(action, PlaceOrders)
    token = dict(action.orders)["winterfell"]
    assert rules.order_tokens[token].type == "march"


def test_4_1_a_support_order_goes_next_to_its_own_planned_attack(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "knight")
    put(s, "the-shivering-sea", "stark", "ship")
    put(s, "white-harbor", "greyjoy", "footman", "footman")
    action = decision(BaselineBot(1), planning(s), "stark")
    assert isinstance(action, PlaceOrders)
    assert orders_of(rules, action) == {"winterfell": "march", "the-shivering-sea": "support"}


# ---------------------------------------------------------------- 5.3 March


def march_turn(rules: Ruleset, stark: tuple[str, ...], greyjoy: tuple[str, ...]) -> State:
    s = blank(rules)
    s.supply["greyjoy"] = 6
    put(s, "winterfell", "stark", *stark)
    put(s, "white-harbor", "greyjoy", *greyjoy)
    order(s, "winterfell", "march+1*")
    order(s, "white-harbor", "defense+1")
    run(s, MarchTurn("stark"))
    assert prompt(s, "stark").kind == "march"
    return s


def test_5_3_marches_on_a_weaker_neighbour(rules: Ruleset) -> None:
    s = march_turn(rules, ("knight", "knight", "footman"), ("footman",))
    action = decision(BaselineBot(1), s, "stark")
    assert isinstance(action, ResolveMarch)
    attack = dict(action.moves).get("white-harbor", ())
    assert attack.count("knight") == 2


def test_5_3_does_not_march_on_a_stronger_neighbour(rules: Ruleset) -> None:
    s = march_turn(rules, ("footman",), ("knight", "knight", "knight"))
    action = decision(BaselineBot(1), s, "stark")
    assert isinstance(action, ResolveMarch)
    assert "white-harbor" not in dict(action.moves)


def test_5_5_attacks_a_neutral_force_it_can_beat(rules: Ruleset) -> None:
    # The Eyrie's neutral force is 6 with 6 players; 3 knights (2 each, 1.2.1) + March +1 = 7.
    s = blank(rules)
    assert s.neutral["the-eyrie"] == 6
    put(s, "the-mountains-of-the-moon", "stark", "knight", "knight", "knight")
    order(s, "the-mountains-of-the-moon", "march+1*")
    run(s, MarchTurn("stark"))
    action = decision(BaselineBot(1), s, "stark")
    assert isinstance(action, ResolveMarch)
    assert "the-eyrie" in dict(action.moves)


# ---------------------------------------------------------------- 5.4 Combat


def card_strength(rules: Ruleset, action: object) -> int:
    assert isinstance(action, Choose)
    return rules.house_cards[action.option].strength


def test_5_4_3_in_a_lost_fight_it_plays_its_weakest_card(rules: Ruleset) -> None:
    # 1 footman + March +0 + Eddard's 4 = 5 at best; 3 knights + Defense +2 = 8 at least.
    s = stark_attacks_white_harbor(
        rules, ("footman",), ("knight", "knight", "knight"), defense="defense+2*"
    )
    action = decision(BaselineBot(1), s, "stark")
    weakest = min(rules.house_cards[c].strength for c in s.hands["stark"])
    assert card_strength(rules, action) == weakest


def test_5_4_3_in_a_won_fight_it_does_not_waste_its_best_card(rules: Ruleset) -> None:
    # 3 knights + March +0 = 6 + card; 1 footman + Euron's 4 = 5 at best.
    s = stark_attacks_white_harbor(rules, ("knight", "knight", "knight"), ("footman",))
    s.blade_used = True
    action = decision(BaselineBot(1), s, "stark")
    assert card_strength(rules, action) < max(
        rules.house_cards[c].strength for c in s.hands["stark"]
    )


def test_5_4_8_in_a_close_fight_it_plays_the_cheapest_card_that_wins(rules: Ruleset) -> None:
    # Greyjoy holds only Asha (1): 2 footmen + 1 = 3. Stark: knight + footman + March +0 = 3.
    # A 0 card ties and Greyjoy, higher on Fiefdoms, wins (5.4.8): a card of 1 is the cheapest
    # winner; the Blade is used up (5.4.6).
    s = close_fight(rules)
    assert s.tracks["fiefdoms"].index("greyjoy") < s.tracks["fiefdoms"].index("stark")
    assert card_strength(rules, decision(BaselineBot(1), s, "stark")) == 1


def test_5_4_1_never_supports_the_house_leading_the_game(rules: Ruleset) -> None:
    s = blank(rules)
    for castle in ("harrenhal", "the-eyrie", "white-harbor"):
        put(s, castle, "lannister", "footman")
    put(s, "lannisport", "lannister", "knight", "footman")
    put(s, "riverrun", "baratheon", "footman")
    put(s, "seagard", "stark", "footman")
    order(s, "lannisport", "march+0")
    order(s, "seagard", "support+0")
    run(s, MarchTurn("lannister"))
    s = act(s, "lannister", ResolveMarch("lannisport", (("riverrun", ("knight",)),)))
    assert prompt(s, "stark").kind == "declare_support"
    assert decision(BaselineBot(1), s, "stark") == Choose("defender")


# ---------------------------------------------------------------- units, mustering, bids


def test_7_3_7_destroys_its_weakest_units(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman")
    put(s, "white-harbor", "stark", "knight")
    put(s, "the-shivering-sea", "stark", "ship")
    run(s, DestroyUnits("stark", 1, "Mammoth Riders (7.3.7)"))
    assert decision(BaselineBot(1), s, "stark") == SelectUnits((("winterfell", "footman"),))


def test_3_5_musters_land_units_in_a_threatened_castle(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["greyjoy"] = 6
    put(s, "winterfell", "stark", "footman")
    put(s, "moat-cailin", "greyjoy", "knight", "knight", "footman")
    run(s, MusterIn("stark", "winterfell"))
    action = decision(BaselineBot(1), s, "stark")
    assert isinstance(action, MusterUnit)
    assert action.area == "winterfell"
    assert rules.unit_types[action.unit].domain == "land"


def test_3_6_bids_part_of_its_power_and_never_more(rules: Ruleset) -> None:
    s = blank(rules, keep_units=True)
    s.power = dict.fromkeys(s.houses, 5) | {"stark": 8}
    run(s, ClashOfKings())
    action = decision(BaselineBot(1), s, "stark")
    assert isinstance(action, Bid)
    assert 0 < action.amount < 8


# ---------------------------------------------------------------- 5.5.1 neutral forces


def baratheon_asks_lannister(rules: Ruleset) -> State:
    """Baratheon's knights (4) need Lannister's supporting ship (+1) against King's Landing (5)."""
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", "march+0")
    put(s, "blackwater-bay", "lannister", "ship")
    order(s, "blackwater-bay", "support+0")
    run(s, MarchTurn("baratheon"))
    s = act(s, "baratheon", ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),)))
    assert prompt(s, "lannister").kind == "support_neutral_attack"
    return s


def test_5_5_1_the_baseline_will_not_help_an_equal_take_a_neutral_force(rules: Ruleset) -> None:
    s = baratheon_asks_lannister(rules)
    # Both hold only their home castle (1.3.3): helping Baratheon gains Lannister nothing.
    assert decision(BaselineBot(1), s, "lannister") == Choose("no")


def test_5_5_1_the_baseline_helps_a_weaker_house_against_a_neutral_force(rules: Ruleset) -> None:
    s = baratheon_asks_lannister(rules)
    for castle in ("stoney-sept", "riverrun", "harrenhal"):
        put(s, castle, "lannister", "footman")
    s.cache = None
    action = decision(BaselineBot(1), s, "lannister")
    assert action == Choose("yes")
    s = act(s, "lannister", action)
    assert "kings-landing" not in s.neutral
