"""Tides of Battle (RULES.md 10; combat step 5.4.5) as the bundled plugin
westeros_tides_of_battle, played through real combats.

The deck for the next combat is stacked by hand (``state.ext["_tides_deck"]``), the way a rule
test places units: the first card goes to the attacker, the second to the defender, the third
to a Blade redraw."""

from __future__ import annotations

import random
from collections import Counter

from tests.builders import act, prompt, put
from westeros.engine.actions import Choose
from westeros.engine.combat import start_combat
from westeros.engine.content import Ruleset
from westeros.engine.flow import advance, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State, Unit
from westeros.engine.view import player_view

from .play import play_for

OPTION = "tides_of_battle"
DECK = "_tides_deck"
# RULES.md 10.1: 8 x 0; 4 x 1 with a sword; 4 x 1 with a fortification; 4 x 2; 2 x 3; 2 skulls.
RULES_DECK = Counter({"zero": 8, "sword": 4, "fortification": 4, "two": 4, "three": 2, "skull": 2})
# RULES.md 8.2 cards without abilities: (strength, swords, fortifications).
JAIME = "ser-jaime-lannister"  # 2, 1 sword
GREATJON = "greatjon-umber"  # 2, 1 sword


def board(rules: Ruleset, tides: bool = True) -> State:
    """An empty 6-player board (turn order and tracks of the 6-player setup, RULES.md 2)."""
    s = new_game(rules, 6, 5, {OPTION: tides}, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    return s


def lannister_attacks_the_twins(
    rules: Ruleset, deck: tuple[str, ...], tides: bool = True, stark_card: str = GREATJON
) -> State:
    """Three Lannister footmen march (March +0) from The Fingers into The Twins, held by three
    Stark footmen (no castle, no garrison, no support); Lannister plays Ser Jaime, Stark
    ``stark_card``. Returns the state once the cards are revealed and everything automatic ran."""
    s = board(rules, tides)
    if tides:
        s.ext[DECK] = deck
    put(s, "the-twins", "stark", "footman", "footman", "footman")
    units = (Unit("lannister", "footman"),) * 3
    start_combat(s, "lannister", "the-fingers", "the-twins", units, "march+0")
    advance(s)
    s = act(s, "lannister", Choose(JAIME))
    return act(s, "stark", Choose(stark_card))


def finish(state: State) -> State:
    """Answer what is left of the combat (the retreat area) with legal choices."""
    rnd = random.Random(0)
    while state.combat is not None and pending(state):
        house = sorted(pending(state))[0]
        state, _ = apply(state, house, random_action(state, house, rnd))
    return state


def count(state: State, house: str) -> int:
    return sum(len(u) for u in state.units.values() if u[0].house == house)


def test_10_1_setup_shuffles_the_24_card_deck_when_the_option_is_on(rules: Ruleset) -> None:
    assert Counter(new_game(rules, 6, 1, {OPTION: True}).ext[DECK]) == RULES_DECK
    assert DECK not in new_game(rules, 6, 1).ext


def test_10_4_card_strength_and_skull_decide_and_cost_units(rules: Ruleset) -> None:
    # attacker 3 footmen + Jaime 2 + "three" 3 = 8; defender 3 + Greatjon 2 + skull 0 = 5.
    s = lannister_attacks_the_twins(rules, ("three", "skull", "zero"))
    assert s.combat.get("tides") == (("attacker", "three"), ("defender", "skull"))
    assert s.combat.get("strength") == (8, 5)
    assert s.combat.winner == "attacker"
    s = finish(s)
    # Jaime's sword: Stark loses 1 footman and retreats 2; Stark's skull: Lannister, although
    # the winner, destroys 1 of its 3 participating footmen and moves in with 2 (10.4).
    assert s.units["the-twins"] == (Unit("lannister", "footman"),) * 2
    assert count(s, "stark") == 2


def test_10_4_without_tides_the_same_combat_is_a_tie_won_on_fiefdoms(rules: Ruleset) -> None:
    # 5 against 5: Stark is above Lannister on the Fiefdoms track (5.4.8); Greatjon's sword
    # costs Lannister a footman, the other two go back to The Fingers.
    s = finish(lannister_attacks_the_twins(rules, (), tides=False))
    assert s.units["the-twins"] == (Unit("stark", "footman"),) * 3
    assert s.units["the-fingers"] == (Unit("lannister", "footman", routed=True),) * 2
    assert DECK not in s.ext


def test_10_4_sword_icon_adds_a_casualty(rules: Ruleset) -> None:
    # 3 + 2 + "sword" 1 = 6 against 3 + 2 + 0 = 5; casualties: Jaime 1 + card 1 sword = 2.
    s = finish(lannister_attacks_the_twins(rules, ("sword", "zero", "zero")))
    assert count(s, "stark") == 1
    assert count(s, "lannister") == 3


def test_10_4_fortification_icon_cancels_a_sword(rules: Ruleset) -> None:
    # 3 + 2 + "two" 2 = 7 against 3 + 2 + "fortification" 1 = 6; casualties 1 - 1 = 0.
    s = lannister_attacks_the_twins(rules, ("two", "fortification", "zero"))
    assert s.combat.get("strength") == (7, 6)
    s = finish(s)
    assert count(s, "stark") == 3
    assert count(s, "lannister") == 3


def test_12_37_the_blackfish_prevents_swords_and_skull(rules: Ruleset) -> None:
    # 3 + Jaime 2 + skull 0 = 5 against 3 + Blackfish 1 + 0 = 4: Stark loses, no casualty.
    s = lannister_attacks_the_twins(rules, ("skull", "zero", "zero"), stark_card="the-blackfish")
    assert s.combat.winner == "attacker"
    s = finish(s)
    assert count(s, "stark") == 3


def greyjoy_attacks(rules: Ruleset, deck: tuple[str, ...]) -> State:
    """Greyjoy, holding the Valyrian Steel Blade (first on Fiefdoms in the 6-player setup),
    attacks three Stark footmen in The Twins with three footmen and Euron (4, 1 sword)."""
    s = board(rules)
    s.ext[DECK] = deck
    put(s, "the-twins", "stark", "footman", "footman", "footman")
    start_combat(s, "greyjoy", "seagard", "the-twins", (Unit("greyjoy", "footman"),) * 3, "march+0")
    advance(s)
    s = act(s, "greyjoy", Choose("euron-crows-eye"))
    return act(s, "stark", Choose("eddard-stark"))


def test_10_3_blade_holder_may_redraw_and_the_blade_is_used(rules: Ruleset) -> None:
    s = greyjoy_attacks(rules, ("zero", "two", "three"))
    p = prompt(s, "greyjoy")
    assert p.kind == "tides_redraw"
    assert p.data["card"] == "zero"
    s = act(s, "greyjoy", Choose("redraw"))
    assert s.blade_used
    assert s.combat.get("tides") == (("attacker", "three"), ("defender", "two"))
    # 3 + Euron 4 + 3 = 10 against 3 + Eddard 4 + 2 = 9: no Blade +1 on top (§12.9).
    assert s.combat.get("strength") == (10, 9)
    assert s.combat.get("blade") is None


def test_10_3_keeping_the_card_leaves_the_blade_unused(rules: Ruleset) -> None:
    s = act(greyjoy_attacks(rules, ("two", "two", "three")), "greyjoy", Choose("keep"))
    assert s.combat.get("tides") == (("attacker", "two"), ("defender", "two"))
    assert s.combat.get("strength") == (9, 9)


def test_0_4_4_drawn_cards_are_secret_until_the_reveal(rules: Ruleset) -> None:
    s = board(rules)
    s.ext[DECK] = ("zero", "two", "three")
    put(s, "the-twins", "stark", "footman", "footman", "footman")
    start_combat(s, "greyjoy", "seagard", "the-twins", (Unit("greyjoy", "footman"),) * 3, "march+0")
    advance(s)
    s = act(s, "greyjoy", Choose("euron-crows-eye"))
    s, events = apply(s, "stark", Choose("eddard-stark"))
    drawn = {e.data["house"]: (e.data["card"], e.to) for e in events if e.kind == "tides_drawn"}
    assert drawn == {"greyjoy": ("zero", {"greyjoy"}), "stark": ("two", {"stark"})}
    for house in ("stark", "greyjoy", None):
        data = player_view(s, house)["combat"]["data"]
        assert "_tides" not in data and "tides" not in data
    assert prompt(s, "stark") is None
    s, events = apply(s, "greyjoy", Choose("keep"))
    (revealed,) = [e for e in events if e.kind == "tides_revealed"]
    assert revealed.to is None
    assert revealed.data["cards"] == {"greyjoy": "zero", "stark": "two"}


def test_10_5_a_full_deck_is_shuffled_for_the_next_combat(rules: Ruleset) -> None:
    s = lannister_attacks_the_twins(rules, ("three", "skull", "zero"))
    assert Counter(s.ext[DECK]) == RULES_DECK


def test_10_game_with_tides_of_battle_plays(rules: Ruleset) -> None:
    state = new_game(rules, 6, 3, {OPTION: True})
    state = play_for(state, 600, seed=3)
    assert state.ext[DECK]
