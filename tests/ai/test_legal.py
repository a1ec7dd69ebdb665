"""Actions built from prompt data alone are legal (DESIGN §2: prompt data describes the legal
choices): at every decision point of random games every bot's answer is accepted by the engine,
every prompt kind met has a baseline handler, and unknown prompt kinds get a legal fallback."""

from __future__ import annotations

import random
from typing import Any

import pytest

from westeros.ai import BaselineBot, PassiveBot, RandomBot, ask
from westeros.ai.baseline import HANDLERS
from westeros.ai.legal import fallback_action
from westeros.engine.actions import Bid, Choose, SelectArea, SelectUnits
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game


@pytest.mark.parametrize("seed", range(12))
def test_0_4_every_bot_answer_is_legal_at_every_decision_point(rules: Ruleset, seed: int) -> None:
    players = 3 + seed % 4
    state = new_game(rules, players, seed, {"tides_of_battle": seed % 2 == 1})
    bots = (BaselineBot(seed), RandomBot(seed), PassiveBot(seed))
    rnd = random.Random(seed)
    kinds: set[str] = set()
    while pending(state):
        waiting = pending(state)
        house = rnd.choice(sorted(waiting))
        kinds.add(waiting[house].kind)
        for bot in bots:
            action, _ = ask(bot, state, house)
            apply(state, house, action)  # raises IllegalAction if the answer is illegal
        state, _ = apply(state, house, random_action(state, house, rnd))
    answered = set(HANDLERS) | set(rules.ai_answers)  # the plugins answer their own kinds
    assert kinds <= answered, kinds - answered


def view_of(kind: str, actions: list[str], data: dict[str, Any]) -> dict[str, Any]:
    return {"house": "stark", "prompt": {"kind": kind, "actions": actions, "data": data}}


def test_0_4_2_an_unknown_prompt_gets_a_passive_legal_answer(rules: Ruleset) -> None:
    options = view_of("mystery", ["choose"], {"options": ["attack", "pass"]})
    assert fallback_action(options, rules) == Choose("pass")
    area = view_of("mystery", ["select_area"], {"areas": ["a", "b"], "optional": True})
    assert fallback_action(area, rules) == SelectArea(None)
    forced = view_of("mystery", ["select_area"], {"areas": ["a", "b"], "optional": False})
    assert fallback_action(forced, rules) == SelectArea("a")
    units = view_of("mystery", ["select_units"], {"count": 1, "units": [["a", "ship"]] * 2})
    assert fallback_action(units, rules) == SelectUnits((("a", "ship"),))
    amount = view_of("mystery", ["bid"], {"min": 1, "max": 4})
    assert fallback_action(amount, rules) == Bid(1)
    with pytest.raises(ValueError):
        fallback_action(view_of("mystery", ["something"], {"shape": "unknown"}), rules)
    bot = BaselineBot(0)
    assert bot.decide(options, rules, 1.0) == Choose("pass")
