"""Limits of the Targaryen options of Westeros deck IV (RULES.md 11.11.2) that the per-card
tests leave out: Domestic Disputes stops at 4 houses, Fire Made Flesh offers only what the
board allows, Scattering Dissent's cancel costs 1 PT, The Long Plan names another house."""

from __future__ import annotations

from tests.builders import act, prompt, put, run
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.state import State
from westeros.engine.westeros_phase import ResolveWesterosCard

from .test_deck_iv_cards import options, tokens
from .test_targaryen_cards import blank8

T = "targaryen"


def reveal(
    s: State, card: str, on_board: dict[str, int] | None = None, collected: int = 0
) -> State:
    """Resolve deck IV ``card`` with ``on_board`` loyalty tokens (none by default) out and
    ``collected`` ones scored."""
    s.ext["loyalty_tokens"] = tuple(sorted((on_board or {}).items()))
    s.ext["loyalty_collected"] = collected
    s.revealed = (card,)
    return run(s, ResolveWesterosCard(0))


def test_11_11_2_domestic_disputes_reaches_at_most_4_houses(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power[T] = 3
    s = reveal(s, "domestic-disputes")
    for house in ("stark", "lannister", "greyjoy", "baratheon"):
        s = act(s, T, Choose(house))
    assert prompt(s, T) is None  # a fifth house is not offered
    homes = {"winterfell": 1, "lannisport": 1, "pyke": 1, "dragonstone": 1}
    assert tokens(s) == {"storms-end": 1, **homes}
    assert s.power[T] == 2


def test_11_11_2_fire_made_flesh_sacrifices_no_dragon_once_every_token_is_in_the_box(
    mod_rules: Ruleset,
) -> None:
    """Round 10, all three dragons on the board: neither option (a) nor (b) is possible."""
    s = blank8(mod_rules, 10)
    put(s, "pentos", T, "dragon", "dragon", "dragon")
    s = reveal(s, "fire-made-flesh")
    assert prompt(s, T) is None
    assert tokens(s) == {"the-reach": 1}


def test_11_11_2_fire_made_flesh_returns_no_dragon_to_a_lost_pentos(mod_rules: Ruleset) -> None:
    """Every dragon destroyed, but Stark holds Pentos: Targaryen cannot place one there."""
    s = blank8(mod_rules, 3)
    put(s, "pentos", "stark", "footman")
    s = reveal(s, "fire-made-flesh")
    assert prompt(s, T) is None


def test_11_11_2_scattering_dissent_cancels_a_move_for_1_power(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power = dict.fromkeys(s.houses, 1)
    s = reveal(s, "scattering-dissent")
    first = next(h for h in reversed(s.tracks["iron_throne"]) if prompt(s, h) is not None)
    move = options(s, first)[0]
    s = act(s, first, Choose(move))
    assert options(s) == [move, "pass"]
    s = act(s, T, Choose(move))
    assert s.power[T] == 0
    assert tokens(s) == {"karhold": 1, "oldtown": 1}


def test_11_11_2_the_long_plan_names_another_house(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.power[T] = 1
    s = reveal(s, "the-long-plan")
    assert T not in options(s)
    assert set(options(s)) == {*s.houses} - {T} | {"pass"}
