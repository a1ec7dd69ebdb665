"""Iron Bank interest with vassals in play (RULES.md 11.9.5, 11.10.1): a vassal never holds
the Valyrian Steel Blade, so neither it nor a vassal next on Fiefdoms destroys a debtor's
units. A 4-player game: Baratheon, Lannister, Stark and Greyjoy play; Arryn, Martell and
Tyrell are vassals. Greyjoy starts round 2 with two loans, no PT and three units."""

from __future__ import annotations

from tests.builders import put, run
from westeros.engine.flow import pending
from westeros.engine.round import Round
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

OPTIONS = {
    "mother_of_dragons": True,
    "mod_vassals": True,
    "mod_iron_bank": True,
    "mod_sea_orders": True,
}


def greyjoy_defaults(fiefdoms: tuple[str, ...]) -> State:
    s = new_game(build_ruleset(OPTIONS), 4, 1, OPTIONS, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.round = 2
    s.tracks["fiefdoms"] = fiefdoms
    s.ext["iron_bank_loans"] = (("greyjoy", "spymaster"), ("greyjoy", "full-host"))
    s.power["greyjoy"] = 0
    put(s, "pyke", "greyjoy", "footman", "knight")
    put(s, "ironmans-bay", "greyjoy", "ship")  # 3 units for 2 losses: someone chooses
    return run(s, Round())


def test_11_9_5_a_vassal_first_on_fiefdoms_does_not_choose_the_losses() -> None:
    """Arryn (a vassal) is first: the Blade is Stark's, the highest non-vassal."""
    s = greyjoy_defaults(
        ("arryn", "stark", "greyjoy", "martell", "baratheon", "lannister", "tyrell")
    )
    asked = {h: p.kind for h, p in pending(s).items()}
    assert asked == {"stark": "iron_bank_default"}


def test_11_9_5_the_next_house_after_a_debtor_holding_the_blade_is_no_vassal() -> None:
    """Greyjoy holds the Blade and Martell (a vassal) follows it: Stark, next after, chooses."""
    s = greyjoy_defaults(
        ("greyjoy", "martell", "stark", "arryn", "baratheon", "lannister", "tyrell")
    )
    asked = {h: p.kind for h, p in pending(s).items()}
    assert asked == {"stark": "iron_bank_default"}
