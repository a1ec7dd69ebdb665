"""Hard reads how each other house plays (issue 15, Hard against a mixed field): every model
policy predicts the orders at Planning (4), the revealed orders (4.1) show which one was right,
and a house that the baseline policy keeps predicting better is then predicted and simulated as
a baseline house."""

from __future__ import annotations

import random
from collections.abc import Callable

from westeros.ai import ask
from westeros.ai.baseline import BaselineBot
from westeros.ai.difficulty import HARD
from westeros.ai.opponents import LEAD, OpponentModels
from westeros.ai.protocol import Player
from westeros.ai.rollout import RolloutPolicy, situation
from westeros.ai.search import Search
from westeros.ai.standard import StandardBot
from westeros.ai.strong import StrongBot
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending
from westeros.engine.planning import OrderPlacement, PlaceOrders, order_areas
from westeros.engine.setup import new_game
from westeros.engine.view import player_view

NO_TIME_LIMIT = 600.0
ROUNDS = 4
GREYJOY = PlaceOrders((("pyke", "march+0"), ("greyjoy-port", "support+0")))
"""What Greyjoy really places in the tests below."""
WRONG = PlaceOrders((("pyke", "defense+1"), ("greyjoy-port", "raid+0")))


def revealed_view(round_: int, placed: PlaceOrders, house: str = "greyjoy") -> dict[str, object]:
    """The part of Stark's view the reading looks at: the round and the revealed orders."""
    orders = {area: [house, token] for area, token in placed.orders}
    orders["winterfell"] = ["stark", "march+1*"]
    return {"house": "stark", "round": round_, "orders": orders}


def read_rounds(reader: OpponentModels, rules: Ruleset, rounds: int) -> None:
    """``rounds`` rounds in which the baseline predicted Greyjoy's orders and Standard did not."""
    for r in range(1, rounds + 1):
        reader.expect(r, {"baseline": {"greyjoy": GREYJOY}, "standard": {"greyjoy": WRONG}}, rules)
        reader.observe(revealed_view(r, GREYJOY), rules)


def test_4_1_a_house_the_baseline_predicts_better_is_read_as_a_baseline_house(
    rules: Ruleset,
) -> None:
    reader = OpponentModels("standard")
    read_rounds(reader, rules, 1)
    assert reader.models() == {}, "two matching orders are not yet enough to change the model"
    read_rounds(reader, rules, LEAD)
    assert reader.models() == {"greyjoy": "baseline"}


def test_4_1_only_revealed_orders_of_the_same_round_count_once(rules: Ruleset) -> None:
    reader = OpponentModels("standard")
    predictions = {"baseline": {"greyjoy": GREYJOY}, "standard": {"greyjoy": WRONG}}
    reader.expect(1, predictions, rules)
    planning = {"house": "stark", "round": 1, "orders": {"winterfell": ["stark", "march+0"]}}
    reader.observe(planning, rules)
    assert reader.matches == {}, "only my own orders are shown yet: nothing to compare"
    reader.observe(revealed_view(1, GREYJOY), rules)
    reader.observe(revealed_view(1, GREYJOY), rules)
    assert reader.matches["greyjoy"] == {"baseline": 2, "standard": 0}
    reader.expect(2, predictions, rules)
    reader.observe(revealed_view(3, GREYJOY), rules)
    reader.observe(revealed_view(2, GREYJOY), rules)
    assert reader.matches["greyjoy"] == {"baseline": 2, "standard": 0}, "round 2 was never seen"


def test_4_1_a_house_read_as_baseline_is_predicted_with_the_baseline_policy(
    rules: Ruleset,
) -> None:
    state = new_game(rules, 6, 3)
    view = player_view(state, "stark")
    read = Search(view, rules, random.Random(1), HARD, models={"greyjoy": "baseline"})
    predicted = read.predicted_orders(state)
    areas = order_areas(state)
    step = OrderPlacement(("greyjoy",), (("greyjoy", tuple(areas["greyjoy"])),))
    prompt = step.prompt_for(state, "greyjoy")
    baseline = BaselineBot(7).place_orders(situation(state, "greyjoy", prompt), prompt.data)
    standard = StandardBot(7).place_orders(situation(state, "greyjoy", prompt), prompt.data)
    assert set(baseline.orders) != set(standard.orders), "the two policies differ here"
    assert set(predicted["greyjoy"].orders) == set(baseline.orders)
    unread = Search(view, rules, random.Random(1), HARD).predicted_orders(state)
    assert set(unread["greyjoy"].orders) == set(standard.orders)


def test_4_1_in_simulations_a_house_read_as_baseline_plays_the_baseline_policy(
    rules: Ruleset,
) -> None:
    state = new_game(rules, 6, 3)
    policy = RolloutPolicy(1, model="standard", models={"greyjoy": "baseline"})
    placed = {}
    for house, bot in (("greyjoy", BaselineBot(7)), ("lannister", StandardBot(7))):
        prompt = pending(state)[house]
        expected = bot.place_orders(situation(state, house, prompt), prompt.data)
        placed[house] = policy.decide(state, house, prompt)
        assert placed[house] == expected, house
    prompt = pending(state)["greyjoy"]
    standard = StandardBot(7).place_orders(situation(state, "greyjoy", prompt), prompt.data)
    assert placed["greyjoy"] != standard, "Greyjoy's plan here differs between the policies"


def play_rounds(rules: Ruleset, others: Callable[[int], Player]) -> StrongBot:
    """Stark played by Hard against five ``others`` until the Planning after ``ROUNDS`` rounds
    (no time limit: Hard does its counted work, the same on any machine)."""
    hard = StrongBot(5, HARD)
    state = new_game(rules, 6, 11)
    seats = {h: others(i) for i, h in enumerate(state.houses)}
    seats["stark"] = hard
    while state.round <= ROUNDS:
        waiting = pending(state)
        house = min(waiting)
        action, _ = ask(seats[house], state, house, NO_TIME_LIMIT)
        state, _ = apply(state, house, action)
    return hard


def test_4_1_hard_reads_baseline_houses_from_their_orders(rules: Ruleset) -> None:
    hard = play_rounds(rules, BaselineBot)
    assert hard.opponents is not None
    for house, matched in hard.opponents.matches.items():
        assert matched["baseline"] > matched["standard"], house
    read = hard.opponents.models()
    assert set(read.values()) == {"baseline"}
    assert len(read) >= 4, read


def test_4_1_hard_keeps_its_standard_model_for_standard_houses(rules: Ruleset) -> None:
    hard = play_rounds(rules, StandardBot)
    assert hard.opponents is not None
    matched = hard.opponents.matches.values()
    assert sum(m["standard"] for m in matched) > sum(m["baseline"] for m in matched)
    assert hard.opponents.models() == {}
