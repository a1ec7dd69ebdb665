"""The baseline AI's decisions over whole seeded games stay the ones recorded before its
speed work (caching reachability, RULES.md 5.3.2/5.3.6): the fixture holds a short digest of
every action, so a change of any decision names the first one that differs.

Re-record only for an intended change of the AI's play:
``.venv/bin/python -m tests.ai.test_baseline_same_decisions``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from westeros.ai import BaselineBot, play_game
from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

FIXTURE = Path(__file__).parent / "data" / "baseline_decisions.json"
GAMES: dict[str, tuple[dict[str, Any], int, int, int]] = {
    # name: (options, players, seed, decisions)
    "base-6": ({"tides_of_battle": True}, 6, 3, 1200),
    "mod-8": ({"mother_of_dragons": True}, 8, 5, 900),
}


class Recording:
    """A baseline AI seat that notes a digest of every action it answers."""

    def __init__(self, seed: int, log: list[str]) -> None:
        self.bot = BaselineBot(seed)
        self.name = self.bot.name
        self.log = log

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        action = self.bot.decide(view, rules, budget)
        digest = hashlib.sha256(repr(action).encode()).hexdigest()[:8]
        self.log.append(f"{view['house']}:{view['prompt']['kind']}:{digest}")
        return action


def play(name: str) -> list[str]:
    """The digests of every decision of the seeded AI-only game ``name``."""
    options, players, seed, decisions = GAMES[name]
    rules = build_ruleset(options)
    log: list[str] = []
    seats = [Recording(seed * 10 + i, log) for i in range(players)]
    play_game(rules, seats, seed, options, max_decisions=decisions)
    return log


@pytest.mark.parametrize("name", sorted(GAMES))
def test_5_baseline_decisions_of_seeded_games_are_unchanged(name: str) -> None:
    recorded = json.loads(FIXTURE.read_text("utf-8"))[name]
    now = play(name)
    first = next((i for i, (a, b) in enumerate(zip(recorded, now, strict=False)) if a != b), None)
    assert first is None, f"decision {first} differs: recorded {recorded[first]}, now {now[first]}"
    assert len(now) == len(recorded)


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps({n: play(n) for n in sorted(GAMES)}, indent=0) + "\n", "utf-8")
