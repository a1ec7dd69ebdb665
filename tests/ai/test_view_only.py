"""A player sees only its own view (RULES.md 0.4.4; issue: "It never reads hidden state"):
two states that differ only in hidden information — other houses' uncommitted orders, bids and
house cards, the order of the decks — get identical decisions from an AI with the same seed.
The public state an AI rebuilds from its view agrees with the real board."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.ai.helpers import decision, stark_attacks_white_harbor
from tests.builders import act, blank, run
from westeros.ai import BaselineBot, PassiveBot, Player, RandomBot, ask, public_state
from westeros.engine import board, rng
from westeros.engine.actions import Action, Bid, Choose
from westeros.engine.bidding import ClashOfKings
from westeros.engine.combat.strength import initial_strength
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view

BOTS: dict[str, Callable[[int], Player]] = {
    "baseline": BaselineBot,
    "random": RandomBot,
    "passive": PassiveBot,
}


def reshuffled(state: State, salt: int) -> State:
    """A copy whose Westeros and wildling decks are in another order (nobody looked, 4.4)."""
    s = state.copy()
    decks = []
    for deck in s.westeros_decks:
        new, salt = rng.shuffled(salt, deck)
        decks.append(new)
    s.westeros_decks = tuple(decks)
    assert not s.wildling_seen
    s.wildling_deck, _ = rng.shuffled(salt, s.wildling_deck)
    return s


def twins(state: State, house: str, commits: Callable[[State, int], State]) -> tuple[State, State]:
    """Two states built from ``state`` by ``commits`` with different seeds, the second with
    reshuffled decks; both still wait for ``house``, whose view is the same in both."""
    one = commits(state, 1)
    two = reshuffled(commits(state, 2), 99)
    assert one.hash() != two.hash()
    assert house in pending(one) and house in pending(two)
    assert player_view(one, house) == player_view(two, house)
    return one, two


def commit_others(house: str) -> Callable[[State, int], State]:
    """Random secret commitments for every pending house but ``house``."""

    def commits(state: State, seed: int) -> State:
        rnd = random.Random(seed)
        for other in sorted(pending(state)):
            if other != house:
                state, _ = apply(state, other, random_action(state, other, rnd))
        return state

    return commits


def same_decision(bot: str, one: State, two: State, house: str) -> None:
    for seed in range(3):
        assert decision(BOTS[bot](seed), one, house) == decision(BOTS[bot](seed), two, house)


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_0_4_4_other_houses_secret_orders_and_deck_order_change_no_decision(
    rules: Ruleset, bot: str
) -> None:
    state = new_game(rules, 6, 5)
    one, two = twins(state, "stark", commit_others("stark"))
    same_decision(bot, one, two, "stark")


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_0_4_4_other_houses_secret_bids_change_no_decision(rules: Ruleset, bot: str) -> None:
    s = blank(rules, keep_units=True)
    s.power = {h: 3 + i for i, h in enumerate(s.houses)}
    run(s, ClashOfKings())

    def commits(state: State, seed: int) -> State:
        for other in sorted(pending(state)):
            if other != "stark":
                state = act(state, other, Bid(seed % (state.power[other] + 1)))
        return state

    one, two = twins(s, "stark", commits)
    same_decision(bot, one, two, "stark")


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_0_4_4_the_opponents_chosen_house_card_changes_no_decision(
    rules: Ruleset, bot: str
) -> None:
    s = stark_attacks_white_harbor(rules, ("knight", "footman"), ("footman", "footman"))

    def commits(state: State, seed: int) -> State:
        card = ("euron-crows-eye", "aeron-damphair")[seed - 1]
        return act(state, "greyjoy", Choose(card))

    one, two = twins(s, "stark", commits)
    same_decision(bot, one, two, "stark")


class Spy:
    """Records exactly what the protocol hands it, then answers like a PassiveBot."""

    name = "spy"

    def __init__(self) -> None:
        self.calls: list[tuple[Mapping[str, Any], Ruleset, float]] = []

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        self.calls.append((view, rules, budget))
        return PassiveBot().decide(view, rules, budget)


def test_0_4_4_the_protocol_hands_a_player_its_view_and_the_public_rules_only(
    rules: Ruleset,
) -> None:
    state = new_game(rules, 4, 8)
    spy = Spy()
    for _ in range(60):
        waiting = pending(state)
        house = min(waiting)
        action, _ = ask(spy, state, house, 0.5)
        view, given, budget = spy.calls[-1]
        assert view == player_view(state, house)
        assert view["prompt"]["kind"] == waiting[house].kind
        assert given is state.rules and budget == 0.5
        state, _ = apply(state, house, action)


@pytest.mark.parametrize("seed", range(4))
def test_1_3_the_public_state_agrees_with_the_board(rules: Ruleset, seed: int) -> None:
    state = new_game(rules, 3 + seed, seed, {"tides_of_battle": seed % 2 == 0})
    rnd = random.Random(seed)
    checked_combats = 0
    while pending(state):
        house = rnd.choice(sorted(pending(state)))
        mine = public_state(player_view(state, house), rules)
        for area in rules.areas:
            assert board.controller(mine, area) == board.controller(state, area)
        for h in state.houses:
            assert board.within_supply(mine, h) == board.within_supply(state, h)
            assert board.castle_count(mine, h) == board.castle_count(state, h)
        combat = state.combat
        if combat is not None and combat.attacker.card is not None:
            for which in ("attacker", "defender"):
                assert initial_strength(mine, mine.combat, which) == initial_strength(
                    state, combat, which
                )
            checked_combats += 1
        state, _ = apply(state, house, random_action(state, house, rnd))
    assert checked_combats > 0
