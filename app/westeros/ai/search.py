"""Search for the strong AI: simulations of the real engine on determinized states.

The level's *model* policy (``Difficulty.model``: the baseline AI for Normal, the Standard AI
for Hard) makes the plans, predictions and simulated play named below; a house named in
``models`` (Hard's reading of its opponents, ``opponents``) is predicted and simulated with the
model given there instead.

- **Orders (4)**: candidate order sets for the seat come from the model policy in its own
  style and in bolder and warier variants, and from single-area changes of its plan; the other
  houses' orders are not yet known, so they are predicted with the model policy. For every
  candidate, all orders are revealed on a copy of the determinized state, the whole Action
  phase (5) is played by the model policy, and the end position is scored by the evaluation
  function; the candidate with the best utility is chosen. (Measured: weighing in further
  opponent profiles with other styles, with or without regret matching over them, lost more
  against the baseline AI than more candidates of one's own gained.)
- **March, Raid, Consolidate Power, support (5.2-5.6, 5.4.1)**: each candidate answer is
  applied to the determinized state and the rest of the Action phase is played out.
- **House cards (5.4.3)** are a small simultaneous game: every pair of cards is played out to
  the end of the combat; the matrix game of both sides' utilities is solved by regret matching,
  and the answer is the best reply to the opponent's equilibrium mix blended with the card the
  model policy would choose for it.
- **Clash of Kings bids (3.6)** are a small simultaneous game of all bidders over bid levels,
  scored by the worth of the track position won (scaled by each house's ambition) minus the
  power paid (at the evaluation's default worth of a power token), solved by sampled regret
  matching; the answer is the best reply to the equilibrium blended with the model's bids.

Everything starts from the seat's own view (``determinize``); the search never sees a true
game state. Its work is counted (``Difficulty``), so the same seed gives the same answer."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import tracks
from ..engine.actions import Action, Bid, Choose
from ..engine.combat.cards import ChooseHouseCards, StartCardChoice
from ..engine.content import Ruleset
from ..engine.errors import IllegalAction
from ..engine.flow import apply
from ..engine.march import ResolveMarch
from ..engine.planning import OrderPlacement, PlaceOrders, order_areas
from ..engine.state import Order, State
from . import legal
from .analysis import Situation
from .baseline import BASELINE, Personality
from .determinize import (
    action_phase,
    card_choice,
    combat_steps,
    determinize,
    resume,
)
from .difficulty import Difficulty
from .evaluation import (
    DEFAULT_WEIGHTS,
    FIEFDOMS_VALUE,
    IRON_THRONE_VALUE,
    RAVEN_VALUE,
    STAR_VALUE,
    Weights,
)
from .evaluation import utilities as all_utilities
from .rollout import MODELS, ModelBot, RolloutPolicy, model_bot, play, situation
from .standard.combat import Outcomes

View = Mapping[str, Any]
PREDICTION_WEIGHT = 0.5
RM_ITERATIONS = 200
BID_ITERATIONS = 300
BID_SAMPLES = 64
MAX_BID_LEVELS = 12
ORDER_TYPES = ("march", "defense", "support", "consolidate_power", "raid")
PRICE = DEFAULT_WEIGHTS.power
VARIANTS = ((1.7, 0.7), (2.6, 0.5), (0.6, 1.7), (0.3, 2.2))


def variants(style: Personality) -> list[Personality]:
    """Bolder and warier versions of ``style`` (aggression and caution scaled by VARIANTS):
    the other plans a seat considers, in its own character."""
    return [
        dataclasses.replace(style, aggression=style.aggression * a, caution=style.caution * c)
        for a, c in VARIANTS
    ]


# ---------------------------------------------------------------------------------- games


def regret_matching(
    a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], iterations: int = RM_ITERATIONS
) -> tuple[list[float], list[float]]:
    """Average strategies of regret matching (RM+, linear averaging) for the row player (payoffs
    ``a``) and the column player (payoffs ``b``) of a bimatrix game."""
    n, m = len(a), len(a[0])
    row_regret = [0.0] * n
    col_regret = [0.0] * m
    row_sum = [0.0] * n
    col_sum = [0.0] * m
    for t in range(1, iterations + 1):
        x = mix(row_regret)
        y = mix(col_regret)
        row_value = [sum(a[i][j] * y[j] for j in range(m)) for i in range(n)]
        col_value = [sum(b[i][j] * x[i] for i in range(n)) for j in range(m)]
        row_mean = sum(x[i] * row_value[i] for i in range(n))
        col_mean = sum(y[j] * col_value[j] for j in range(m))
        for i in range(n):
            row_regret[i] = max(0.0, row_regret[i] + row_value[i] - row_mean)
            row_sum[i] += t * x[i]
        for j in range(m):
            col_regret[j] = max(0.0, col_regret[j] + col_value[j] - col_mean)
            col_sum[j] += t * y[j]
    return normalized(row_sum), normalized(col_sum)


def best_mean(rows: Sequence[Sequence[float]], conviction: float = 0.0) -> int:
    """The candidate with the best mean value over ``rows`` (one value per candidate each).
    Only candidates the first row evaluated count, and only rows that evaluated them all (a
    search stopped by its budget leaves a short last row); ties go to the first candidate,
    which also stays unless another beats it by more than ``conviction``."""
    count = len(rows[0])
    used = [values for values in rows if len(values) >= count]
    means = [sum(values[i] for values in used) / len(used) for i in range(count)]
    best = max(range(count), key=lambda i: (means[i], -i))
    return best if means[best] - means[0] > conviction else 0


def mix(regrets: Sequence[float]) -> list[float]:
    """The regret-matching strategy: proportional to positive regret, uniform without any."""
    positive = [max(0.0, r) for r in regrets]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [p / total for p in positive]


def normalized(weights: Sequence[float]) -> list[float]:
    """``weights`` scaled to sum to 1 (uniform if they sum to 0)."""
    total = sum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights)
    return [w / total for w in weights]


def bid_levels(power: int) -> list[int]:
    """The bids considered for a house with ``power`` available PT: all of them when few,
    else a spread from 0 to everything."""
    if power + 1 <= MAX_BID_LEVELS:
        return list(range(power + 1))
    step = power / (MAX_BID_LEVELS - 1)
    return sorted({round(i * step) for i in range(MAX_BID_LEVELS)})


def track_worth(state: State, track: str) -> list[float]:
    """What each position of ``track`` is worth (the evaluation's track values, 1.6)."""
    n = len(state.houses)
    if track == tracks.IRON_THRONE:
        return [IRON_THRONE_VALUE[min(i, 7)] for i in range(n)]
    if track == tracks.FIEFDOMS:
        return [FIEFDOMS_VALUE[min(i, 7)] for i in range(n)]
    stars = state.setup.star_limits
    return [
        STAR_VALUE * (stars[i] if i < len(stars) else 0) + (RAVEN_VALUE if i == 0 else 0.0)
        for i in range(n)
    ]


def positions(bids: Mapping[str, int], current: Sequence[str]) -> dict[str, int]:
    """Track positions after ``bids`` (3.6.3), ties kept in the ``current`` track order."""
    order = sorted(current, key=lambda h: (-bids.get(h, 0), current.index(h)))
    return {h: i for i, h in enumerate(order)}


# ---------------------------------------------------------------------------------- search


class Search:
    """One decision of one seat: everything it simulates starts from ``view``. The score of
    my positions uses ``weights``, the other houses' ``others`` (default: the hand-set ones).
    All its simulations keep house-card outcomes in ``outcomes`` (the seat's own table, kept
    over its decisions; default: one for this search)."""

    def __init__(
        self,
        view: View,
        rules: Ruleset,
        rnd: random.Random,
        level: Difficulty,
        style: Personality = BASELINE,
        weights: Weights | None = None,
        budget: float = 1.0,
        conviction: float = 0.0,
        others: Weights | None = None,
        models: Mapping[str, str] | None = None,
        outcomes: Outcomes | None = None,
    ) -> None:
        self.view = view
        self.rules = rules
        self.rnd = rnd
        self.level = level
        self.style = style
        self.me: str = view["house"]
        self.weights = dict.fromkeys(view["houses"], others) if others is not None else {}
        if weights is not None:
            self.weights[self.me] = weights
        self.conviction = conviction
        self.deadline = time.perf_counter() + level.time_cap * budget
        self.simulations = 0
        self.steps = 0
        self.models = dict(models or {})
        self.predictions: dict[str, dict[str, PlaceOrders]] = {}
        self.outcomes = outcomes if outcomes is not None else Outcomes()

    # ------------------------------------------------------------------ helpers
    def exhausted(self) -> bool:
        """Is the work budget of this decision spent (``Difficulty.steps``), or — the safety
        net — its share of the time budget?"""
        return self.steps >= self.level.steps or time.perf_counter() > self.deadline

    def simulate(self, state: State, policy: RolloutPolicy) -> dict[str, float]:
        """Play ``state`` on with ``policy`` and score the end: every house's utility."""
        end, made = play(state, policy)
        self.simulations += 1
        self.steps += made
        return self.utilities(end)

    def utilities(self, state: State) -> dict[str, float]:
        """Every house's win chance in ``state`` (my own weights for me)."""
        return all_utilities(state, self.weights)

    def policy(self, seed: int, styles: Mapping[str, Personality] | None = None) -> RolloutPolicy:
        """The rollout policy of one simulation: I play with my own style."""
        styles = {self.me: self.style, **(styles or {})}
        return RolloutPolicy(seed, styles, self.level.model, self.models, self.outcomes)

    def model_of(self, house: str) -> str:
        """The model policy ``house`` is predicted and simulated with."""
        return self.models.get(house, self.level.model)

    def model(self, style: Personality | None = None, house: str | None = None) -> ModelBot:
        """A bot of the model policy ``house`` is predicted with (default: the level's) with
        ``style`` (default: mine) for plans and predictions."""
        model = self.model_of(house) if house else self.level.model
        return model_bot(model, self.rnd.getrandbits(32), style or self.style, self.outcomes)

    # ------------------------------------------------------------------ Planning (4)
    def orders(self) -> PlaceOrders:
        """The order placement with the best utility (see module docstring)."""
        base = determinize(self.view, self.rules, self.rnd)
        data = self.view["prompt"]["data"]
        mine = self.order_candidates(base, data)
        field = self.predicted_orders(base)
        seed = self.rnd.getrandbits(32)
        row = []
        for placement, style in mine:
            state = base.copy()
            place(state, self.me, placement)
            for house, other in field.items():
                place(state, house, other)
            policy = RolloutPolicy(
                seed, {self.me: style}, self.level.model, self.models, self.outcomes
            )
            row.append(self.simulate(action_phase(state), policy)[self.me])
            if self.exhausted():
                break
        return mine[best_mean([row], self.conviction)][0]

    def order_candidates(
        self, base: State, data: Mapping[str, Any]
    ) -> list[tuple[PlaceOrders, Personality]]:
        """Up to ``order_candidates`` distinct placements, each with the style that plays it:
        the model's plan in my style, in the variant styles, then single-area changes."""
        sit = situation(base, self.me)
        out: list[tuple[PlaceOrders, Personality]] = []
        seen: set[tuple[tuple[str, str], ...]] = set()

        def add(placement: Action, style: Personality) -> None:
            assert isinstance(placement, PlaceOrders)
            key = tuple(sorted(placement.orders))
            if key not in seen:
                seen.add(key)
                out.append((placement, style))

        plan = self.model().place_orders(sit, data)
        add(plan, self.style)
        for variant in variants(self.style):
            add(self.model(variant).place_orders(sit, data), variant)
        bot = self.model()
        for placement in changes(plan, data, bot.filler_rank(sit), sit):
            add(placement, self.style)
        return out[: self.level.order_candidates]

    def predict(self) -> dict[str, dict[str, PlaceOrders]]:
        """The other houses' orders at this Planning view as every model this level reads
        them with predicts them (model → house → orders), as ``orders`` would."""
        self.predicted_orders(determinize(self.view, self.rules, self.rnd))
        return self.predictions

    def predicted_orders(self, base: State) -> dict[str, PlaceOrders]:
        """The order placement of every other house with units, as the model policy it is
        predicted with would place it (4.1: the areas, tokens and star limits of the prompts
        are public). A level that reads its opponents (``Difficulty.read_opponents``) keeps
        every model's prediction in ``predictions`` for ``opponents.OpponentModels``."""
        areas = order_areas(base)
        houses = tuple(h for h in tracks.turn_order(base) if h in areas and h != self.me)
        step = OrderPlacement(houses, tuple((h, tuple(areas[h])) for h in houses))
        out = {}
        for house in houses:
            prompt = step.prompt_for(base, house)
            sit = situation(base, house, prompt)
            own = self.model_of(house)
            for model in MODELS if self.level.read_opponents else (own,):
                placement = model_bot(model, self.rnd.getrandbits(32)).place_orders(
                    sit, prompt.data
                )
                assert isinstance(placement, PlaceOrders)
                self.predictions.setdefault(model, {})[house] = placement
            out[house] = self.predictions[own][house]
        return out

    # ------------------------------------------------------------------ Action phase (5)
    def best_of(self, candidates: Sequence[Action]) -> Action:
        """The candidate whose simulated rest of the Action phase is best for me; the first
        candidate (the model's choice) wins ties and is kept if nothing can be simulated."""
        if len(candidates) < 2:
            return candidates[0]
        rows: list[list[float]] = []
        for _ in range(max(1, self.level.samples)):
            base = resume(determinize(self.view, self.rules, self.rnd), self.view)
            if base is None:
                return candidates[0]
            seed = self.rnd.getrandbits(32)
            row = []
            for action in candidates:
                try:
                    state, _ = apply(base, self.me, action)
                except IllegalAction:
                    row.append(-1.0)
                    continue
                row.append(self.simulate(state, self.policy(seed))[self.me])
                if self.exhausted():
                    break
            rows.append(row)
            if self.exhausted():
                break
        return candidates[best_mean(rows, self.conviction)]

    def march_candidates(self, data: Mapping[str, Any]) -> list[Action]:
        """The model's march first; then, best scored by the model first and taking
        turns, plans that send every moving unit to one area and plans that split the army;
        last, removing the first order without moving (5.3.1); ``action_candidates`` at most."""
        bot = self.model()
        sit = Situation(self.view, self.rules)
        plans: list[tuple[float, ResolveMarch]] = []
        for area, info in sorted(data["marches"].items()):
            refused = legal.declined(data)
            plans.extend(p for p in bot.march_plans(sit, area, info, refused) if p[1].moves)
        plans.sort(key=lambda p: -p[0])
        whole = [p for _, p in plans if len(p.moves) == 1]
        split = [p for _, p in plans if len(p.moves) > 1]
        out: list[Action] = [bot.march(sit, data)]
        room = self.level.action_candidates - 1
        for plan in (p for pair in itertools.zip_longest(whole, split) for p in pair):
            if len(out) >= room:
                break
            if plan is not None and plan not in out:
                out.append(plan)
        stay = ResolveMarch(min(data["marches"]), ())
        if stay not in out:
            out.append(stay)
        return out[: self.level.action_candidates]

    # ------------------------------------------------------------------ house cards (5.4.3)
    def house_card(self) -> Action:
        """The card of the simultaneous card game (see module docstring)."""
        data = self.view["prompt"]["data"]
        base = determinize(self.view, self.rules, self.rnd)
        combat = base.combat
        which = data["side"]
        opponent = combat.side(combat.other(which)).house
        mine = list(data["cards"])
        theirs: list[str | None] = [*base.hands[opponent]] or [None]
        choice = card_choice(base)
        steps = combat_steps(base, StartCardChoice)
        seed = self.rnd.getrandbits(32)
        a = [[0.0] * len(theirs) for _ in mine]
        b = [[0.0] * len(theirs) for _ in mine]
        for i, card in enumerate(mine):
            for j, other in enumerate(theirs):
                state = base.copy()
                commits: tuple[tuple[str, Action], ...] = ()
                if other is not None and opponent in choice.houses:
                    commits = ((opponent, Choose(other)),)
                state.stack = (*steps, ChooseHouseCards(choice.houses, commits))
                state.cache = None
                state, _ = apply(state, self.me, Choose(card))
                u = self.simulate(state, self.policy(seed))
                a[i][j] = u[self.me]
                b[i][j] = u[opponent]
        _, y = regret_matching(a, b)
        if opponent in choice.houses:
            guess = self.predicted_card(base, choice, opponent)
            y = [
                (1 - PREDICTION_WEIGHT) * y[j] + (PREDICTION_WEIGHT if theirs[j] == guess else 0.0)
                for j in range(len(theirs))
            ]
        value = [sum(a[i][j] * y[j] for j in range(len(theirs))) for i in range(len(mine))]
        best = max(range(len(mine)), key=lambda i: (value[i], -i))
        return Choose(mine[best])

    def predicted_card(self, base: State, choice: ChooseHouseCards, house: str) -> str:
        """The card the model policy would choose for ``house`` here."""
        prompt = choice.prompt_for(base, house)
        bot = self.model(BASELINE, house)
        action = bot.choose_house_card(situation(base, house, prompt), prompt.data)
        assert isinstance(action, Choose)
        return action.option

    # ------------------------------------------------------------------ bids (3.6)
    def bid(self) -> Action:
        """The Clash of Kings bid of the simultaneous bidding game (see module docstring)."""
        data = self.view["prompt"]["data"]
        base = determinize(self.view, self.rules, self.rnd)
        track = data["track"]
        plain = track_worth(base, track)
        current = base.tracks[track]
        bidders = [h for h in tracks.turn_order(base) if base.power[h] > 0]
        if self.me not in bidders:
            bidders.append(self.me)
        levels = {h: bid_levels(base.power[h]) for h in bidders}
        ambition = {h: self.weights.get(h, DEFAULT_WEIGHTS).tracks for h in bidders}
        worth = {h: [ambition[h] * w for w in plain] for h in bidders}
        strategies = self.bid_equilibrium(bidders, levels, worth, current)
        predicted = {h: self.predicted_bid(base, h, track) for h in bidders if h != self.me}
        mine = levels[self.me]
        if data["max"] not in mine:
            mine = [*mine, data["max"]]
        value = [0.0] * len(mine)
        for _ in range(BID_SAMPLES):
            others: dict[str, int] = {}
            for h in bidders:
                if h == self.me:
                    continue
                if self.rnd.random() < PREDICTION_WEIGHT:
                    others[h] = predicted[h]
                else:
                    others[h] = self.rnd.choices(levels[h], strategies[h])[0]
            for i, amount in enumerate(mine):
                pos = positions({**others, self.me: amount}, current)[self.me]
                value[i] += worth[self.me][pos] - PRICE * amount
        best = max(range(len(mine)), key=lambda i: (value[i], -mine[i]))
        return Bid(max(data["min"], min(data["max"], mine[best])))

    def bid_equilibrium(
        self,
        bidders: Sequence[str],
        levels: Mapping[str, list[int]],
        worth: Mapping[str, Sequence[float]],
        current: Sequence[str],
    ) -> dict[str, list[float]]:
        """Average strategies of sampled regret matching for all bidders."""
        regret = {h: [0.0] * len(levels[h]) for h in bidders}
        total = {h: [0.0] * len(levels[h]) for h in bidders}
        for t in range(1, BID_ITERATIONS + 1):
            now = {h: mix(regret[h]) for h in bidders}
            sample = {h: self.rnd.choices(levels[h], now[h])[0] for h in bidders}
            for h in bidders:
                values = []
                for amount in levels[h]:
                    pos = positions({**sample, h: amount}, current)[h]
                    values.append(worth[h][pos] - PRICE * amount)
                mean = sum(p * v for p, v in zip(now[h], values, strict=True))
                regret[h] = [max(0.0, r + v - mean) for r, v in zip(regret[h], values, strict=True)]
                total[h] = [s + t * p for s, p in zip(total[h], now[h], strict=True)]
        return {h: normalized(total[h]) for h in bidders}

    def predicted_bid(self, base: State, house: str, track: str) -> int:
        """What the model policy would bid for ``house`` on ``track``."""
        data = {"track": track, "min": 0, "max": base.power[house]}
        action = self.model(BASELINE, house).bid(situation(base, house), data)
        assert isinstance(action, Bid)
        return action.amount


def place(state: State, house: str, placement: PlaceOrders) -> None:
    """Reveal ``house``'s ``placement`` on ``state`` (4.4)."""
    for area, token in placement.orders:
        state.orders[area] = Order(house, token)
    state.placed[house] = frozenset(t for _, t in placement.orders)


def changes(
    plan: Action,
    data: Mapping[str, Any],
    rank: Callable[[str, Mapping[str, Any]], float],
    sit: Situation,
) -> list[PlaceOrders]:
    """Single-area changes of ``plan``, the most threatened areas first: every other order
    type in one area — the best unplaced token of that type within the star limit (4.3.1),
    else swapped with an area holding one — the rest of the plan kept (4.2)."""
    assert isinstance(plan, PlaceOrders)
    orders = dict(plan.orders)
    tokens = {t["id"]: t for t in legal.usable_tokens(data)}
    used = set(orders.values())
    stars = sum(tokens[t]["star"] for t in used)
    out = []
    for area in sorted(data["areas"], key=lambda a: (-sit.threat(a), a)):
        current = orders.get(area)
        movable = any(not u.routed for u in sit.units(area))
        for kind in ORDER_TYPES:
            if (current is not None and tokens[current]["type"] == kind) or (
                kind == "march" and not movable
            ):
                continue
            room = data["star_limit"] - stars + (tokens[current]["star"] if current else 0)
            free = [
                t
                for t in tokens.values()
                if t["type"] == kind and t["id"] not in used and t["star"] <= room
            ]
            if free:
                best = max(free, key=lambda t: (t["bonus"], t["id"]))
                new = orders | {area: best["id"]}
            else:
                holder = next(
                    (a for a, t in sorted(orders.items()) if tokens[t]["type"] == kind), None
                )
                if holder is None or current is None:
                    continue
                new = orders | {area: orders[holder], holder: current}
            out.append(legal.complete_orders(new, data, rank))
    return out
