"""The 42 base house cards (RULES.md 8.2) and the §12 card cases 27-35 and 37.

Printed values in the tests are copied from the table of RULES.md 8.2."""

from __future__ import annotations

from typing import Any

import pytest

from tests.builders import blank, order, prompt, put
from tests.engine.test_combat import fight, hand, units
from westeros import hookimpl
from westeros.engine import board, tracks
from westeros.engine.action_phase import MARCH, houses_with
from westeros.engine.actions import Action, Choose, SelectArea
from westeros.engine.combat import ATTACKER, DEFENDER, CardAbility, Combat
from westeros.engine.content import HouseCard, Ruleset
from westeros.engine.errors import IllegalChoice, IllegalTarget
from westeros.engine.flow import apply
from westeros.engine.state import Order, State

BLOCKERS = ("baratheon", "tyrell", "martell", "greyjoy")


def act(state: State, house: str, action: Action) -> State:
    """Apply one decision, keeping its events on the new state (``strength`` reads them)."""
    new, events = apply(state, house, action)
    new.events = events
    return new


def play(state: State, **cards: str) -> State:
    """Each named house (keyword) commits the given card in the secret card choice."""
    for house, card in cards.items():
        state = act(state, house, Choose(card))
    return state


def strength(state: State) -> tuple[int, int]:
    """Final (attacker, defender) strength of the current combat, or of the last one resolved
    inside ``fight`` (read from its events)."""
    if state.combat is not None and state.combat.get("strength") is not None:
        return state.combat.get("strength")
    won = [e for e in state.events if e.kind == "combat_won"]
    attacker, defender = won[-1].data["strength"]
    return attacker, defender


def block(state: State, *houses: str, keep: str = "harrenhal") -> None:
    """Fill the empty land areas around Blackwater, except ``keep``, with a house not in
    ``houses`` (King's Landing holds a neutral force), so a loser there has one retreat."""
    blocker = next(h for h in BLOCKERS if h not in houses)
    for area in ("crackclaw-point", "harrenhal", "searoad-marches", "stoney-sept", "the-reach"):
        if area != keep and area not in state.units:
            put(state, area, blocker, "footman")


# ---------------------------------------------------------------------------------- no ability


def vanilla(rules: Ruleset, house: str, card: str, printed: tuple[int, int, int]) -> None:
    """A card without ability decides a combat by its printed (strength, swords, forts) alone.

    1. It attacks Blackwater with k footmen against 3 footmen and an opposing card of strength
       r without icons, k chosen so that it wins by exactly 1 (ties would go to the defender,
       placed first on Fiefdoms); its swords kill that many of the 3 footmen.
    2. It defends Blackwater with 3 footmen against an attacker with known swords who wins by
       exactly 1 (ties would go to it); swords − its fortifications footmen die."""
    power, swords, forts = printed
    opponent, their_card, their_power = (
        ("lannister", "tywin-lannister", 4) if house == "stark" else ("stark", "robb-stark", 3)
    )
    s = blank(rules)
    s.blade_used = True
    s.tracks["fiefdoms"] = (opponent, *(h for h in s.tracks["fiefdoms"] if h != opponent))
    footmen = 4 + their_power - power
    put(s, "blackwater", opponent, "footman", "footman", "footman")
    put(s, "stoney-sept", house, *["footman"] * footmen)
    block(s, house, opponent)
    hand(s, house, card)
    hand(s, opponent, their_card)
    s = fight(s, house, "stoney-sept", "blackwater")
    assert strength(s) == (footmen + power, 3 + their_power)
    assert board.controller(s, "blackwater") == house
    assert len(s.units.get("harrenhal", ())) == 3 - min(3, swords)

    attacker, attack_card, attack_power, attack_swords = (
        ("stark", "eddard-stark", 4, 2)
        if house == "lannister"
        else ("lannister", "ser-gregor-clegane", 3, 3)
    )
    s = blank(rules)
    s.blade_used = True
    s.tracks["fiefdoms"] = (house, *(h for h in s.tracks["fiefdoms"] if h != house))
    footmen = 4 + power - attack_power
    put(s, "blackwater", house, "footman", "footman", "footman")
    put(s, "stoney-sept", attacker, *["footman"] * footmen)
    block(s, house, attacker)
    hand(s, house, card)
    hand(s, attacker, attack_card)
    s = fight(s, attacker, "stoney-sept", "blackwater")
    assert strength(s) == (footmen + attack_power, 3 + power)
    assert board.controller(s, "blackwater") == attacker
    assert len(s.units.get("harrenhal", ())) == 3 - min(3, max(0, attack_swords - forts))


def test_8_2_eddard_stark(rules: Ruleset) -> None:
    vanilla(rules, "stark", "eddard-stark", (4, 2, 0))


def test_8_2_greatjon_umber(rules: Ruleset) -> None:
    vanilla(rules, "stark", "greatjon-umber", (2, 1, 0))


def test_8_2_ser_rodrick_cassel(rules: Ruleset) -> None:
    vanilla(rules, "stark", "ser-rodrick-cassel", (1, 0, 2))


def test_8_2_ser_gregor_clegane(rules: Ruleset) -> None:
    vanilla(rules, "lannister", "ser-gregor-clegane", (3, 3, 0))


def test_8_2_ser_jaime_lannister(rules: Ruleset) -> None:
    vanilla(rules, "lannister", "ser-jaime-lannister", (2, 1, 0))


def test_8_2_the_hound(rules: Ruleset) -> None:
    vanilla(rules, "lannister", "the-hound", (2, 0, 2))


def test_8_2_euron_crows_eye(rules: Ruleset) -> None:
    vanilla(rules, "greyjoy", "euron-crows-eye", (4, 1, 0))


def test_8_2_dagmar_cleftjaw(rules: Ruleset) -> None:
    vanilla(rules, "greyjoy", "dagmar-cleftjaw", (1, 1, 1))


def test_8_2_brienne_of_tarth(rules: Ruleset) -> None:
    vanilla(rules, "baratheon", "brienne-of-tarth", (2, 1, 1))


def test_8_2_melisandre(rules: Ruleset) -> None:
    vanilla(rules, "baratheon", "melisandre", (1, 1, 0))


def test_8_2_randyll_tarly(rules: Ruleset) -> None:
    vanilla(rules, "tyrell", "randyll-tarly", (2, 1, 0))


def test_8_2_ser_garlan_tyrell(rules: Ruleset) -> None:
    vanilla(rules, "tyrell", "ser-garlan-tyrell", (2, 2, 0))


def test_8_2_margaery_tyrell(rules: Ruleset) -> None:
    vanilla(rules, "tyrell", "margaery-tyrell", (1, 0, 1))


def test_8_2_alester_florent(rules: Ruleset) -> None:
    vanilla(rules, "tyrell", "alester-florent", (1, 0, 1))


def test_8_2_the_red_viper(rules: Ruleset) -> None:
    vanilla(rules, "martell", "the-red-viper", (4, 2, 1))


def test_8_2_areo_hotah(rules: Ruleset) -> None:
    vanilla(rules, "martell", "areo-hotah", (3, 0, 1))


def test_8_2_obara_sand(rules: Ruleset) -> None:
    vanilla(rules, "martell", "obara-sand", (2, 1, 0))


def test_8_2_darkstar(rules: Ruleset) -> None:
    vanilla(rules, "martell", "darkstar", (2, 1, 0))


# ---------------------------------------------------------------------------------- Stark


def test_8_2_robb_stark(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    put(s, "crackclaw-point", "baratheon", "footman")
    put(s, "harrenhal", "baratheon", "footman")
    hand(s, "stark", "robb-stark")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    # Robb defends and wins (5 against 2): Stark picks the attacker's retreat, among the areas
    # a loser could retreat to plus the origin (S&R, 5.4.10).
    assert prompt(s, "lannister") is None
    assert prompt(s, "stark").data["areas"] == ["searoad-marches", "stoney-sept", "the-reach"]
    s = act(s, "stark", SelectArea("the-reach"))
    assert units(s, "the-reach") == [("lannister", "knight", True)]


def test_8_2_roose_bolton(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "knight", "knight")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "stark", "roose-bolton", "eddard-stark")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="roose-bolton")
    # Roose won: nothing comes back.
    assert s.hands["stark"] == ("eddard-stark",)
    assert "roose-bolton" in s.discards["stark"]


def test_12_35_roose_bolton_loses_and_the_whole_pile_returns(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    block(s, "stark", "lannister")
    hand(s, "stark", "roose-bolton", "eddard-stark")
    hand(s, "lannister", "the-hound")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="roose-bolton")
    assert sorted(s.hands["stark"]) == sorted(rules.cards_of["stark"])
    assert s.discards["stark"] == ()


def test_8_2_the_blackfish(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    block(s, "stark", "lannister")
    hand(s, "stark", "the-blackfish")
    hand(s, "lannister", "ser-gregor-clegane")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    # Gregor's 3 swords kill nothing.
    assert units(s, "harrenhal") == [("stark", "footman", True)] * 2
    # Nor does Mace Tyrell's ability.
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "the-reach", "tyrell", "knight", "knight")
    hand(s, "stark", "the-blackfish")
    hand(s, "tyrell", "mace-tyrell")
    block(s, "stark", "tyrell", keep="searoad-marches")
    s = fight(s, "tyrell", "the-reach", "blackwater")
    assert units(s, "searoad-marches") == [("stark", "footman", True)]


def test_12_37_the_blackfish_still_loses_routed_units_siege_engines_and_supply(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    s.supply["stark"] = 5  # armies allowed: 4, 3, 2, 2
    put(s, "harrenhal", "stark", "footman", "footman", "siege_engine")
    put(s, "harrenhal", "stark", "footman", routed=True)
    put(s, "riverrun", "stark", "footman", "footman", "footman")
    put(s, "blackwater", "baratheon", "footman")
    put(s, "crackclaw-point", "baratheon", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight", "footman")
    hand(s, "stark", "the-blackfish")
    hand(s, "lannister", "ser-gregor-clegane")
    s = fight(s, "lannister", "stoney-sept", "harrenhal")
    # No sword casualties, but the routed footman and the siege engine are destroyed, and only
    # one of the two retreating footmen fits Riverrun (an army of 4 is the largest allowed).
    assert board.units_of(s, "stark") == {"footman": 4}
    assert units(s, "riverrun") == [("stark", "footman", False)] * 3 + [("stark", "footman", True)]


def test_8_2_catelyn_stark(rules: Ruleset) -> None:
    for token, total in (("defense+1", 1 + 2), ("defense+2*", 1 + 4)):
        s = blank(rules)
        put(s, "blackwater", "stark", "footman")
        order(s, "blackwater", token)
        put(s, "stoney-sept", "lannister", "footman")
        hand(s, "stark", "catelyn-stark")
        hand(s, "lannister", "cersei-lannister")
        s = fight(s, "lannister", "stoney-sept", "blackwater")
        assert strength(s) == (1, total)
    s = blank(rules)
    put(s, "blackwater", "lannister", "footman")
    put(s, "stoney-sept", "stark", "footman")
    hand(s, "stark", "catelyn-stark")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "stark", "stoney-sept", "blackwater", token="march+1*")
    assert strength(s) == (2, 1)  # attacking, the March bonus is not doubled


# ---------------------------------------------------------------------------------- Lannister


def test_8_2_tywin_lannister(rules: Ruleset) -> None:
    for defenders, gained in ((1, 2), (3, 0)):
        s = blank(rules)
        s.power["lannister"] = 17
        put(s, "blackwater", "stark", *["knight"] * defenders)
        put(s, "stoney-sept", "lannister", "footman")
        block(s, "stark", "lannister")
        hand(s, "lannister", "tywin-lannister")
        hand(s, "stark", "ser-rodrick-cassel")
        s = fight(s, "lannister", "stoney-sept", "blackwater")
        assert s.power["lannister"] == 17 + gained
    s = blank(rules)
    s.power["lannister"] = 19  # the gain is capped at 20 tokens (1.5.2)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    block(s, "stark", "lannister")
    hand(s, "lannister", "tywin-lannister")
    hand(s, "stark", "ser-rodrick-cassel")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert s.power["lannister"] == 20


def test_8_2_ser_kevan_lannister(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "harrenhal", "lannister", "footman")
    put(s, "harrenhal", "lannister", "footman", routed=True)
    order(s, "harrenhal", "support+0")
    put(s, "the-reach", "tyrell", "footman")
    order(s, "the-reach", "support+0")
    put(s, "stoney-sept", "lannister", "footman", "footman")
    hand(s, "lannister", "ser-kevan-lannister")
    hand(s, "stark", "robb-stark")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = act(s, "tyrell", Choose(ATTACKER))
    # 2 footmen x 2 + supporting footman 2 (the routed one 0) + Tyrell's footman 1 + Kevan 1.
    assert strength(s) == (8, 6)
    s = blank(rules)
    put(s, "blackwater", "lannister", "footman", "footman")
    put(s, "stoney-sept", "stark", "footman")
    hand(s, "lannister", "ser-kevan-lannister")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "stark", "stoney-sept", "blackwater")
    assert strength(s) == (1, 3)  # defending: footmen are worth 1


def test_8_2_tyrion_lannister(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    block(s, "stark", "lannister")
    hand(s, "lannister", "tyrion-lannister")
    hand(s, "stark", "eddard-stark", "catelyn-stark", "robb-stark")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="eddard-stark")
    assert prompt(s, "lannister").data["options"] == ["yes", "no"]
    assert act(s, "lannister", Choose("no")).discards["stark"][-1] == "eddard-stark"
    s = act(s, "lannister", Choose("yes"))
    p = prompt(s, "stark")
    assert p.kind == "choose_house_card"
    assert p.data["cards"] == ["catelyn-stark", "robb-stark"]
    before = s.hash()
    with pytest.raises(IllegalChoice):
        act(s, "stark", Choose("eddard-stark"))
    assert s.hash() == before
    s = act(s, "stark", Choose("catelyn-stark"))
    # Knight 2 + Tyrion 1 beat footman 1 + Catelyn 0; Eddard went back to the hand.
    assert strength(s) == (3, 1)
    assert sorted(s.hands["stark"]) == ["eddard-stark", "robb-stark"]
    assert s.discards["stark"][-1] == "catelyn-stark"


def test_12_28_tyrion_cancels_the_only_card_and_the_opponent_fights_without_one(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    block(s, "stark", "lannister")
    hand(s, "lannister", "tyrion-lannister")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = act(s, "lannister", Choose("yes"))
    # Strength 0, no icons: 2 footmen against knight 2 + Tyrion 1, no casualties.
    assert strength(s) == (3, 2)
    assert units(s, "harrenhal") == [("stark", "footman", True)] * 2
    assert s.hands["stark"] == ("eddard-stark",)
    assert "eddard-stark" not in s.discards["stark"]


def test_8_2_cersei_lannister(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    order(s, "blackwater", "defense+1")
    put(s, "winterfell", "stark", "footman")
    order(s, "winterfell", "consolidate_power+0")
    put(s, "karhold", "stark", "footman")
    order(s, "karhold", "raid+0")
    put(s, "the-reach", "baratheon", "footman")
    order(s, "the-reach", "raid+0")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    block(s, "stark", "lannister")
    hand(s, "lannister", "cersei-lannister")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    p = prompt(s, "lannister")
    assert p.data["areas"] == ["karhold", "winterfell"] and p.data["optional"]
    before = s.hash()
    for area in ("blackwater", "the-reach"):
        with pytest.raises(IllegalTarget):
            act(s, "lannister", SelectArea(area))
    assert s.hash() == before
    assert act(s, "lannister", SelectArea(None)).orders["winterfell"].house == "stark"
    s = act(s, "lannister", SelectArea("winterfell"))
    assert "winterfell" not in s.orders and "karhold" in s.orders
    assert "blackwater" not in s.orders


# ---------------------------------------------------------------------------------- Greyjoy


def test_8_2_victarion_greyjoy(rules: Ruleset) -> None:
    s = blank(rules)
    s.blade_used = True
    put(s, "the-golden-sound", "lannister", "ship")
    put(s, "sunset-sea", "greyjoy", "ship")
    order(s, "sunset-sea", "support+0")
    put(s, "ironmans-bay", "greyjoy", "ship", "ship")
    hand(s, "greyjoy", "victarion-greyjoy")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "greyjoy", "ironmans-bay", "the-golden-sound")
    assert strength(s) == (2 * 2 + 2 + 3, 1)
    s = blank(rules)
    s.blade_used = True
    put(s, "the-golden-sound", "greyjoy", "ship", "ship")
    put(s, "ironmans-bay", "lannister", "ship")
    hand(s, "greyjoy", "victarion-greyjoy")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "ironmans-bay", "the-golden-sound")
    assert strength(s) == (1, 2 + 3)  # defending: ships are worth 1


def test_8_2_balon_greyjoy(rules: Ruleset) -> None:
    s = blank(rules)
    s.blade_used = True
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "greyjoy", "footman")
    hand(s, "greyjoy", "balon-greyjoy")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "greyjoy", "stoney-sept", "blackwater")
    assert strength(s) == (1 + 2, 1 + 0)
    # Stannis's own +1 still applies when Greyjoy is higher on the Iron Throne track.
    s = blank(rules)
    s.blade_used = True
    s.tracks["iron_throne"] = ("greyjoy", *(h for h in s.tracks["iron_throne"] if h != "greyjoy"))
    put(s, "blackwater", "baratheon", "footman")
    put(s, "stoney-sept", "greyjoy", "footman")
    hand(s, "greyjoy", "balon-greyjoy")
    hand(s, "baratheon", "stannis-baratheon")
    s = fight(s, "greyjoy", "stoney-sept", "blackwater")
    assert strength(s) == (1 + 2, 1 + 0 + 1)


def test_8_2_theon_greyjoy(rules: Ruleset) -> None:
    for area, expected, lannister_left in (("harrenhal", 1 + 3, 0), ("blackwater", 1 + 2, 1)):
        s = blank(rules)
        s.blade_used = True
        put(s, area, "greyjoy", "footman")
        put(s, "stoney-sept", "lannister", "footman")
        hand(s, "greyjoy", "theon-greyjoy")
        hand(s, "lannister", "cersei-lannister")
        s = fight(s, "lannister", "stoney-sept", area)
        assert strength(s) == (1, expected)
        assert board.units_of(s, "lannister")["footman"] == lannister_left
    s = blank(rules)
    s.blade_used = True
    put(s, "harrenhal", "lannister", "footman")
    put(s, "stoney-sept", "greyjoy", "footman")
    hand(s, "greyjoy", "theon-greyjoy")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "greyjoy", "stoney-sept", "harrenhal")
    assert strength(s) == (1 + 2, 1)  # attacking: no bonus


def test_8_2_asha_greyjoy(rules: Ruleset) -> None:
    for supported, survivors in ((False, 1), (True, 3)):
        s = blank(rules)
        s.blade_used = True
        put(s, "blackwater", "stark", "footman", "footman", "footman")
        put(s, "the-reach", "greyjoy" if supported else "baratheon", "footman")
        if supported:
            order(s, "the-reach", "support+0")
        put(s, "stoney-sept", "greyjoy", "knight", "knight", "knight")
        block(s, "stark", "greyjoy")
        hand(s, "greyjoy", "asha-greyjoy")
        hand(s, "stark", "catelyn-stark")
        s = fight(s, "greyjoy", "stoney-sept", "blackwater")
        # Attacking and winning: unsupported, Asha's 2 swords kill 2 of the 3 footmen.
        assert len(s.units["harrenhal"]) == survivors
    for supported, survivors in ((False, 3), (True, 2)):
        s = blank(rules)
        s.supply["greyjoy"] = 5  # an army of 4 fits
        put(s, "blackwater", "greyjoy", "footman", "footman", "footman")
        put(s, "the-reach", "greyjoy", "footman")
        if supported:
            order(s, "the-reach", "support+0")
        put(s, "stoney-sept", "lannister", "knight", "knight", "knight", "knight")
        block(s, "greyjoy", "lannister", keep="the-reach")
        hand(s, "greyjoy", "asha-greyjoy")
        hand(s, "lannister", "ser-jaime-lannister")
        s = fight(s, "lannister", "stoney-sept", "blackwater")
        # Defending and losing: unsupported, Asha's fortification stops Jaime's sword. The
        # survivors retreat into the Reach, next to the Greyjoy footman there.
        assert len(s.units["the-reach"]) == 1 + survivors


def test_8_2_aeron_damphair(rules: Ruleset) -> None:
    s = blank(rules)
    s.blade_used = True
    s.power["greyjoy"] = 3
    put(s, "blackwater", "stark", "footman", "footman")
    put(s, "stoney-sept", "greyjoy", "knight")
    block(s, "stark", "greyjoy")
    hand(s, "greyjoy", "aeron-damphair", "euron-crows-eye", "balon-greyjoy")
    hand(s, "stark", "greatjon-umber")
    s = fight(s, "greyjoy", "stoney-sept", "blackwater")
    s = play(s, greyjoy="aeron-damphair")
    assert prompt(s, "greyjoy").data["options"] == ["yes", "no"]
    kept = act(s, "greyjoy", Choose("no"))
    assert strength(kept) == (2 + 0, 2 + 2) and kept.power["greyjoy"] == 3
    s = act(s, "greyjoy", Choose("yes"))
    assert s.power["greyjoy"] == 1
    assert "aeron-damphair" in s.discards["greyjoy"]
    assert prompt(s, "greyjoy").data["cards"] == ["euron-crows-eye", "balon-greyjoy"]
    s = act(s, "greyjoy", Choose("balon-greyjoy"))
    # Balon's constant ability now applies: Greatjon counts 0.
    assert strength(s) == (2 + 2, 2 + 0)
    assert s.hands["greyjoy"] == ("euron-crows-eye",)


def test_12_29_aeron_without_two_power_or_another_card_stays(rules: Ruleset) -> None:
    for power, cards in ((1, ("aeron-damphair", "euron-crows-eye")), (5, ("aeron-damphair",))):
        s = blank(rules)
        s.blade_used = True
        s.power["greyjoy"] = power
        put(s, "blackwater", "stark", "footman", "footman")
        put(s, "stoney-sept", "greyjoy", "knight")
        block(s, "stark", "greyjoy")
        hand(s, "greyjoy", *cards)
        hand(s, "stark", "greatjon-umber")
        s = fight(s, "greyjoy", "stoney-sept", "blackwater")
        if len(cards) > 1:
            s = play(s, greyjoy="aeron-damphair")
        assert s.combat is None
        assert strength(s) == (2, 4)
        assert s.power["greyjoy"] == power
        assert s.discards["greyjoy"][-1] == "aeron-damphair"


# ---------------------------------------------------------------------------------- Baratheon


def test_8_2_stannis_baratheon(rules: Ruleset) -> None:
    for first, bonus in (("baratheon", 0), ("stark", 1)):
        s = blank(rules)
        s.tracks["iron_throne"] = (first, *(h for h in s.tracks["iron_throne"] if h != first))
        put(s, "blackwater", "stark", "footman")
        put(s, "stoney-sept", "baratheon", "footman")
        hand(s, "baratheon", "stannis-baratheon")
        hand(s, "stark", "catelyn-stark")
        s = fight(s, "baratheon", "stoney-sept", "blackwater")
        assert strength(s) == (1 + 4 + bonus, 1)


def test_8_2_renly_baratheon(rules: Ruleset) -> None:
    def setup(knights_elsewhere: int) -> State:
        s = blank(rules)
        put(s, "blackwater", "stark", "footman")
        put(s, "crackclaw-point", "baratheon", "footman")
        order(s, "crackclaw-point", "support+0")
        if knights_elsewhere:
            put(s, "kingswood", "baratheon", *["knight"] * knights_elsewhere)
        put(s, "stoney-sept", "baratheon", "footman", "knight")
        block(s, "stark", "baratheon", "tyrell")
        hand(s, "baratheon", "renly-baratheon")
        hand(s, "stark", "catelyn-stark")
        return fight(s, "baratheon", "stoney-sept", "blackwater")

    s = setup(0)
    p = prompt(s, "baratheon")
    assert p.data["areas"] == ["blackwater", "crackclaw-point"] and p.data["optional"]
    assert units(act(s, "baratheon", SelectArea(None)), "blackwater") == [
        ("baratheon", "footman", False),
        ("baratheon", "knight", False),
    ]
    assert units(act(s, "baratheon", SelectArea("crackclaw-point")), "crackclaw-point") == [
        ("baratheon", "knight", False)
    ]
    s = act(s, "baratheon", SelectArea("blackwater"))
    assert units(s, "blackwater") == [("baratheon", "knight", False)] * 2
    # All 5 knights in use (one of them in the attacking army): no upgrade is offered.
    s = setup(4)
    assert prompt(s, "baratheon") is None
    assert board.units_of(s, "baratheon")["knight"] == 5


def test_8_2_ser_davos_seaworth(rules: Ruleset) -> None:
    for cards, expected, stark_left in (
        (("ser-davos-seaworth",), (4 + 3, 6), 2),
        (("ser-davos-seaworth", "stannis-baratheon"), (4 + 2, 6), 3),
    ):
        s = blank(rules)
        put(s, "blackwater", "stark", "footman", "footman", "footman")
        put(s, "stoney-sept", "baratheon", "knight", "knight")
        block(s, "stark", "baratheon")
        hand(s, "baratheon", *cards)
        hand(s, "stark", "robb-stark")
        s = fight(s, "baratheon", "stoney-sept", "blackwater")
        if len(cards) > 1:
            s = play(s, baratheon="ser-davos-seaworth")
        assert strength(s) == expected
        assert board.units_of(s, "stark")["footman"] == stark_left


def test_8_2_salladhor_saan(rules: Ruleset) -> None:
    def setup(supported: bool) -> State:
        s = blank(rules)
        s.blade_used = True
        put(s, "shipbreaker-bay", "baratheon", "ship", "ship")
        if supported:
            put(s, "port-of-dragonstone", "baratheon", "ship")
            order(s, "port-of-dragonstone", "support+0")
        put(s, "east-summer-sea", "martell", "ship")
        order(s, "east-summer-sea", "support+0")
        put(s, "blackwater-bay", "greyjoy", "ship", "ship", "ship")
        hand(s, "baratheon", "salladhor-saan")
        hand(s, "greyjoy", "dagmar-cleftjaw")
        s = fight(s, "greyjoy", "blackwater-bay", "shipbreaker-bay")
        return act(s, "martell", Choose(DEFENDER if supported else "none"))

    # Supported: Greyjoy's ships and Martell's supporting ship count 0, Baratheon's count.
    assert strength(setup(True)) == (0 + 1, 2 + 1 + 0 + 1)
    assert strength(setup(False)) == (3 + 1, 2 + 1)


def test_8_2_patchface(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "baratheon", "footman")
    hand(s, "baratheon", "patchface")
    hand(s, "stark", "eddard-stark", "greatjon-umber")
    s = fight(s, "baratheon", "stoney-sept", "blackwater")
    s = play(s, stark="greatjon-umber")
    p = prompt(s, "baratheon")
    assert p.data["options"] == ["eddard-stark", "pass"]
    assert act(s, "baratheon", Choose("pass")).hands["stark"] == ("eddard-stark",)
    s = act(s, "baratheon", Choose("eddard-stark"))
    # The hand is empty: Stark takes back its pile except the card Patchface discarded.
    assert s.discards["stark"] == ("eddard-stark",)
    assert sorted(s.hands["stark"]) == sorted(
        c for c in rules.cards_of["stark"] if c != "eddard-stark"
    )


def test_12_34_patchface_looks_at_the_refilled_hand(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "baratheon", "footman")
    hand(s, "baratheon", "patchface")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "baratheon", "stoney-sept", "blackwater")
    others = [c for c in rules.cards_of["stark"] if c != "catelyn-stark"]
    assert prompt(s, "baratheon").data["options"] == [*s.hands["stark"], "pass"]
    assert sorted(s.hands["stark"]) == sorted(others)
    s = act(s, "baratheon", Choose("eddard-stark"))
    assert sorted(s.discards["stark"]) == ["catelyn-stark", "eddard-stark"]


# ---------------------------------------------------------------------------------- Tyrell


def test_8_2_mace_tyrell(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "knight")
    put(s, "blackwater", "stark", "footman", routed=True)
    put(s, "blackwater", "stark", "footman")
    put(s, "the-reach", "tyrell", "footman")
    hand(s, "tyrell", "mace-tyrell")
    hand(s, "stark", "eddard-stark")
    block(s, "stark", "tyrell", keep="searoad-marches")
    s = fight(s, "tyrell", "the-reach", "blackwater")
    # The unrouted footman dies at once: Stark fights with knight 2 + routed 0 + Eddard 4.
    assert strength(s) == (1 + 4, 2 + 0 + 4)
    assert board.units_of(s, "stark") == {"knight": 1, "footman": 1}
    # Against knights alone Mace destroys nothing.
    s = blank(rules)
    put(s, "blackwater", "stark", "knight")
    put(s, "the-reach", "tyrell", "footman")
    hand(s, "tyrell", "mace-tyrell")
    hand(s, "stark", "eddard-stark")
    s = fight(s, "tyrell", "the-reach", "blackwater")
    assert strength(s) == (5, 6)


def test_12_30_mace_kills_the_only_defender_and_the_combat_goes_on(rules: Ruleset) -> None:
    for support, winner in ((False, "tyrell"), (True, "stark")):
        s = blank(rules)
        put(s, "winterfell", "stark", "footman")
        if support:
            put(s, "karhold", "stark", "knight")
            order(s, "karhold", "support+1*")
            put(s, "castle-black", "stark", "knight")
            order(s, "castle-black", "support+0")
        put(s, "moat-cailin", "tyrell", "knight", "knight")
        hand(s, "tyrell", "mace-tyrell")
        hand(s, "stark", "roose-bolton")
        s = fight(s, "tyrell", "moat-cailin", "winterfell")
        assert board.units_of(s, "stark")["footman"] == 0
        # Stark: garrison 2 + Roose 2 (+ knights 2 + 2 + Support +1) against 4 + Mace 4.
        assert strength(s) == (8, 4 + 5 * support)
        assert board.controller(s, "winterfell") == winner
        assert ("winterfell" in s.garrisons) == support
        if support:
            assert units(s, "moat-cailin") == [("tyrell", "knight", True)] * 2


def test_8_2_ser_loras_tyrell(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    order(s, "stoney-sept", "support+1*")
    put(s, "the-reach", "tyrell", "knight")
    hand(s, "tyrell", "ser-loras-tyrell")
    hand(s, "lannister", "the-hound")
    s = fight(s, "tyrell", "the-reach", "blackwater", token="march+1*")
    # Attacking and losing (2 + 1 + 3 against 1 + 5 + 2): the March order is gone.
    assert strength(s) == (6, 8)
    assert units(s, "the-reach") == [("tyrell", "knight", True)]
    assert "tyrell" not in houses_with(s, MARCH)
    # Defending and winning: no order appears.
    s = blank(rules)
    put(s, "blackwater", "tyrell", "knight")
    put(s, "stoney-sept", "lannister", "footman")
    hand(s, "tyrell", "ser-loras-tyrell")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater", token="march+1*")
    assert s.orders == {}
    # Attacking and winning without moving in (Arianne Martell): the order is not placed.
    s = blank(rules)
    put(s, "blackwater", "martell", "footman")
    put(s, "the-reach", "tyrell", "knight")
    block(s, "tyrell", "martell")
    hand(s, "tyrell", "ser-loras-tyrell")
    hand(s, "martell", "arianne-martell")
    s = fight(s, "tyrell", "the-reach", "blackwater", token="march+1*")
    assert units(s, "the-reach") == [("tyrell", "knight", False)]
    assert s.orders == {}


def test_12_33_ser_loras_moves_his_march_order_into_the_conquered_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "footman")
    put(s, "the-reach", "tyrell", "knight", "footman")
    block(s, "tyrell", "lannister")
    hand(s, "tyrell", "ser-loras-tyrell")
    hand(s, "lannister", "the-hound")
    s = fight(s, "tyrell", "the-reach", "blackwater", "knight", token="march+1*")
    assert s.orders["blackwater"] == Order("tyrell", "march+1*")
    assert units(s, "blackwater") == [("tyrell", "knight", False)]
    assert "tyrell" in houses_with(s, MARCH)


def test_8_2_queen_of_thorns(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "tyrell", "footman")
    order(s, "blackwater", "defense+1")
    put(s, "searoad-marches", "lannister", "footman")
    order(s, "searoad-marches", "support+0")
    put(s, "harrenhal", "lannister", "footman")
    order(s, "harrenhal", "raid+0")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "consolidate_power+0")
    put(s, "crackclaw-point", "baratheon", "footman")
    order(s, "crackclaw-point", "raid+0")
    put(s, "stoney-sept", "lannister", "knight")
    hand(s, "tyrell", "queen-of-thorns")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    p = prompt(s, "tyrell")
    # Lannister's adjacent orders only; the removal is mandatory.
    assert p.data["areas"] == ["harrenhal", "searoad-marches"] and not p.data["optional"]
    before = s.hash()
    for area in ("lannisport", "crackclaw-point", None):
        with pytest.raises(IllegalTarget):
            act(s, "tyrell", SelectArea(area))
    assert s.hash() == before
    s = act(s, "tyrell", SelectArea("harrenhal"))
    assert "harrenhal" not in s.orders and "searoad-marches" in s.orders


def test_12_31_queen_of_thorns_removes_the_opponents_support(rules: Ruleset) -> None:
    s = blank(rules)
    s.blade_used = True
    put(s, "the-reach", "tyrell", "footman", "footman")
    put(s, "searoad-marches", "greyjoy", "knight")
    order(s, "searoad-marches", "support+0")
    put(s, "blackwater", "greyjoy", "knight")
    hand(s, "tyrell", "queen-of-thorns")
    hand(s, "greyjoy", "asha-greyjoy")
    s = fight(s, "greyjoy", "blackwater", "the-reach")
    assert s.combat is None
    assert "searoad-marches" not in s.orders
    # Without the support: knight 2 + Asha 1 = 3 against 2; Asha, now unsupported, has two
    # swords and kills both footmen.
    assert strength(s) == (3, 2)
    assert board.units_of(s, "tyrell") == {}


# ---------------------------------------------------------------------------------- Martell


def test_8_2_nymeria_sand(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "martell", "knight", "knight", "knight")
    block(s, "stark", "martell")
    hand(s, "martell", "nymeria-sand")
    hand(s, "stark", "catelyn-stark")
    s = fight(s, "martell", "stoney-sept", "blackwater")
    assert units(s, "harrenhal") == [("stark", "footman", True)] * 2  # attacking: 1 sword
    s = blank(rules)
    put(s, "blackwater", "martell", "footman", "footman", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight", "knight")
    block(s, "martell", "lannister")
    hand(s, "martell", "nymeria-sand")
    hand(s, "lannister", "ser-jaime-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert units(s, "harrenhal") == [("martell", "footman", True)] * 3  # defending: 1 fort
    # Attacking and losing, Nymeria has no fortification; defending and winning, no sword.
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight", "knight")
    put(s, "stoney-sept", "martell", "footman", "footman")
    hand(s, "martell", "nymeria-sand")
    hand(s, "lannister", "ser-jaime-lannister")
    s = fight(s, "martell", "stoney-sept", "blackwater")
    assert units(s, "stoney-sept") == [("martell", "footman", True)]
    s = blank(rules)
    put(s, "blackwater", "martell", "knight", "knight")
    put(s, "stoney-sept", "lannister", "footman", "footman")
    hand(s, "martell", "nymeria-sand")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    assert units(s, "stoney-sept") == [("lannister", "footman", True)] * 2


def test_8_2_arianne_martell(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "lannister", "knight", "knight")
    put(s, "stoney-sept", "martell", "footman")
    hand(s, "martell", "arianne-martell")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "martell", "stoney-sept", "blackwater")
    # Attacking, Arianne does nothing: the losing attacker retreats, routed.
    assert units(s, "stoney-sept") == [("martell", "footman", True)]


def test_12_32_arianne_defends_and_loses(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "martell", "footman")
    put(s, "stoney-sept", "lannister", "knight", "knight")
    block(s, "martell", "lannister")
    hand(s, "martell", "arianne-martell")
    hand(s, "lannister", "cersei-lannister")
    s = fight(s, "lannister", "stoney-sept", "blackwater", token="march+1*")
    assert units(s, "stoney-sept") == [("lannister", "knight", False)] * 2
    assert units(s, "harrenhal") == [("martell", "footman", True)]
    assert "blackwater" not in s.units and board.controller(s, "blackwater") is None
    assert s.orders == {}


def test_8_2_doran_martell(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "tyrell", "footman")
    put(s, "stoney-sept", "martell", "footman")
    block(s, "martell", "tyrell")
    hand(s, "martell", "doran-martell")
    hand(s, "tyrell", "queen-of-thorns")
    s = fight(s, "martell", "stoney-sept", "blackwater")
    p = prompt(s, "martell")
    assert p.data["options"] == ["iron_throne", "fiefdoms", "kings_court"]
    before = s.hash()
    with pytest.raises(IllegalChoice):
        act(s, "martell", Choose("supply"))
    assert s.hash() == before
    # 1 against 1: Tyrell, above Martell on Fiefdoms, would win the tie...
    assert units(act(s, "martell", Choose("kings_court")), "blackwater") == [
        ("tyrell", "footman", False)
    ]
    # ...unless Doran drops Tyrell to the bottom of Fiefdoms first (8.3.4).
    s = act(s, "martell", Choose("fiefdoms"))
    assert s.tracks["fiefdoms"][-1] == "tyrell"
    assert units(s, "blackwater") == [("martell", "footman", False)]


def test_5_4_4_abilities_of_one_window_resolve_in_turn_order(rules: Ruleset) -> None:
    for first, asked_first in (("martell", "martell"), ("tyrell", "tyrell")):
        s = blank(rules)
        s.tracks["iron_throne"] = (first, *(h for h in s.tracks["iron_throne"] if h != first))
        put(s, "blackwater", "tyrell", "footman")
        for area in ("harrenhal", "searoad-marches"):
            put(s, area, "martell", "footman")
            order(s, area, "raid+0" if area == "harrenhal" else "consolidate_power+0")
        put(s, "stoney-sept", "martell", "footman")
        hand(s, "martell", "doran-martell")
        hand(s, "tyrell", "queen-of-thorns")
        s = fight(s, "martell", "stoney-sept", "blackwater")
        other = "tyrell" if asked_first == "martell" else "martell"
        assert prompt(s, asked_first) is not None and prompt(s, other) is None
        answer = Choose("iron_throne") if asked_first == "martell" else SelectArea("harrenhal")
        s = act(s, asked_first, answer)
        assert prompt(s, other) is not None


class CountingCancel(CardAbility):
    """A test card whose cancel ability counts how often it resolves."""

    __slots__ = ()

    def cancel(self, state: State, combat: Combat, side: str) -> None:
        state.ext["cancel_calls"] = state.ext.get("cancel_calls", 0) + 1


class ExtraStarkCard:
    """A test plugin adding a Stark card with a cancel ability."""

    NAME = "test-extra-card"

    @hookimpl
    def register_house_cards(self) -> list[HouseCard]:
        return [HouseCard("test-counting-cancel", "stark", "Counter", 1, ability=CountingCancel())]


def test_5_4_4_a_replacing_card_gets_exactly_one_turn_in_the_window(
    westeros_ruleset: Any,
) -> None:
    rules = westeros_ruleset(ExtraStarkCard())
    s = blank(rules)
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "knight")
    hand(s, "lannister", "tyrion-lannister")
    hand(s, "stark", "eddard-stark", "test-counting-cancel")
    s = fight(s, "lannister", "stoney-sept", "blackwater")
    s = play(s, stark="eddard-stark")
    # Lannister is ahead of Stark in turn order: Tyrion's cancel comes first, and the card
    # Stark plays instead has its own cancel ability resolved once.
    s = act(s, "lannister", Choose("yes"))
    assert s.ext["cancel_calls"] == 1
    assert strength(s) == (3, 2)


def test_12_27_doran_changes_turn_order_at_once(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "footman")
    put(s, "stoney-sept", "martell", "knight", "knight")
    block(s, "baratheon", "martell")
    hand(s, "martell", "doran-martell")
    hand(s, "baratheon", "stannis-baratheon")
    s = fight(s, "martell", "stoney-sept", "blackwater")
    assert tracks.turn_order(s)[0] == "baratheon"
    s = act(s, "martell", Choose("iron_throne"))
    assert tracks.turn_order(s) == (
        "lannister",
        "stark",
        "martell",
        "greyjoy",
        "tyrell",
        "baratheon",
    )
    assert tracks.holder(s, tracks.IRON_THRONE) == "lannister"
    # Stannis now faces a house higher on the Iron Throne track: 1 + 4 + 1 = 6 beats 4.
    assert strength(s) == (4, 6)
