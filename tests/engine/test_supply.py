"""Supply (RULES.md 1.7, 3.4.3) and §12.43."""

from __future__ import annotations

import random

import pytest

from westeros.engine import board
from westeros.engine.actions import SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.state import State
from westeros.engine.supply import ReconcileAll, update_supply

from ..builders import act, blank, prompt, put, run


def types(s: State, area: str) -> list[str]:
    return sorted(u.type for u in s.units.get(area, ()))


def test_3_4_3_supply_follows_barrels_capped_at_six(rules: Ruleset) -> None:
    s = blank(rules)
    # Highgarden 2 + Blackwater 2 + Kingswood, Prince's Pass, Salt Shore, Searoad Marches 1 each.
    for area in ("blackwater", "kingswood", "princes-pass", "salt-shore", "searoad-marches"):
        s.power_tokens[area] = "tyrell"
    put(s, "the-stony-shore", "stark", "footman")
    update_supply(s)
    assert s.supply["tyrell"] == 6
    assert s.supply["stark"] == 2  # Winterfell and The Stony Shore
    assert s.supply["lannister"] == 2  # Lannisport


def test_1_7_1_supply_only_moves_when_resolved(rules: Ruleset) -> None:
    s = blank(rules)
    s.power_tokens["blackwater"] = "tyrell"
    assert s.supply["tyrell"] == 2
    run(s, ReconcileAll())
    assert s.supply["tyrell"] == 2


def test_12_43_supply_drop_reconciles_in_turn_order(rules: Ruleset) -> None:
    s = blank(rules)
    # Lannister (Lannisport: 2 barrels, limits 3-2-2) and Stark (Winterfell: 1, limits 3-2)
    # each hold two armies of 3: both break their limit, Lannister first in turn order.
    put(s, "lannisport", "lannister", "footman", "footman", "knight")
    put(s, "stoney-sept", "lannister", "footman", "footman", "knight")
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white-harbor", "stark", "footman", "footman", "knight")
    s.supply["lannister"] = s.supply["stark"] = 5
    update_supply(s)
    run(s, ReconcileAll())
    assert set(pending(s)) == {"lannister"}
    s = act(s, "lannister", SelectUnits((("stoney-sept", "knight"),)))
    assert set(pending(s)) == {"stark"}
    s = act(s, "stark", SelectUnits((("winterfell", "footman"),)))
    assert not pending(s) and not s.stack
    assert types(s, "stoney-sept") == ["footman", "footman"]
    assert types(s, "winterfell") == ["footman", "knight"]
    assert board.within_supply(s, "lannister") and board.within_supply(s, "stark")


def test_3_4_3_reconcile_repeats_until_within_limits(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "footman", "knight", "knight")
    put(s, "white-harbor", "stark", "footman", "footman", "knight")
    s.supply["stark"] = 1  # limits 3-2: armies 4 and 3 need two losses
    run(s, ReconcileAll())
    s = act(s, "stark", SelectUnits((("winterfell", "knight"),)))
    assert prompt(s, "stark").kind == "reconcile_supply"  # 3 and 3: still over
    s = act(s, "stark", SelectUnits((("white-harbor", "knight"),)))
    assert not pending(s)
    assert types(s, "winterfell") == ["footman", "footman", "knight"]


def test_3_4_3_reconcile_only_destroys_units_in_armies(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white-harbor", "stark", "footman", "footman", "knight")
    put(s, "karhold", "stark", "knight")
    s.supply["stark"] = 1
    run(s, ReconcileAll())
    assert ["karhold", "knight"] not in prompt(s, "stark").data["units"]
    before = s.hash()
    with pytest.raises(IllegalChoice) as err:
        apply(s, "stark", SelectUnits((("karhold", "knight"),)))
    assert err.value.rule == "3.4.3"
    with pytest.raises(IllegalChoice):
        apply(s, "stark", SelectUnits((("winterfell", "footman"), ("white-harbor", "footman"))))
    assert s.hash() == before


def test_3_4_3_a_forced_loss_is_taken_without_asking(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "footman", "footman", "footman")
    s.supply["stark"] = 1
    run(s, ReconcileAll())
    assert not pending(s)
    assert types(s, "winterfell") == ["footman"] * 3


def test_3_4_3_random_reconciling_always_ends_within_limits(rules: Ruleset) -> None:
    rnd = random.Random(7)
    for seed in range(20):
        s = blank(rules, 6, seed, keep_units=True)
        for house in s.houses:
            s.supply[house] = 0
        run(s, ReconcileAll())
        while pending(s):
            house = sorted(pending(s))[0]
            s, _ = apply(s, house, random_action(s, house, rnd))
        assert all(board.within_supply(s, h) for h in s.houses)
