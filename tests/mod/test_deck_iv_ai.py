"""The AIs' answers to Westeros deck IV (RULES.md 11.11.2): Targaryen pays for loyalty tokens
where it can collect them, names the houses whose homes are weakest held, and brings back a
destroyed dragon; it keeps its last Power token. Every answer is the baseline AI's, asked
from the seat's own view."""

from __future__ import annotations

from tests.builders import act, prompt, put, run
from westeros.ai import BaselineBot
from westeros.ai.protocol import ask
from westeros.engine.content import Ruleset
from westeros.engine.state import State
from westeros.engine.westeros_phase import ResolveWesterosCard

from .test_deck_iv_cards import options, reveal, tokens
from .test_targaryen_cards import blank8

T = "targaryen"


def answered(s: State, house: str = T) -> State:
    """Let the baseline AI answer every prompt ``house`` is given in a row."""
    while prompt(s, house) is not None:
        action, _ = ask(BaselineBot(0), s, house)
        s = act(s, house, action)
    return s


def test_11_11_2_targaryen_pays_for_the_token_on_the_weaker_held_area(
    mod_rules: Ruleset,
) -> None:
    s = reveal(mod_rules, "empty-promises")
    put(s, "moat-cailin", "stark", "footman", "knight")
    s = answered(s)
    assert tokens(s) == {"the-stony-shore": 1, "the-mountains-of-the-moon": 1}
    assert s.power[T] == 4


def test_11_11_2_targaryen_puts_the_token_where_it_collects_it(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "southron-ambitions")
    put(s, "blackwater", T, "footman")
    s = answered(s)
    # Targaryen controls Blackwater: it collects the token at the end of the phase (11.6.3)
    assert tokens(s) == {"searoad-marches": 1, "dornish-marches": 1, "blackwater": 1}
    assert s.power[T] == 4


def test_11_11_2_targaryen_keeps_its_last_power_token(mod_rules: Ruleset) -> None:
    s = answered(reveal(mod_rules, "strongholds-of-resistance", power=1))
    assert tokens(s) == {"seagard": 1}
    assert s.power[T] == 1


def test_11_11_2_domestic_disputes_names_the_four_weakest_held_homes(mod_rules: Ruleset) -> None:
    s = reveal(mod_rules, "domestic-disputes")
    put(s, "winterfell", "stark", "footman", "footman", "footman")
    put(s, "lannisport", "lannister", "knight")
    s = answered(s)
    # Winterfell (garrison 2 + 3), Lannisport (2 + 2) and the Eyrie (garrison 4) are spared
    assert tokens(s) == {
        "storms-end": 1,
        "pyke": 1,
        "dragonstone": 1,
        "highgarden": 1,
        "sunspear": 1,
    }
    assert s.power[T] == 4


def test_11_11_2_fire_made_flesh_brings_a_destroyed_dragon_back(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    put(s, "myr", T, "dragon")
    put(s, "norvos", T, "dragon")
    s.revealed = ("fire-made-flesh",)
    s = run(s, ResolveWesterosCard(0))
    assert options(s) == ["fire_destroy_dragon", "fire_return_dragon", "pass"]
    s = answered(s)
    assert {a: [u.type for u in s.units[a]] for a in ("myr", "norvos", "pentos")} == {
        "myr": ["dragon"],
        "norvos": ["dragon"],
        "pentos": ["dragon"],
    }
