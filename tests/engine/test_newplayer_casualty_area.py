"""Issue 37 point 4: the log named the wrong area for a losing attacker's casualties ("loses
Knight in Lannisport" after a fight in Riverrun). The attacking army fights in the embattled
area, so its casualties (RULES.md 5.4.9) are lost there, before the survivors retreat
(5.4.10)."""

from __future__ import annotations

from pathlib import Path

import westeros
from tests.builders import blank, prompt, put, run
from westeros.engine import board
from westeros.engine.actions import SelectUnits
from westeros.engine.combat import StartCombat
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply
from westeros.engine.state import State, Unit
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"


def lannister_loses_at_riverrun(rules: Ruleset) -> tuple[State, list[dict]]:
    """Lannister marches a knight and two footmen from Lannisport on Stark's two knights in
    Riverrun and loses: Eddard Stark (4, two swords) against Cersei Lannister (0, no
    fortification), each the only card in hand, leaves two casualties for Lannister to
    choose. The state after, and the game's own log events in order."""
    s = blank(rules)
    put(s, "riverrun", "stark", "knight", "knight")
    put(s, "lannisport", "lannister", "knight", "footman", "footman")
    s.hands["stark"] = ("eddard-stark",)
    s.hands["lannister"] = ("cersei-lannister",)
    army = s.units["lannisport"]
    board.remove_units(s, "lannisport", army)
    s = run(s, StartCombat("lannister", "lannisport", "riverrun", army, "march+0"))
    events = [{"kind": e.kind, **e.data} for e in s.events]
    asked = prompt(s, "lannister")
    assert asked is not None and asked.kind == "destroy_units" and asked.data["count"] == 2
    lost = ((asked.data["units"][0][0], "knight"), (asked.data["units"][0][0], "footman"))
    s, after = apply(s, "lannister", SelectUnits(lost))
    events += [{"kind": e.kind, **e.data} for e in after]
    return s, events


def test_issue37_losing_attackers_casualties_are_named_in_the_embattled_area(
    rules: Ruleset,
) -> None:
    """The Lannister casualties' log line names Riverrun, in English and in Chinese; the
    survivor then retreats (5.4.10)."""
    s, events = lannister_loses_at_riverrun(rules)
    assert s.combat is None
    assert Unit("lannister", "footman", True) in s.units.get("lannisport", ())
    losses = [e for e in events if e["kind"] == "destroyed" and e["house"] == "lannister"]
    assert len(losses) == 1, losses
    catalogs = Catalogs([GAME_LOCALE])
    english = Narrator(rules, catalogs.translations("en"))(losses[0])
    chinese = Narrator(rules, catalogs.translations("zh_CN"))(losses[0])
    assert english == "Lannister loses Knight in Riverrun, Footman in Riverrun.", english
    assert "奔流城" in chinese and "兰尼斯港" not in chinese, chinese
