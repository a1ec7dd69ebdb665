"""Supply when Arianne Martell sends a winning attacker back (RULES.md 1.7.5, 5.4.11, 8.2):
the legal march counted the attacking army in the embattled area (5.3.7); sent back into the
area it marched from, the army must still fit supply, so the attacker destroys the excess from
the returning units, its choice (as an army sent back by 5.4.10 does), never other units.
Found by random play (benchmarks/conformance.py, 8 players, seed 184)."""

from __future__ import annotations

from tests.builders import act, blank, prompt, put, run
from tests.engine.test_combat import hand, units
from westeros.engine import board
from westeros.engine.actions import SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import Order, State

# Winterfell keeps a footman, sends a knight and a footman against Moat Cailin and a footman
# to Karhold (2 -> 3); White Harbor holds another army of 3.
MARCH = ResolveMarch(
    "winterfell", (("karhold", ("footman",)), ("moat-cailin", ("knight", "footman")))
)


def board_before_the_march(rules: Ruleset, white_harbor: int = 3) -> State:
    s = blank(rules)
    s.supply["stark"] = 5  # armies allowed: 4, 3, 2, 2
    put(s, "winterfell", "stark", "footman", "footman", "knight", "footman")
    put(s, "karhold", "stark", "footman", "footman")
    put(s, "white-harbor", "stark", *["footman"] * white_harbor)
    put(s, "moat-cailin", "martell", "footman")
    s.orders["winterfell"] = Order("stark", "march+0")
    hand(s, "stark", "eddard-stark")
    return s


def test_1_7_5_arianne_return_that_breaks_supply_destroys_the_excess_of_the_returning_army(
    rules: Ruleset,
) -> None:
    s = board_before_the_march(rules)
    hand(s, "martell", "arianne-martell")
    assert board.within_supply(s, "stark")  # 4, 3, 2
    s = act(run(s, MarchTurn("stark")), "stark", MARCH)  # legal: 3, 3, 2 after moving in
    # Eddard's swords kill the defender, Arianne keeps Stark out: back in Winterfell the
    # army would be 3, 3, 3, so one of the two returning units goes, Stark's choice.
    p = prompt(s, "stark")
    assert p.kind == "destroy_units" and p.data["count"] == 1
    assert sorted(t for _, t in p.data["units"]) == ["footman", "knight"]  # returning units only
    assert {a for a, _ in p.data["units"]} == {"winterfell"}
    s = act(s, "stark", SelectUnits((("winterfell", "footman"),)))
    assert units(s, "winterfell") == [("stark", "footman", False), ("stark", "knight", False)]
    assert len(s.units["karhold"]) == len(s.units["white-harbor"]) == 3
    assert "moat-cailin" not in s.units and s.combat is None
    assert board.within_supply(s, "stark")


def test_5_4_11_arianne_return_within_supply_keeps_every_unit(rules: Ruleset) -> None:
    s = board_before_the_march(rules, white_harbor=2)  # back in Winterfell: 3, 3, 2 fits
    hand(s, "martell", "arianne-martell")
    s = act(run(s, MarchTurn("stark")), "stark", MARCH)
    assert prompt(s, "stark") is None and s.combat is None
    assert units(s, "winterfell") == [("stark", "footman", False)] * 2 + [
        ("stark", "knight", False)
    ]
