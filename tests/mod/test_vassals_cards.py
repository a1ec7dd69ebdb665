"""The shared vassal house-card deck (RULES.md 11.7.4, 11.10.8): a fighting vassal's commander
draws 3 of the 7 cards, plays one, and every drawn card goes back after the combat; only the
commander sees them; each card's ability."""

from __future__ import annotations

import random
from typing import Any

import pytest

from westeros.ai import legal
from westeros.engine import board, tracks
from westeros.engine.actions import Choose
from westeros.engine.combat import start_combat
from westeros.engine.content import Ruleset
from westeros.engine.flow import advance, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State, Unit
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
MOUNTAINS = "the-mountains-of-the-moon"
TWINS = "the-twins"
DECK = {
    "varys",
    "syrio-forel",
    "jaqen-h-ghar",
    "janos-slynt",
    "jon-connington",
    "beric-dondarrion",
    "bronn",
}
STARK_CARDS = {
    "eddard-stark",
    "robb-stark",
    "roose-bolton",
    "greatjon-umber",
    "ser-rodrick-cassel",
    "the-blackfish",
    "catelyn-stark",
}


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


@pytest.fixture
def game(rules: Ruleset) -> State:
    """A 4-player vassal game, nothing queued: Baratheon commands Arryn, Stark commands
    Martell; one Stark footman holds The Twins."""
    s = new_game(rules, 4, 1, VASSALS, start=False)
    s.ext["vassal_commanders"] = (
        ("arryn", "baratheon"),
        ("martell", "stark"),
        ("tyrell", "greyjoy"),
    )
    board.add_units(s, TWINS, "stark", ["footman"])
    return s


def arryn_attacks(s: State, hand: tuple[str, ...] | None = None, units: int = 1) -> None:
    """Arryn (a vassal) marches from the Mountains of the Moon into The Twins; ``hand``
    stands for the 3 cards its commander drew."""
    army = (Unit("arryn", "footman"), Unit("arryn", "knight"))[:units]
    board.remove_units(s, MOUNTAINS, list(army))
    start_combat(s, "arryn", MOUNTAINS, TWINS, army, "vassal-march+0")
    if hand is not None:
        s.hands["arryn"] = hand
    advance(s)


def play_cards(s: State, arryn: str, stark: str) -> tuple[State, list[Any]]:
    s, events = apply(s, "arryn", Choose(arryn))
    s, more = apply(s, "stark", Choose(stark))
    return s, [*events, *more]


def finish(s: State, events: list[Any]) -> tuple[State, list[Any]]:
    """Answer whatever the combat still asks at random until it is over."""
    rnd = random.Random(3)
    while s.combat is not None:
        house = min(pending(s))
        s, more = apply(s, house, random_action(s, house, rnd))
        events.extend(more)
    return s, events


def strength(events: list[Any]) -> list[int]:
    return next(e.data["strength"] for e in events if e.kind == "combat_won")


def test_11_10_8_the_commander_draws_3_of_the_7_vassal_cards(game: State) -> None:
    arryn_attacks(game)
    hand = game.hands["arryn"]
    assert len(set(hand)) == 3
    assert set(hand) <= DECK
    assert set(game.hands["stark"]) == STARK_CARDS  # the other side plays from its own hand


def test_11_10_8_a_vassal_holds_no_card_outside_a_combat(game: State) -> None:
    assert game.hands["arryn"] == () and game.discards["arryn"] == ()


def test_11_10_8_only_the_commander_sees_the_drawn_cards(game: State) -> None:
    arryn_attacks(game)
    hand = list(game.hands["arryn"])
    assert player_view(game, "baratheon")["hands"]["arryn"] == hand
    assert player_view(game, "stark")["hands"]["arryn"] == []
    assert player_view(game, None)["hands"]["arryn"] == []
    asked = player_view(game, "baratheon")["answering_for"]["arryn"]["prompt"]
    assert asked["kind"] == "choose_house_card" and asked["data"]["cards"] == hand
    assert player_view(game, "stark")["hands"]["stark"]  # open hands stay open


def test_11_10_8_every_drawn_card_returns_to_the_deck_after_the_combat(game: State) -> None:
    arryn_attacks(game, ("janos-slynt", "varys", "bronn"))
    s, events = play_cards(game, "janos-slynt", "eddard-stark")
    s, events = finish(s, events)
    assert s.hands["arryn"] == () and s.discards["arryn"] == ()
    assert "eddard-stark" in s.discards["stark"]  # a player's card is discarded as usual
    board.add_units(s, MOUNTAINS, "arryn", ["footman"])
    arryn_attacks(s)
    assert len(set(s.hands["arryn"])) == 3  # drawn again from all 7


def test_11_7_4_two_vassals_in_one_combat_draw_6_different_cards(game: State) -> None:
    s = game
    board.remove_units(s, TWINS, [Unit("stark", "footman")])
    board.add_units(s, TWINS, "martell", ["footman"])
    arryn_attacks(s)
    drawn = (*s.hands["arryn"], *s.hands["martell"])
    assert len(set(drawn)) == 6 and set(drawn) <= DECK


def test_11_7_4_varys_puts_the_vassal_first_on_fiefdoms(game: State) -> None:
    assert tracks.holder(game, "fiefdoms") != "arryn"
    arryn_attacks(game, ("varys", "janos-slynt", "bronn"))
    s, _ = finish(*play_cards(game, "varys", "catelyn-stark"))
    assert s.tracks["fiefdoms"][0] == "arryn"


def test_11_7_4_syrio_forel_makes_non_vassal_footmen_0_when_the_vassal_defends(
    game: State,
) -> None:
    def stark_attacks(s: State, arryn_card: str) -> list[int]:
        board.remove_units(s, TWINS, [Unit("stark", "footman")])
        army = (Unit("stark", "footman"), Unit("stark", "footman"))
        start_combat(s, "stark", TWINS, MOUNTAINS, army, "march+0")
        s.hands["arryn"] = (arryn_card, "varys", "bronn")
        advance(s)
        s, events = apply(s, "stark", Choose("catelyn-stark"))
        s, more = apply(s, "arryn", Choose(arryn_card))
        return strength([*events, *more])

    with_syrio = stark_attacks(game.copy(), "syrio-forel")
    with_janos = stark_attacks(game.copy(), "janos-slynt")
    assert with_syrio[0] == 0  # both Stark footmen count 0
    assert with_janos[0] == 2
    # Arryn's own knight (2) and footman (1) still count, with Syrio's 1
    assert with_syrio[1] == 4


def test_11_7_4_jaqen_h_ghar_swaps_the_opponent_s_card_for_a_random_one(game: State) -> None:
    arryn_attacks(game, ("jaqen-h-ghar", "varys", "bronn"))
    s, events = play_cards(game, "jaqen-h-ghar", "eddard-stark")
    replaced = [e.data["card"] for e in events if e.kind == "house_card_replaced"]
    assert len(replaced) == 1 and replaced[0] in STARK_CARDS
    assert s.combat is None or s.combat.defender.card == replaced[0]
    s, events = finish(s, events)
    assert len(s.hands["stark"]) == 6  # Eddard went back to hand: one card is played in all


def test_11_7_4_janos_slynt_has_no_ability_only_its_strength(game: State) -> None:
    arryn_attacks(game, ("janos-slynt", "varys", "bronn"))
    _, events = play_cards(game, "janos-slynt", "catelyn-stark")
    assert strength(events) == [1 + 2, 1]  # footman + Janos against footman + Catelyn


def test_11_7_4_jon_connington_places_a_knight_when_the_vassal_loses(game: State) -> None:
    board.add_units(game, TWINS, "stark", ["footman"])
    arryn_attacks(game, ("jon-connington", "varys", "bronn"))
    s, _ = play_cards(game, "jon-connington", "roose-bolton")
    rnd = random.Random(1)
    while "arryn" not in pending(s) or pending(s)["arryn"].data.get("reason") != "Jon Connington":
        house = min(pending(s))
        s, _ = apply(s, house, random_action(s, house, rnd))
    options = pending(s)["arryn"].data["options"]
    retreat = s.combat.get("retreated_to")
    assert retreat in options and "no_knight" in options
    knights = sum(u.type == "knight" for u in s.units[retreat])
    s, _ = apply(s, "arryn", Choose(retreat))
    assert sum(u.type == "knight" for u in s.units[retreat]) == knights + 1


def test_11_7_4_beric_dondarrion_costs_the_winning_vassal_a_unit(game: State) -> None:
    arryn_attacks(game, ("beric-dondarrion", "varys", "bronn"), units=2)
    s, events = play_cards(game, "beric-dondarrion", "catelyn-stark")
    prompt = pending(s)["arryn"]
    assert prompt.data["reason"] == "Beric Dondarrion"
    assert prompt.data["options"] == ["footman", "knight"]
    s, events = apply(s, "arryn", Choose("knight"))
    s, events = finish(s, events)
    assert [u.type for u in s.units[TWINS]] == ["footman"]  # the knight died, Arryn won


def test_11_7_4_bronn_is_0_when_the_opponent_discards_2_power(game: State) -> None:
    arryn_attacks(game, ("bronn", "varys", "janos-slynt"))
    power = game.power["stark"]
    s, events = play_cards(game, "bronn", "catelyn-stark")
    assert pending(s)["stark"].data["options"] == ["zero_bronn", "keep_power"]
    s, events = apply(s, "stark", Choose("zero_bronn"))
    assert s.power["stark"] == power - 2
    assert strength(events) == [1, 1]  # Arryn's footman alone; Bronn counts 0


def test_11_7_4_bronn_keeps_4_when_the_opponent_keeps_its_power(game: State) -> None:
    arryn_attacks(game, ("bronn", "varys", "janos-slynt"))
    s, _ = play_cards(game, "bronn", "catelyn-stark")
    s, events = apply(s, "stark", Choose("keep_power"))
    assert strength(events) == [1 + 4, 1]


def test_11_10_8_the_ai_answers_with_one_of_the_drawn_cards(game: State, rules: Ruleset) -> None:
    arryn_attacks(game)
    view = player_view(game, "arryn")
    assert view["hands"]["arryn"] == list(game.hands["arryn"])
    action = legal.random_action(view, rules, random.Random(5))
    assert isinstance(action, Choose) and action.option in game.hands["arryn"]
    apply(game, "arryn", action)  # legal
