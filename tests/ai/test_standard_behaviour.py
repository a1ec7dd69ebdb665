"""The Standard AI (issue 15) decides as a player would expect: small boards set up by hand,
one decision each, asked through the player protocol (it sees only its own view)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ai.helpers import (
    close_fight,
    decision,
    orders_of,
    planning,
    stark_attacks_white_harbor,
)
from tests.builders import blank, order, prompt, put, run
from westeros.ai.rollout import RolloutPolicy, situation
from westeros.ai.standard import StandardBot
from westeros.ai.standard.combat import Outcomes
from westeros.engine import preview
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import ClashOfKings
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import State


def test_4_1_a_threatened_home_castle_gets_a_defense_order(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["greyjoy"] = 6
    put(s, "winterfell", "stark", "footman")
    put(s, "moat-cailin", "greyjoy", "knight", "knight", "footman")
    action = decision(StandardBot(1), planning(s), "stark")
    assert orders_of(rules, action)["winterfell"] == "defense"


def test_5_4_1_it_supports_its_own_attack_from_a_neighbouring_army(rules: Ruleset) -> None:
    # Winterfell's two knights (4) + March alone do not surely beat two footmen in White
    # Harbor with its garrison-free castle; the ship in the Shivering Sea next to it supports.
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "knight")
    put(s, "the-shivering-sea", "stark", "ship")
    put(s, "white-harbor", "greyjoy", "footman", "footman")
    orders = orders_of(rules, decision(StandardBot(1), planning(s), "stark"))
    assert orders == {"winterfell": "march", "the-shivering-sea": "support"}


def bid_with(rules: Ruleset, power: int) -> int:
    s = blank(rules, keep_units=True)
    s.power = dict.fromkeys(s.houses, 4) | {"stark": power}
    run(s, ClashOfKings())
    assert prompt(s, "stark").data["track"] == "iron_throne"
    action = decision(StandardBot(1), s, "stark")
    assert isinstance(action, Bid)
    assert 0 <= action.amount <= power
    return action.amount


def test_3_6_it_bids_more_on_a_track_when_it_holds_more_power(rules: Ruleset) -> None:
    assert bid_with(rules, 12) > bid_with(rules, 2)


def strength(rules: Ruleset, action: object) -> int:
    assert isinstance(action, Choose)
    return rules.house_cards[action.option].strength


def test_5_4_3_it_plays_a_card_that_wins_when_one_exists(rules: Ruleset) -> None:
    # Greyjoy holds only Asha (1): 2 footmen + 1 = 3. Stark: knight + footman + March +0 = 3.
    # A 0 card ties and Greyjoy, higher on Fiefdoms, wins (5.4.8); any card of 1 or more wins,
    # and the cheapest of them is played (the Blade is used up, 5.4.6).
    s = close_fight(rules)
    assert s.tracks["fiefdoms"].index("greyjoy") < s.tracks["fiefdoms"].index("stark")
    assert strength(rules, decision(StandardBot(1), s, "stark")) == 1


def test_5_4_3_in_a_simulation_the_second_side_to_choose_reads_the_first_sides_outcomes(
    rules: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fight above played out inside a search, both sides on one state: Greyjoy weighs
    # Asha first (it wins only against Catelyn's 0, on Fiefdoms), then Stark chooses from the
    # outcomes Greyjoy's weighing found, seen from its own side: still the cheapest winner.
    s = close_fight(rules)
    shared = Outcomes()
    greyjoy = StandardBot(1, outcomes=shared).card_chances(
        situation(s, "greyjoy"), ["asha-greyjoy"]
    )
    assert 0 < greyjoy["asha-greyjoy"][0] < 0.5
    found = shared.table(s)
    assert found and all(card == "asha-greyjoy" for _, card in found)

    def no_preview(*args: object) -> None:
        raise AssertionError("Stark previewed a pair Greyjoy's weighing had found")

    monkeypatch.setattr(preview, "card_preview", no_preview)
    policy = RolloutPolicy(1, model="standard", outcomes=shared)
    action = policy.decide(s, "stark", prompt(s, "stark"))
    assert strength(rules, action) == 1


def test_5_4_3_in_a_lost_fight_it_saves_its_strong_cards(rules: Ruleset) -> None:
    # One footman (1) against four footmen behind a Defense +2: no card can win.
    s = stark_attacks_white_harbor(
        rules, ("footman",), ("footman", "footman", "footman", "footman"), defense="defense+2*"
    )
    weakest = min(rules.house_cards[c].strength for c in s.hands["stark"])
    assert strength(rules, decision(StandardBot(1), s, "stark")) == weakest


def marches_from(
    rules: Ruleset, origin: str, setup: Callable[[State], None], round_: int
) -> object:
    """Stark's March (5.3) from ``origin`` (March +0) on a board made by ``setup``."""
    s = blank(rules)
    s.round = round_
    s.supply = dict.fromkeys(s.houses, 6)
    setup(s)
    order(s, origin, "march+0")
    run(s, MarchTurn("stark"))
    return decision(StandardBot(1), s, "stark")


def army_against_moat_cailin(s: State) -> None:
    # Two knights (4) in Greywater Watch against two knights and a footman (5) in Moat
    # Cailin: a likely lost fight. Stark's other neighbours of Greywater Watch are safe.
    put(s, "greywater-watch", "stark", "knight", "knight")
    put(s, "moat-cailin", "greyjoy", "knight", "knight", "footman")
    for area in ("seagard", "flints-finger"):
        put(s, area, "stark", "knight", "knight", "knight")


def test_9_2_in_the_last_round_it_risks_its_army_for_a_castle(rules: Ruleset) -> None:
    # Before round 10 the two knights are worth keeping; in round 10 only the castles held
    # at its end count (9.2), so it attacks.
    stay = ResolveMarch("greywater-watch", ())
    attack = ResolveMarch("greywater-watch", (("moat-cailin", ("knight", "knight")),), True)
    assert marches_from(rules, "greywater-watch", army_against_moat_cailin, 9) == stay
    assert marches_from(rules, "greywater-watch", army_against_moat_cailin, 10) == attack


def test_9_1_it_takes_castles_from_the_house_closest_to_winning(rules: Ruleset) -> None:
    # Winterfell's army can take Moat Cailin (Lannister, one footman) or White Harbor
    # (Greyjoy, one footman, higher on Fiefdoms). It takes Moat Cailin, until Greyjoy holds
    # five castles: then White Harbor, one castle fewer for the house nearest to 7 (9.1).
    def board(greyjoy_castles: tuple[str, ...]) -> Callable[[State], None]:
        def setup(s: State) -> None:
            put(s, "winterfell", "stark", "knight", "knight", "footman")
            put(s, "moat-cailin", "lannister", "footman")
            for area in ("white-harbor", *greyjoy_castles):
                put(s, area, "greyjoy", "footman")

        return setup

    def target(action: object) -> set[str]:
        assert isinstance(action, ResolveMarch)
        return {area for area, _ in action.moves}

    assert target(marches_from(rules, "winterfell", board(()), 5)) == {"moat-cailin"}
    lead = board(("pyke", "flints-finger", "riverrun", "harrenhal"))
    assert target(marches_from(rules, "winterfell", lead, 5)) == {"white-harbor"}
