"""One legality source per decision (DESIGN §2, issue 11 point 1): ``legality.problem`` says
whether any draft would be accepted and why not, with the error's stable code; for a march the
engine's own check gives the same verdict on a seat's public state (what the AI and the board's
hints use) as on the game itself."""

from __future__ import annotations

import random

from tests.builders import blank, order, put, run
from westeros.engine.actions import Bid
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.legality import problem
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.march import problem as march_problem
from westeros.engine.public import public_state
from westeros.engine.setup import new_game
from westeros.engine.view import player_view


def test_5_3_7_a_march_over_supply_is_refused_with_rule_and_code(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["lannister"] = 0  # armies [2, 2] (1.7.3)
    put(s, "stoney-sept", "lannister", "footman", "knight")
    order(s, "stoney-sept", "march+0")
    put(s, "searoad-marches", "lannister", "footman", "footman")
    put(s, "riverrun", "lannister", "footman")
    run(s, MarchTurn("lannister"))
    before = s.hash()
    refusal = problem(
        s, "lannister", ResolveMarch("stoney-sept", (("riverrun", ("footman", "knight")),))
    )
    assert refusal is not None
    assert (refusal.rule, refusal.code) == ("5.3.7", "illegal/supply-exceeded")
    assert (
        problem(s, "lannister", ResolveMarch("stoney-sept", (("riverrun", ("footman",)),))) is None
    )
    assert s.hash() == before


def test_0_4_a_house_not_asked_and_a_wrong_kind_are_problems_too(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "stoney-sept", "lannister", "footman")
    order(s, "stoney-sept", "march+0")
    run(s, MarchTurn("lannister"))
    not_asked = problem(s, "stark", ResolveMarch("stoney-sept", ()))
    wrong = problem(s, "lannister", Bid(1))
    assert not_asked is not None and not_asked.code == "illegal/not-pending"
    assert wrong is not None and wrong.code == "illegal/wrong-action-kind"


def test_5_3_the_march_check_on_the_public_state_agrees_with_the_game(rules: Ruleset) -> None:
    """At every March decision of random games, random drafts (legal ones and ones built from
    any reachable area) get the same verdict from ``march.problem`` on the seat's public state
    as from applying them to the game."""
    compared = 0
    for seed in range(12):
        rnd = random.Random(seed)
        s = new_game(rules, 3 + seed % 4, seed)
        while s.winner is None and s.round <= 4:
            house, asked = sorted(pending(s).items())[0]
            if asked.kind == "march":
                public = public_state(player_view(s, house), rules)
                declined = tuple((a, h) for a, h in asked.data["declined"])
                for _ in range(4):
                    area = rnd.choice(sorted(asked.data["marches"]))
                    units = asked.data["marches"][area]["units"]
                    dest = rnd.choice(sorted(rules.adjacency[area]))
                    draft = ResolveMarch(area, ((dest, tuple(units)),) if units else ())
                    mine = march_problem(public, house, draft, declined)
                    game = problem(s, house, draft)
                    assert (mine and mine.code) == (game and game.code), (draft, mine, game)
                    compared += 1
            s, _ = apply(s, house, random_action(s, house, rnd))
    assert compared >= 100
