"""AI personalities as a bundled plugin (issue 7, DESIGN §3): at least four, registered through
the ``register_ai_personalities`` hook, each playing legally, and differing in behaviour one
can count over whole games (attacks per round, power held, bid sizes)."""

from __future__ import annotations

import pytest

import westeros_ai_personalities
import westeros_ai_personalities.plugin as plugin
from westeros.ai import BaselineBot, Player, play_game
from westeros.ai.difficulty import NORMAL
from westeros.ai.personality import AIPersonality
from westeros.ai.runner import Behaviour
from westeros.ai.strong import StrongBot
from westeros.engine.content import Ruleset
from westeros.plugins import load

NO_TIME_LIMIT = 600.0


def registered() -> dict[str, AIPersonality]:
    loaded = load(extra=[plugin])
    assert not loaded.errors
    return {p.id: p for p in loaded.ai_personalities}


def test_the_plugin_registers_four_personalities_through_the_ai_hook() -> None:
    found = registered()
    assert {"conqueror", "turtle", "power-broker", "opportunist"} <= set(found)
    assert all(isinstance(p, AIPersonality) and p.name and p.description for p in found.values())
    assert westeros_ai_personalities.__version__


def figures(rules: Ruleset, games: int) -> dict[str, Behaviour]:
    """The four personalities (Normal level) and two baseline AIs play ``games`` six-player
    games, seats rotated; returns each personality's behaviour over all of them."""
    styles = [registered()[i] for i in ("conqueror", "turtle", "power-broker", "opportunist")]
    out = {p.id: Behaviour() for p in styles}
    for game in range(games):
        seats: list[Player] = [StrongBot(game * 10 + k, NORMAL, p) for k, p in enumerate(styles)]
        seats += [BaselineBot(game * 10 + 4), BaselineBot(game * 10 + 5)]
        seats = seats[game:] + seats[:game]
        record = play_game(rules, seats, 70 + game, budget=NO_TIME_LIMIT)
        assert record.faults == []
        for house, name in record.seats.items():
            style = name.removeprefix("normal-")
            if style in out:
                mine, theirs = out[style], record.behaviour[house]
                mine.attacks += theirs.attacks
                mine.rounds += theirs.rounds
                mine.power += theirs.power
                mine.bids += theirs.bids
    return out


@pytest.mark.slow
def test_personalities_differ_in_attacks_and_bids(rules: Ruleset) -> None:
    seen = figures(rules, 2)
    assert seen["conqueror"].attacks_per_round > 1.25 * seen["turtle"].attacks_per_round
    assert seen["power-broker"].mean_bid > 1.25 * seen["opportunist"].mean_bid
