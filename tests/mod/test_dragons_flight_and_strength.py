"""Targaryen's dragons (RULES.md 11.5): their strength by round (11.5.2), flight of a group of
only dragons (11.5.3), and everything else a land unit does (11.5.4), on 8-player boards."""

from __future__ import annotations

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine import board
from westeros.engine.combat import DEFENDER, Combat, Side
from westeros.engine.combat.retreat import retreat_areas
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalMove, NeutralForceTooStrong, TooManyCombats
from westeros.engine.flow import apply
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import State, Unit

DRAGON = Unit("targaryen", "dragon")
BY_ROUND = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 9: 4, 10: 5}
"""11.5.2, without Fire Made Flesh: the tokens that reached the box by each round."""


def board8(mod_rules: Ruleset) -> State:
    return blank(mod_rules, 8)


@pytest.mark.parametrize("round_number", sorted(BY_ROUND))
def test_11_5_2_dragon_strength_is_the_tokens_in_the_box(
    mod_rules: Ruleset, round_number: int
) -> None:
    s = board8(mod_rules)
    s.round = round_number
    assert board.unit_strength(s, DRAGON, False) == BY_ROUND[round_number]
    assert board.unit_strength(s, DRAGON, True) == BY_ROUND[round_number]  # no siege value
    assert board.unit_strength(s, Unit("targaryen", "knight"), False) == 2


def test_11_5_2_a_routed_dragon_is_0(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    s.round = 10
    assert board.unit_strength(s, Unit("targaryen", "dragon", routed=True), False) == 0


def test_11_5_2_dragons_count_in_a_neutral_force_attack(mod_rules: Ruleset) -> None:
    """Braavos (5) falls to 3 dragons in round 6 (3 x 3 = 9) but not in round 1 (0)."""
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon", "dragon", "dragon")
    order(s, "norvos", "march+0")
    run(s, MarchTurn("targaryen"))
    with pytest.raises(NeutralForceTooStrong):
        apply(s, "targaryen", ResolveMarch("norvos", (("braavos", ("dragon",) * 3),)))
    s = board8(mod_rules)
    s.round = 6
    put(s, "norvos", "targaryen", "dragon", "dragon", "dragon")
    order(s, "norvos", "march+0")
    run(s, MarchTurn("targaryen"))
    s = act(s, "targaryen", ResolveMarch("norvos", (("braavos", ("dragon",) * 3),)))
    assert [u.type for u in s.units["braavos"]] == ["dragon"] * 3
    assert "braavos" not in s.neutral


def test_11_5_3_a_dragon_only_group_flies_across_the_board(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon", "dragon", "knight")
    order(s, "norvos", "march+0")
    run(s, MarchTurn("targaryen"))
    flights = prompt(s, "targaryen").data["marches"]["norvos"]["group_reach"]
    assert {"karhold", "winterfell", "sunspear"} <= {d["area"] for d in flights["dragon"]}
    assert not {d["area"] for d in flights["dragon"]} & {"the-narrow-sea", "port-of-pentos"}
    s = act(
        s,
        "targaryen",
        ResolveMarch("norvos", (("karhold", ("dragon", "dragon")), ("myr", ("knight",)))),
    )
    assert [u.type for u in s.units["karhold"]] == ["dragon", "dragon"]
    assert [u.type for u in s.units["myr"]] == ["knight"]


def test_11_5_3_a_group_mixing_dragons_and_other_units_cannot_fly(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon", "knight")
    order(s, "norvos", "march+0")
    run(s, MarchTurn("targaryen"))
    before = s.hash()
    with pytest.raises(IllegalMove):
        apply(s, "targaryen", ResolveMarch("norvos", (("winterfell", ("dragon", "knight")),)))
    assert s.hash() == before
    s = act(s, "targaryen", ResolveMarch("norvos", (("myr", ("dragon", "knight")),)))
    assert sorted(u.type for u in s.units["myr"]) == ["dragon", "knight"]  # adjacency is fine


def test_11_5_3_a_flight_still_starts_only_one_combat(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon", "dragon")
    put(s, "winterfell", "stark", "footman")
    put(s, "lannisport", "lannister", "footman")
    order(s, "norvos", "march+0")
    run(s, MarchTurn("targaryen"))
    with pytest.raises(TooManyCombats):
        apply(
            s,
            "targaryen",
            ResolveMarch("norvos", (("winterfell", ("dragon",)), ("lannisport", ("dragon",)))),
        )


def test_11_5_4_dragons_never_enter_a_sea_or_a_port(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "pentos", "targaryen", "dragon")
    order(s, "pentos", "march+0")
    run(s, MarchTurn("targaryen"))
    for sea in ("bay-of-pentos", "port-of-pentos", "the-narrow-sea"):
        with pytest.raises(IllegalMove):
            apply(s, "targaryen", ResolveMarch("pentos", ((sea, ("dragon",)),)))


def test_11_5_4_dragons_support_only_by_adjacency(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon")
    order(s, "norvos", "support+0")
    assert "norvos" in board.support_sources(s, "myr")
    assert "norvos" not in board.support_sources(s, "winterfell")


def test_11_5_4_dragons_retreat_by_adjacency(mod_rules: Ruleset) -> None:
    s = board8(mod_rules)
    put(s, "norvos", "targaryen", "dragon")
    combat = Combat("norvos", "myr", "march+0", Side("stark", ()), Side("targaryen", (DRAGON,)))
    options = set(retreat_areas(s, combat, DEFENDER))
    assert options == {"pentos", "the-rhoyne"}  # Braavos is neutral, Myr the origin
