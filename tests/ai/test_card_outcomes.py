"""House-card outcomes kept across simulations (RULES.md 5.4.3; issue 36 point 6): the Standard
AI's ``Outcomes`` table, keyed by the combat situation, gives the same outcomes and the same card
choice as a fresh preview, in combats of random games; each search seat keeps its own table."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ai.helpers import close_fight
from westeros.ai.difficulty import HARD
from westeros.ai.rollout import RolloutPolicy, situation
from westeros.ai.standard.combat import Outcomes, StandardCombat, situation_key
from westeros.ai.strong import StrongBot
from westeros.engine import preview
from westeros.engine.actions import Choose
from westeros.engine.combat.context import ATTACKER
from westeros.engine.content import Ruleset
from westeros.engine.flow import Prompt, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State
from westeros.engine.view import player_view

MAX_DECISIONS = 3000


def card_choice_of_a_random_game(
    rules: Ruleset, seed: int, skip: int
) -> tuple[State, str, Prompt] | None:
    """The house-card choice (5.4.3, not a forced replacement) of a random six-player game after
    ``skip`` others: the state, the combatant asked and its prompt; None if there is none."""
    state = new_game(rules, 6, seed)
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        waiting = pending(state)
        if not waiting:
            return None
        house = min(waiting)
        asked = [h for h, p in sorted(waiting.items()) if p.kind == "choose_house_card"]
        if asked and "reason" not in waiting[asked[0]].data:
            if skip == 0:
                return state, asked[0], waiting[asked[0]]
            skip -= 1
            house = asked[0]
        state, _ = apply(state, house, random_action(state, house, rnd))
    return None


def far_orders_changed(state: State) -> State:
    """A copy of ``state`` whose orders away from the combat (not in, next to or marched from
    the embattled area) are all Defense +1 orders of Stark, and no token counts as placed."""
    combat = state.combat
    near = {combat.area, combat.origin, *state.rules.adjacency[combat.area]}
    other = state.copy()
    for area in other.orders:
        if area not in near:
            other.orders[area] = Order("stark", "defense+1")
    other.placed = {h: frozenset() for h in other.houses}
    return other


def outcomes(state: State, house: str, card: str) -> list[tuple[str | None, bool, int]]:
    """(opponent's card, does ``house`` win, the loser's casualties) by a fresh preview."""
    rows = preview.card_preview(state, house, card)["against"]
    return [(r["opponent_card"], r["wins"], r["casualties"]) for r in rows]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000), skip=st.integers(0, 6))
def test_5_4_3_outcomes_kept_for_a_situation_are_those_of_a_fresh_preview(
    rules: Ruleset, seed: int, skip: int
) -> None:
    found = card_choice_of_a_random_game(rules, seed, skip)
    if found is None:
        return
    state, house, prompt = found
    other = far_orders_changed(state)
    assert situation_key(other) == situation_key(state)
    # The table is filled on the changed copy; read back for the real state, every pair of
    # cards gives what a fresh preview of the real state gives.
    kept = Outcomes()
    table = kept.table(other)
    cards = list(prompt.data["cards"])
    for card in cards:
        kept.rows(other, house, card, table)
    assert kept.table(state) is table
    for card in cards:
        assert kept.rows(state, house, card, table) == outcomes(state, house, card)
    # And the card chosen from the kept table is the one a bot with no table chooses.
    sit = situation(state, house, prompt)
    fresh = StandardCombat(seed).choose_house_card(sit, prompt.data)
    reused = StandardCombat(seed, outcomes=kept).choose_house_card(sit, prompt.data)
    assert isinstance(fresh, Choose)
    assert reused == fresh


def test_5_4_3_a_changed_hand_or_board_is_a_new_situation(rules: Ruleset) -> None:
    # Stark's knight and footman against Greyjoy holding only Asha: with Asha gone from the
    # hand, or a Greyjoy footman more in White Harbor, the outcomes may differ, so they are
    # worked out again instead of read.
    s = close_fight(rules)
    kept = Outcomes()
    first = kept.table(s)
    no_hand = s.copy()
    no_hand.hands["greyjoy"] = ()
    more = s.copy()
    more.units["white-harbor"] = (*s.units["white-harbor"], s.units["white-harbor"][0])
    blade = s.copy()
    blade.blade_used = False
    assert kept.table(no_hand) is not first
    assert kept.table(more) is not first
    assert kept.table(blade) is not first


def test_5_4_3_both_sides_of_a_simulated_combat_read_one_table(rules: Ruleset) -> None:
    # Inside one simulation Greyjoy weighs its only card first; Stark's choice then reads the
    # outcomes Greyjoy's previews found, seen from the attacker's side.
    s = close_fight(rules)
    policy = RolloutPolicy(1, model="standard")
    table = policy.outcomes.table(s)
    greyjoy = policy.bot("greyjoy")
    assert isinstance(greyjoy, StandardCombat)
    greyjoy.card_chances(situation(s, "greyjoy"), ["asha-greyjoy"])
    pairs = set(table)
    assert pairs and all(defender == "asha-greyjoy" for _, defender in pairs)
    assert s.combat.side_of("stark") == ATTACKER
    stark = policy.bot("stark")
    assert isinstance(stark, StandardCombat) and stark.outcomes is policy.outcomes
    chances = stark.card_chances(situation(s, "stark"), sorted(s.hands["stark"]))
    for card, (chance, _) in chances.items():
        won = table[(card, "asha-greyjoy")][0]
        assert chance == (1.0 if won else 0.0)


def test_each_hard_seat_keeps_its_own_outcomes(rules: Ruleset) -> None:
    # A table is filled from the states one seat samples from its own view: every seat has its
    # own, and its searches and their simulations use that one.
    s = close_fight(rules)
    stark, greyjoy = StrongBot(1, HARD), StrongBot(2, HARD)
    assert stark.outcomes is not greyjoy.outcomes
    view = player_view(s, "stark")
    search = stark.search(view, rules, 600.0)
    assert search.outcomes is stark.outcomes
    assert search.policy(0).outcomes is stark.outcomes
