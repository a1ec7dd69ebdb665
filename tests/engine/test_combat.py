"""Combat between houses (RULES.md 5.4, Appendix A.2): support, strength, card choice, the
Valyrian Steel Blade, the victor, casualties and clean-up; §12 items 1, 5-9."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tests.builders import act, blank, order, play_randomly, prompt, put, run
from westeros import hookimpl
from westeros.engine import board
from westeros.engine.actions import Choose, SelectArea, SelectUnits
from westeros.engine.combat import ATTACKER, DEFENDER, StartCombat
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice, NotPending
from westeros.engine.state import Order, State, Unit
from westeros.engine.view import player_view

# ---------------------------------------------------------------------------------- helpers


def fight(
    state: State, attacker: str, origin: str, area: str, *types: str, token: str = "march+0"
) -> State:
    """Start ``attacker``'s combat from ``origin`` into ``area`` with the units ``types`` (all
    units in ``origin`` if none given), lifted out of ``origin`` as the march does (5.3.8)."""
    units = tuple(Unit(attacker, t) for t in types) if types else state.units[origin]
    board.remove_units(state, origin, units)
    return run(state, StartCombat(attacker, origin, area, units, token))


def hand(state: State, house: str, *cards: str) -> None:
    """Give ``house`` exactly ``cards`` in hand; its other cards are in its discard pile."""
    state.hands[house] = cards
    state.discards[house] = tuple(c for c in state.rules.cards_of[house] if c not in cards)


def play(state: State, **cards: str) -> State:
    """Each named house (keyword) commits the given card in the secret card choice."""
    for house, card in cards.items():
        state = act(state, house, Choose(card))
    return state


def kind(state: State, house: str) -> str | None:
    """The kind of question ``house`` is asked now, or None."""
    p = prompt(state, house)
    return None if p is None else p.kind


def units(state: State, area: str) -> list[tuple[str, str, bool]]:
    """The units in ``area`` as sorted (house, type, routed) triples."""
    return sorted(tuple(u) for u in state.units.get(area, ()))


# ---------------------------------------------------------------------------------- 5.4.1 support


def test_5_4_1_combatants_own_support_always_counts(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "harrenhal", "lannister", "knight")
    order(s, "harrenhal", "support+0")
    put(s, "the-reach", "stark", "footman")
    order(s, "the-reach", "support+1*")
    hand(s, "lannister", "tywin-lannister", "ser-jaime-lannister")
    hand(s, "stark", "eddard-stark", "robb-stark")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert s.combat.attacker.support == ("harrenhal",)
    assert s.combat.defender.support == ("the-reach",)
    # attacker: footman 1 + March +0 + knight 2; defender: footman 1 + footman 1 + Support +1
    assert s.combat.get("initial_strength") == (3, 3)
    assert kind(s, "lannister") == kind(s, "stark") == "choose_house_card"


def test_5_4_1_other_houses_declare_once_in_turn_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "crackclaw-point", "baratheon", "knight")
    order(s, "crackclaw-point", "support+0")
    put(s, "the-reach", "tyrell", "footman")
    order(s, "the-reach", "support+1*")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    # Iron Throne: Baratheon is first, Tyrell last; only one house is asked at a time.
    assert kind(s, "baratheon") == "declare_support"
    assert prompt(s, "baratheon").data["support_areas"] == ["crackclaw-point"]
    assert prompt(s, "tyrell") is None
    s = act(s, "baratheon", Choose(DEFENDER))
    assert kind(s, "tyrell") == "declare_support"
    s = act(s, "tyrell", Choose(ATTACKER))
    assert s.combat.defender.support == ("crackclaw-point",)
    assert s.combat.attacker.support == ("the-reach",)
    # attacker: 1 + 0 + (footman 1 + Support +1); defender: 1 + knight 2
    assert s.combat.get("initial_strength") == (3, 3)


def test_5_4_1_support_for_nobody_counts_for_nobody(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "crackclaw-point", "baratheon", "knight")
    order(s, "crackclaw-point", "support+0")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = act(s, "baratheon", Choose("none"))
    assert s.combat.attacker.support == s.combat.defender.support == ()
    assert s.combat.get("initial_strength") == (1, 1)


def test_5_4_1_land_cannot_support_a_combat_at_sea(rules: Ruleset) -> None:
    s = blank(rules)
    s.blade_used = True
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "support+0")
    put(s, "searoad-marches", "stark", "footman")
    order(s, "searoad-marches", "support+0")
    put(s, "sunset-sea", "stark", "ship")
    order(s, "sunset-sea", "support+0")
    put(s, "ironmans-bay", "greyjoy", "ship")
    s = fight(s, "greyjoy", "ironmans-bay", "the-golden-sound")
    assert s.combat.defender.support == ()
    assert prompt(s, "stark").data["support_areas"] == ["sunset-sea"]


def test_5_4_1_port_supports_only_its_sea_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    order(s, "port-of-lannisport", "support+1*")
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "the-golden-sound", "support+0")
    put(s, "stoney-sept", "stark", "footman")
    s = fight(s, "stark", "stoney-sept", "lannisport")
    assert s.combat.defender.support == ("the-golden-sound",)

    s = blank(rules)
    s.blade_used = True
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    order(s, "port-of-lannisport", "support+1*")
    put(s, "ironmans-bay", "greyjoy", "ship")
    s = fight(s, "greyjoy", "ironmans-bay", "the-golden-sound")
    assert s.combat.defender.support == ("port-of-lannisport",)


def test_5_4_1_support_never_uses_ship_transport(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "kingswood", "stark", "footman")
    put(s, "shipbreaker-bay", "baratheon", "ship")
    put(s, "dragonstone", "baratheon", "knight")
    order(s, "dragonstone", "support+1*")
    put(s, "the-reach", "lannister", "footman")
    s = fight(s, "lannister", "the-reach", "kingswood")
    assert prompt(s, "baratheon") is None
    assert kind(s, "lannister") == "choose_house_card"
    assert s.combat.get("initial_strength") == (1, 1)


def test_5_4_1_declaration_must_name_a_side(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "crackclaw-point", "baratheon", "knight")
    order(s, "crackclaw-point", "support+0")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    before = s.hash()
    with pytest.raises(IllegalChoice):
        act(s, "baratheon", Choose("stark"))
    with pytest.raises(NotPending):
        act(s, "stark", Choose(DEFENDER))
    assert s.hash() == before


# ---------------------------------------------------------------------------------- 5.4.2-5.4.3


def test_5_4_2_initial_strength_adds_units_orders_support_and_garrison(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "defense+2*")
    put(s, "stoney-sept", "lannister", "knight")
    order(s, "stoney-sept", "support+0")
    put(s, "searoad-marches", "stark", "knight", "footman")
    s = fight(s, "stark", "searoad-marches", "lannisport", token="march+1*")
    # attacker: knight 2 + footman 1 + March +1; defender: 1 + Defense +2 + knight 2 + garrison 2
    assert s.combat.get("initial_strength") == (4, 7)


def test_5_4_3_a_single_card_is_played_without_asking(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "stark", "eddard-stark")
    hand(s, "lannister", "tywin-lannister", "the-hound")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert prompt(s, "stark") is None
    assert kind(s, "lannister") == "choose_house_card"
    s = play(s, lannister="the-hound")
    assert s.combat is None
    assert s.discards["stark"][-1] == "eddard-stark"
    assert s.discards["lannister"][-1] == "the-hound"


def test_5_4_3_chosen_cards_stay_hidden_until_both_are_revealed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    one = act(s, "stark", Choose("eddard-stark"))
    other = act(s, "stark", Choose("the-blackfish"))
    for seat in ("lannister", "baratheon", None):
        assert player_view(one, seat) == player_view(other, seat)
    assert player_view(one, "stark")["take_back"]["commitment"]["option"] == "eddard-stark"
    assert player_view(one, "lannister")["combat"]["defender"]["card"] is None
    assert "eddard-stark" in player_view(one, None)["hands"]["stark"]
    done = act(one, "lannister", Choose("the-hound"))
    assert done.combat is None
    assert done.discards["stark"] == ("eddard-stark",)


def test_5_4_3_a_card_not_in_hand_is_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "stark", "robb-stark", "roose-bolton")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    before = s.hash()
    for card in ("eddard-stark", "tywin-lannister", "no-such-card"):
        with pytest.raises(IllegalChoice):
            act(s, "stark", Choose(card))
    assert s.hash() == before


def test_5_4_3_a_house_outside_the_combat_cannot_choose_a_card(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    before = s.hash()
    with pytest.raises(NotPending):
        act(s, "baratheon", Choose("stannis-baratheon"))
    assert s.hash() == before


# ---------------------------------------------------------------------------------- 5.4.6-5.4.8


def test_5_4_7_attacker_total_is_never_below_zero(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "footman", routed=True)
    put(s, "the-reach", "tyrell", "siege_engine")
    hand(s, "tyrell", "queen-of-thorns")
    hand(s, "baratheon", "patchface")
    s = fight(s, "tyrell", "the-reach", "blackwater", token="march-1")
    # Siege engine 0 against a non-castle area, March -1, card 0: -1 counts as 0; the defender
    # also has 0 (a routed footman, card 0), and the tie goes to Tyrell, higher on Fiefdoms.
    assert s.combat.get("strength") == (0, 0)
    assert s.combat.winner == ATTACKER
    s = act(s, "baratheon", Choose("pass"))
    assert units(s, "blackwater") == [("tyrell", "siege_engine", False)]


def test_5_4_8_played_cards_go_to_the_discard_piles(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="eddard-stark", lannister="cersei-lannister")
    assert s.discards == {
        **{h: () for h in s.houses},
        "stark": ("eddard-stark",),
        "lannister": ("cersei-lannister",),
    }
    assert "eddard-stark" not in s.hands["stark"]
    assert len(s.hands["stark"]) == 6


def test_12_8_tie_goes_to_the_house_higher_on_fiefdoms(rules: Ruleset) -> None:
    for attacker, defender, winner in (
        ("baratheon", "lannister", "baratheon"),
        ("lannister", "baratheon", "baratheon"),
    ):
        s = blank(rules)
        s.blade_used = True
        put(s, "blackwater", defender, "footman")
        put(s, "stoney-sept", attacker, "footman")
        hand(s, "baratheon", "brienne-of-tarth")
        hand(s, "lannister", "ser-jaime-lannister")
        s = fight(s, attacker, "stoney-sept", "blackwater")
        # 1 + 2 on both sides; the Blade (Greyjoy's, already used) plays no part.
        assert board.controller(s, "blackwater") == winner


def _blade_duel(s: State) -> State:
    """Greyjoy (Blade holder) attacks with a footman + Dagmar (1): 2 against Stark's footman +
    Greatjon (2): 3; the +1 would tie, and ties go to Greyjoy, first on Fiefdoms."""
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "greyjoy", "footman")
    hand(s, "greyjoy", "dagmar-cleftjaw")
    hand(s, "stark", "greatjon-umber")
    return fight(s, "greyjoy", "stoney-sept", "blackwater")


def test_12_9_the_blade_gives_its_plus_one_only_once_per_round(rules: Ruleset) -> None:
    s = _blade_duel(blank(rules))
    assert prompt(s, "greyjoy").data["options"] == ["use", "pass"]
    s = act(s, "greyjoy", Choose("use"))
    assert s.blade_used
    assert board.controller(s, "blackwater") == "greyjoy"
    s.units.clear()
    s = _blade_duel(s)
    assert prompt(s, "greyjoy") is None
    assert board.controller(s, "blackwater") == "stark"


def test_5_4_6_the_blade_holder_may_decline(rules: Ruleset) -> None:
    s = act(_blade_duel(blank(rules)), "greyjoy", Choose("pass"))
    assert not s.blade_used
    assert board.controller(s, "blackwater") == "stark"


def test_5_4_6_no_blade_question_when_plus_one_changes_nothing(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "greyjoy", "footman")
    hand(s, "greyjoy", "asha-greyjoy")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "greyjoy", "stoney-sept", "blackwater")
    # 2 against 5: +1 cannot change the victor, so Greyjoy is not asked.
    assert s.combat is None
    assert not s.blade_used


# ---------------------------------------------------------------------------------- 5.4.9


def test_5_4_9_the_loser_chooses_its_casualties(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "knight")
    put(s, "the-reach", "stark", "footman")
    order(s, "the-reach", "support+0")
    for area in ("crackclaw-point", "harrenhal", "searoad-marches"):
        put(s, area, "baratheon", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight", "footman")
    hand(s, "lannister", "ser-jaime-lannister")
    hand(s, "stark", "the-blackfish", "roose-bolton")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="roose-bolton")
    p = prompt(s, "stark")
    assert p.kind == "destroy_units" and p.data["count"] == 1
    s = act(s, "stark", SelectUnits((("blackwater", "knight"),)))
    # The survivor retreats (its only legal area holds Stark's supporter); the supporting
    # footman took no casualty.
    assert s.combat is None
    assert units(s, "the-reach") == [("stark", "footman", False), ("stark", "footman", True)]
    assert units(s, "blackwater") == [
        ("lannister", "footman", False),
        ("lannister", "knight", False),
        ("lannister", "knight", False),
    ]


def test_5_4_9_casualty_choice_must_match_the_count(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "knight")
    put(s, "stoney-sept", "lannister", "knight", "knight", "footman")
    hand(s, "lannister", "ser-jaime-lannister")
    hand(s, "stark", "roose-bolton")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    before = s.hash()
    for choice in (
        (),
        (("blackwater", "knight"), ("blackwater", "footman")),
        (("blackwater", "ship"),),
    ):
        with pytest.raises(IllegalChoice):
            act(s, "stark", SelectUnits(choice))
    assert s.hash() == before


def test_12_5_routed_defenders_are_destroyed_before_casualties(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman")
    put(s, "blackwater", "stark", "footman", routed=True)
    put(s, "stoney-sept", "lannister", "knight", "knight")
    hand(s, "lannister", "ser-jaime-lannister")
    hand(s, "stark", "roose-bolton")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = act(s, "stark", SelectArea("searoad-marches"))
    # Routed footman destroyed, then Jaime's 1 sword kills one of the other two.
    assert units(s, "searoad-marches") == [("stark", "footman", True)]
    assert board.units_of(s, "stark")["footman"] == 1


def test_12_6_a_defending_siege_engine_adds_nothing_and_is_destroyed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "harrenhal", "stark", "siege_engine", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight", "footman")
    hand(s, "lannister", "ser-jaime-lannister")
    hand(s, "stark", "roose-bolton")
    s = fight(s, "lannister", "stoney-sept", "harrenhal")
    # Defender: 0 + 1 + 1; attacker: 2 + 1.
    assert s.combat.get("initial_strength") == (3, 2)
    s = act(s, "stark", SelectArea("crackclaw-point"))
    assert units(s, "crackclaw-point") == [("stark", "footman", True)]
    assert board.units_of(s, "stark")["siege_engine"] == 0


def test_12_7_siege_engine_support_counts_only_for_the_attacker_into_a_castle(
    rules: Ruleset,
) -> None:
    def initial(area: str, supporter: str) -> tuple[int, int]:
        s = blank(rules)
        put(s, area, "stark", "footman")
        put(s, "stoney-sept", supporter, "siege_engine")
        order(s, "stoney-sept", "support+0")
        put(s, "riverrun", "lannister", "footman")
        return fight(s, "lannister", "riverrun", area).combat.get("initial_strength")

    assert initial("harrenhal", "lannister") == (5, 1)  # attacker into a castle: 1 + 4
    assert initial("harrenhal", "stark") == (1, 1)  # supporting the defender: 0
    assert initial("blackwater", "lannister") == (1, 1)  # no castle: 0


def test_12_1_an_empty_home_area_with_its_garrison_is_defended(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "stoney-sept", "stark", "knight", "footman")
    hand(s, "lannister", "ser-jaime-lannister", "tywin-lannister")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "stark", "stoney-sept", "lannisport")
    assert s.combat.defender.house == "lannister"
    assert s.combat.get("initial_strength") == (3, 2)
    assert kind(s, "lannister") == "choose_house_card"
    s = play(s, lannister="ser-jaime-lannister")
    # 3 + 4 against 2 + 2: the garrison is removed and Stark moves in.
    assert "lannisport" not in s.garrisons
    assert board.controller(s, "lannisport") == "stark"


def test_12_1_a_garrison_that_wins_stays(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "stoney-sept", "stark", "footman")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "stark", "stoney-sept", "lannisport")
    assert s.garrisons["lannisport"] == 2
    assert units(s, "stoney-sept") == [("stark", "footman", True)]
    assert board.controller(s, "lannisport") == "lannister"


# ---------------------------------------------------------------------------------- 5.4.11, 8.3.2


def test_5_4_11_the_winner_moves_in_and_enemy_orders_go(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    order(s, "blackwater", "defense+1")
    s.power_tokens["blackwater"] = "stark"
    put(s, "stoney-sept", "lannister", "knight", "footman")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "lannister", "stoney-sept", "blackwater", "knight")
    s = act(s, "stark", SelectArea("searoad-marches"))
    assert units(s, "blackwater") == [("lannister", "knight", False)]
    assert "blackwater" not in s.orders
    assert "blackwater" not in s.power_tokens  # an enemy entered: the token returns (1.5.5)
    assert units(s, "stoney-sept") == [("lannister", "footman", False)]
    assert s.combat is None


def test_9_1_a_combat_that_takes_the_seventh_castle_wins_the_game(rules: Ruleset) -> None:
    s = blank(rules)
    for area in ("winterfell", "white-harbor", "moat-cailin", "the-eyrie", "seagard", "riverrun"):
        put(s, area, "stark", "footman")
    put(s, "riverrun", "stark", "footman")
    del s.neutral["the-eyrie"]
    put(s, "harrenhal", "lannister", "footman")
    hand(s, "lannister", "cersei-lannister")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "stark", "riverrun", "harrenhal", "footman")
    assert s.combat is None
    assert s.winner == "stark"


def test_5_4_12_a_winning_defender_keeps_its_orders(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    order(s, "blackwater", "defense+1")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "lannister", "cersei-lannister")
    hand(s, "stark", "the-blackfish")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert s.orders["blackwater"] == Order("stark", "defense+1")
    assert units(s, "stoney-sept") == [("lannister", "footman", True)]


def test_8_3_2_a_house_that_played_its_last_card_takes_back_its_pile(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "stark", "catelyn-stark")
    hand(s, "lannister", "tywin-lannister", "the-hound")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, lannister="the-hound")
    s = act(s, "stark", SelectArea("searoad-marches"))
    assert s.discards["stark"] == ("catelyn-stark",)
    assert sorted(s.hands["stark"]) == sorted(
        c for c in rules.cards_of["stark"] if c != "catelyn-stark"
    )
    assert s.hands["lannister"] == ("tywin-lannister",)


# ---------------------------------------------------------------------------------- plugin hooks


class CombatHooks:
    """A test plugin: +3 strength for the defender, +2 swords for the attacker, and records of
    the plugin combat step and the after-casualties hook."""

    NAME = "test-combat-hooks"

    @hookimpl
    def rule_strength_modifier(self, options: Any) -> Any:
        return lambda state, combat, side: 3 if side == DEFENDER else 0

    @hookimpl
    def rule_icon_modifier(self, options: Any) -> Any:
        return lambda state, combat, side: (2, 0) if side == ATTACKER else (0, 0)

    @hookimpl
    def rule_after_casualties(self, options: Any) -> Any:
        def after(state: State, combat: Any) -> None:
            state.ext["after_casualties"] = len(combat.defender.units)

        return after


def test_5_4_7_plugin_strength_and_icon_modifiers_apply(westeros_ruleset: Any) -> None:
    rules = westeros_ruleset(CombatHooks())
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight", "knight")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    # Attacker 6 + 4 = 10 against 3 + 1 + 3 = 7; swords 0 + 2 against 2 fortifications: none.
    assert s.ext["after_casualties"] == 3
    s = act(s, "stark", SelectArea("searoad-marches"))
    assert len(s.units["searoad-marches"]) == 3

    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    # Attacker 4 + 4 = 8 against 3 + 1 + 3 = 7.
    assert s.combat.get("strength") == (8, 7)


# ---------------------------------------------------------------------------------- random play


def _random_board(rules: Ruleset, rnd: random.Random) -> tuple[State, str, str] | None:
    s = blank(rules)
    tokens = sorted(rules.order_tokens)
    for area in sorted(rules.areas):
        if rnd.random() < 0.5:
            continue
        house = rnd.choice(s.houses)
        if (
            rules.areas[area].kind == "port"
            and board.controller(s, rules.areas[area].attrs["port_of"]) != house
        ):
            continue
        types = ["ship"] if rules.domain[area] == "sea" else ["footman", "knight", "siege_engine"]
        chosen = [rnd.choice(types) for _ in range(rnd.randint(1, 3))]
        if any(board.available(s, house, t) < chosen.count(t) for t in chosen):
            continue
        s.units[area] = tuple(Unit(house, t, rnd.random() < 0.1) for t in chosen)
        if rnd.random() < 0.6:
            s.orders[area] = Order(house, rnd.choice(tokens))
    for house in s.houses:
        cards = list(rules.cards_of[house])
        rnd.shuffle(cards)
        cut = rnd.randint(1, 7)
        s.hands[house], s.discards[house] = tuple(cards[:cut]), tuple(cards[cut:])
        s.power[house] = rnd.randint(0, 6)
        s.supply[house] = rnd.randint(0, 6)
    pairs = [
        (a, b)
        for a in sorted(s.units)
        if rules.areas[a].kind != "port" and any(not u.routed for u in s.units[a])
        for b in sorted(rules.adjacency[a])
        if rules.domain[b] == rules.domain[a]
        and rules.areas[b].kind != "port"
        and board.occupant(s, b) not in (None, s.units[a][0].house)
    ]
    if not pairs:
        return None
    origin, area = rnd.choice(pairs)
    return s, origin, area


def test_5_4_random_combats_keep_the_board_consistent(rules: Ruleset) -> None:
    fought = 0
    for seed in range(150):
        rnd = random.Random(seed)
        made = _random_board(rules, rnd)
        if made is None:
            continue
        s, origin, area = made
        house = s.units[origin][0].house
        movers = tuple(Unit(house, u.type) for u in s.units[origin] if not u.routed)
        s.orders.pop(origin, None)
        cards = {h: Counter(s.hands[h] + s.discards[h]) for h in s.houses}
        board.remove_units(s, origin, movers)
        run(
            s,
            StartCombat(
                house, origin, area, movers, rnd.choice(["march-1", "march+0", "march+1*"])
            ),
        )
        s = play_randomly(s, rnd)
        fought += 1
        assert s.combat is None and not s.stack
        for where, present in s.units.items():
            assert len({u.house for u in present}) == 1
            assert rules.domain[where] == rules.unit_types[present[0].type].domain
        for h in s.houses:
            assert Counter(s.hands[h] + s.discards[h]) == cards[h]
            for unit_type, count in board.units_of(s, h).items():
                assert count <= rules.houses[h].unit_limits[unit_type]
    assert fought > 100
