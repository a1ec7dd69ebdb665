"""The Westeros cards of decks I-III (RULES.md 3.4), one test per card type."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from westeros.base.westeros_cards import card_type
from westeros.engine.actions import Choose, SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice, NotPending
from westeros.engine.state import State
from westeros.engine.westeros_phase import WesterosPhase
from westeros.engine.wildlings import WildlingAttack

from ..builders import act, blank, prompt, put, run


def revealed(
    rules: Ruleset, card: str, players: int = 6, setup: Callable[[State], None] | None = None
) -> State:
    """A board (prepared by ``setup(state)``) where the Westeros phase reveals only ``card``."""
    s = blank(rules, players)
    deck = rules.westeros_cards[card].deck
    s.westeros_decks = tuple((card,) if i + 1 == deck else () for i in range(3))
    if setup is not None:
        setup(s)
    return run(s, WesterosPhase())


def test_1_11_2_decks_hold_ten_cards_each_with_the_listed_icons(rules: Ruleset) -> None:
    cards = rules.westeros_cards.values()
    assert [sum(c.count for c in cards if c.deck == d) for d in (1, 2, 3)] == [10, 10, 10]
    with_icon = {card_type(c.id) for c in cards if c.wildling_icon}
    assert with_icon == {  # 3.2.4
        "a-throne-of-blades",
        "dark-wings-dark-words",
        "feast-for-crows",
        "last-days-of-summer",
        "rains-of-autumn",
        "sea-of-storms",
        "storm-of-swords",
        "web-of-lies",
    }
    assert [(c.deck, card_type(c.id)) for c in cards if c.reshuffle] == [
        (1, "winter-is-coming"),
        (2, "winter-is-coming"),
    ]


def test_3_4_1_last_days_of_summer_changes_nothing_but_the_threat(rules: Ruleset) -> None:
    before = blank(rules)
    s = revealed(rules, "last-days-of-summer-ii")
    assert (s.power, s.units, s.supply, s.tracks) == (
        before.power,
        before.units,
        before.supply,
        before.tracks,
    )
    assert s.restrictions == frozenset()
    assert s.threat == before.threat + 2
    assert not s.stack


def test_3_4_2_winter_is_coming_is_replaced_by_another_card(rules: Ruleset) -> None:
    s = blank(rules)
    s.westeros_decks = (("winter-is-coming-i", "supply"), (), ())
    run(s, WesterosPhase())
    assert s.revealed == ("supply",)


def _over_supply(s: State) -> None:
    s.supply["stark"] = 4  # Stark controls only Winterfell's barrel: the card sets it to 1
    put(s, "winterfell", "stark", "footman", "footman", "footman")
    put(s, "white-harbor", "stark", "footman", "footman", "knight")


def test_3_4_3_supply_card_moves_supply_and_reconciles(rules: Ruleset) -> None:
    s = revealed(rules, "supply", setup=_over_supply)
    assert s.supply["stark"] == 1
    p = prompt(s, "stark")  # armies 3 and 3; supply 1 allows 3 and 2 (1.7.3)
    assert p.kind == "reconcile_supply"
    s = act(s, "stark", SelectUnits((("white-harbor", "knight"),)))
    assert [u.type for u in s.units["white-harbor"]] == ["footman", "footman"]
    assert not s.stack


def test_3_4_4_mustering_card_musters_in_turn_order(rules: Ruleset) -> None:
    s = revealed(rules, "mustering")
    first, second = s.tracks["iron_throne"][:2]
    p = prompt(s, first)
    assert p.kind == "muster"
    assert p.data["area"] == rules.houses[first].home
    s = act(s, first, Choose("done"))
    assert prompt(s, second).data["area"] == rules.houses[second].home


def test_3_4_5_throne_of_blades_holder_picks_mustering(rules: Ruleset) -> None:
    s = revealed(rules, "a-throne-of-blades")
    holder = s.tracks["iron_throne"][0]
    assert set(prompt(s, holder).data["options"]) == {"supply", "mustering", "nothing"}
    s = act(s, holder, Choose("mustering"))
    assert prompt(s, holder).kind == "muster"


def test_3_4_5_throne_of_blades_holder_picks_supply(rules: Ruleset) -> None:
    s = revealed(rules, "a-throne-of-blades", setup=_over_supply)
    holder = s.tracks["iron_throne"][0]
    assert holder != "stark"
    with pytest.raises(NotPending):
        act(s, "stark", Choose("supply"))
    s = act(s, holder, Choose("supply"))
    assert s.supply["stark"] == 1
    assert prompt(s, "stark").kind == "reconcile_supply"


def test_3_4_5_throne_of_blades_nothing(rules: Ruleset) -> None:
    s = revealed(rules, "a-throne-of-blades", setup=_over_supply)
    s = act(s, s.tracks["iron_throne"][0], Choose("nothing"))
    assert s.supply["stark"] == 4
    assert not s.stack


def test_3_4_6_game_of_thrones_gains_a_token_per_crown(rules: Ruleset) -> None:
    def board(s: State) -> None:
        put(s, "castle-black", "stark", "footman")  # 1 crown
        s.power_tokens["karhold"] = "stark"  # 1 crown, held by a power token
        s.power["lannister"] = 19
        s.power_tokens["stoney-sept"] = "lannister"  # 1 crown, but 19 + 1 on board = 20 (1.5.2)

    s = revealed(rules, "game-of-thrones", setup=board)
    assert s.power["stark"] == 5 + 3  # Winterfell (home), Castle Black, Karhold
    assert s.power["lannister"] == 19
    assert s.power["tyrell"] == 5  # Highgarden has no crown


def test_3_4_7_clash_of_kings_starts_the_iron_throne_bid(rules: Ruleset) -> None:
    s = revealed(rules, "clash-of-kings")
    for house in s.houses:
        p = prompt(s, house)
        assert (p.kind, p.data["track"], p.data["max"]) == ("bid", "iron_throne", 5)


def test_3_4_8_dark_wings_raven_holder_picks_game_of_thrones(rules: Ruleset) -> None:
    s = revealed(rules, "dark-wings-dark-words")
    raven = s.tracks["kings_court"][0]
    s = act(s, raven, Choose("game_of_thrones"))
    assert s.power["stark"] == 6
    assert not s.stack


def test_3_4_8_dark_wings_raven_holder_picks_clash_of_kings(rules: Ruleset) -> None:
    s = revealed(rules, "dark-wings-dark-words")
    raven = s.tracks["kings_court"][0]
    with pytest.raises(IllegalChoice):
        act(s, raven, Choose("mustering"))
    s = act(s, raven, Choose("clash_of_kings"))
    assert prompt(s, "stark").kind == "bid"


def test_3_4_9_sea_of_storms_forbids_raids(rules: Ruleset) -> None:
    assert revealed(rules, "sea-of-storms").restrictions == frozenset({"raid"})


def test_3_4_10_rains_of_autumn_forbids_march_plus_one(rules: Ruleset) -> None:
    assert revealed(rules, "rains-of-autumn").restrictions == frozenset({"march+1"})


def test_3_4_11_feast_for_crows_forbids_consolidate_power(rules: Ruleset) -> None:
    assert revealed(rules, "feast-for-crows").restrictions == frozenset({"consolidate_power"})


def test_3_4_12_web_of_lies_forbids_support(rules: Ruleset) -> None:
    assert revealed(rules, "web-of-lies").restrictions == frozenset({"support"})


def test_3_4_13_storm_of_swords_forbids_defense(rules: Ruleset) -> None:
    assert revealed(rules, "storm-of-swords").restrictions == frozenset({"defense"})


def test_3_4_14_put_to_the_sword_blade_holder_picks_no_march_plus_one(rules: Ruleset) -> None:
    s = revealed(rules, "put-to-the-sword")
    blade = s.tracks["fiefdoms"][0]
    assert s.tracks["iron_throne"][0] != blade
    with pytest.raises(NotPending):
        act(s, s.tracks["iron_throne"][0], Choose("no_defense"))
    s = act(s, blade, Choose("no_march+1"))
    assert s.restrictions == frozenset({"march+1"})


def test_3_4_14_put_to_the_sword_may_forbid_nothing(rules: Ruleset) -> None:
    s = revealed(rules, "put-to-the-sword")
    s = act(s, s.tracks["fiefdoms"][0], Choose("nothing"))
    assert s.restrictions == frozenset()


def test_3_4_15_wildlings_attack_card_attacks_at_current_threat(rules: Ruleset) -> None:
    s = blank(rules)
    s.westeros_decks = ((), (), ("wildlings-attack",))
    WesterosPhase().run(s)
    s.pop().run(s)  # resolve the card
    assert s.stack[-1] == WildlingAttack()  # strength None: the current threat (2)
    assert s.threat == 2
