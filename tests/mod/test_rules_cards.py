"""House-card and Westeros deck IV rules of RULES.md 11.7.5 and 11.11.1 that the card tests
leave out: a card removed from the game is never taken back, Daenerys Targaryen (B) gets the
Valyrian Steel Blade question although the victor stays, and deck IV holds the fact file's ten
cards without wildling icons, is resolved last and never shows a card twice."""

from __future__ import annotations

from typing import Any

from tests.builders import prompt, put, run
from tests.engine.test_combat import fight
from tests.engine.test_house_cards import block
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply
from westeros.engine.westeros_phase import WesterosPhase, reveal

from .test_targaryen_b_deck import RODRIK, cards
from .test_targaryen_b_deck import blank8 as blank8_b
from .test_targaryen_cards import blank8, won

DECK_IV = {
    "domestic-disputes", "empty-promises", "fire-made-flesh", "playing-with-fire",
    "scattering-dissent", "southron-ambitions", "strongholds-of-resistance", "the-long-plan",
    "watering-the-seed", "word-spreads-quickly",
}  # fmt: skip
"""11.11.2's table."""


A_DECK_BUT_DROGO = (
    "arstan-whitebeard", "daenerys-targaryen-a", "illyrio-mopatis", "ser-jorah-mormont",
    "viserys-targaryen", "xaro-xhoan-daxos",
)  # fmt: skip
"""11.7.2's table without Khal Drogo, sorted."""


def test_11_7_5_a_card_removed_from_the_game_is_not_taken_back(mod_rules: Ruleset) -> None:
    """Khal Drogo is Targaryen's last card in hand, the other six are discarded: Drogo attacks
    and leaves the game, and Targaryen takes back the six, Drogo not among them."""
    s = blank8(mod_rules)
    put(s, "blackwater", "stark", "footman", "footman", "footman")
    put(s, "stoney-sept", "targaryen", "knight", "knight", "knight")
    block(s, "targaryen", "stark")
    s.hands["targaryen"], s.discards["targaryen"] = ("khal-drogo",), A_DECK_BUT_DROGO
    s.hands["stark"], s.discards["stark"] = (RODRIK,), ()
    s = fight(s, "targaryen", "stoney-sept", "blackwater")
    assert tuple(sorted(s.hands["targaryen"])) == A_DECK_BUT_DROGO
    assert s.discards["targaryen"] == ()


def test_11_7_5_daenerys_b_gets_the_blade_asked_even_when_the_victor_stays(
    mod_rules: Ruleset,
) -> None:
    """Stark, the Blade holder, attacks with 3 footmen and Robb Stark (3) into 4 Targaryen
    footmen with Daenerys (4): 6 to 8. Stark loses either way, yet is asked; with the Blade
    the gap is 1, not 2, and Stark discards 1 PT."""
    s = blank8_b(mod_rules)
    s.blade_used = False
    s.tracks["fiefdoms"] = ("stark", *(h for h in s.tracks["fiefdoms"] if h != "stark"))
    s.power["stark"] = 5
    put(s, "stoney-sept", "stark", "footman", "footman", "footman")
    put(s, "blackwater", "targaryen", *["footman"] * 4)
    block(s, "targaryen", "stark")
    cards(s, "daenerys-targaryen-b", "robb-stark")
    s = fight(s, "stark", "stoney-sept", "blackwater")
    assert prompt(s, "stark").kind == "use_blade"
    s, events = apply(s, "stark", Choose("use"))
    assert won(events) == [7, 8]
    assert s.power["stark"] == 5 - 1


def test_11_11_1_deck_iv_is_the_fact_files_ten_cards_without_wildling_icons(
    mod_rules: Ruleset, facts: dict[str, Any]
) -> None:
    listed = facts["mother_of_dragons"]["setups"][1]["westerosCards"][3]
    assert {c["type"] for c in listed} == DECK_IV
    s = blank8(mod_rules)
    assert set(s.westeros_decks[3]) == DECK_IV and len(s.westeros_decks[3]) == 10
    assert not any(mod_rules.westeros_cards[c].wildling_icon for c in DECK_IV)


def test_11_11_1_rounds_2_to_10_never_show_a_deck_iv_card_twice(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules)
    shown = [reveal(s, 3) for _ in range(2, 11)]
    assert len(set(shown)) == 9


def test_11_11_1_one_deck_iv_card_is_revealed_after_decks_i_to_iii(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 2)
    run(s, WesterosPhase())
    decks = [mod_rules.westeros_cards[c].deck for c in s.revealed]
    assert decks == [1, 2, 3, 4]
