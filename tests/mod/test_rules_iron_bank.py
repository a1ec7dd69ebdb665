"""Iron Bank rules the market and loan tests leave out. Interest with vassals in play (RULES.md
11.9.5, 11.10.1): a vassal never holds the Valyrian Steel Blade, so neither it nor a vassal
next on Fiefdoms destroys a debtor's units (a 4-player game: Baratheon, Lannister, Stark and
Greyjoy play; Arryn, Martell and Tyrell are vassals; Greyjoy starts round 2 with two loans, no
PT and three units). And Full Host for Targaryen (11.5.1, 11.4.3)."""

from __future__ import annotations

from tests.builders import act, order, prompt, put, run
from westeros.engine.action_phase import OrderLoop
from westeros.engine.actions import Choose
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.flow import pending
from westeros.engine.round import Round
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

T = "targaryen"
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


def test_11_5_1_full_host_brings_targaryen_no_dragon_and_no_siege_engine() -> None:
    """8 players: Targaryen (Iron Bank order in the Bay of Pentos, a footman in Pentos) buys
    Full Host. It is asked for a footman, a knight and a ship only: it has no siege engines
    (11.4.3) and loans never place dragons (11.5.1)."""
    options = {"mother_of_dragons": True, "mod_iron_bank": True, "mod_sea_orders": True}
    s = new_game(build_ruleset(options), 8, 1, options, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    put(s, "bay-of-pentos", T, "ship")
    put(s, "pentos", T, "footman")
    order(s, "bay-of-pentos", "iron-bank")
    s.power[T] = 5
    s.supply[T] = 6
    s.ext["iron_bank_slots"] = ("", "", "full-host")
    s = run(s, OrderLoop("consolidate_power"))
    s = act(s, T, ResolveConsolidate("bay-of-pentos"))
    s = act(s, T, Choose("full-host"))
    asked = []
    while (p := prompt(s, T)) is not None:
        asked.append(p.data["unit"])
        s = act(s, T, Choose(p.data["options"][0]))
    assert asked == ["footman", "knight", "ship"]
    assert sorted(u.type for u in s.units["pentos"]) == ["footman", "footman", "knight"]
