"""The AIs' answers to Targaryen's choices: the options of Westeros deck IV (RULES.md 11.11.2)
and the distribution of its Clash of Kings bid (11.6.6), every house deciding from its own
view only (``register_ai_answers``). Deck IV's prompts share the card's id as ``reason``; the
shape of the options says which of the card's questions is asked.

The heuristic is how reachable a loyalty token is for Targaryen (``reach``): an area it controls
is collected at the next collection point (11.6.3), else the weaker the area's defence the
likelier Targaryen takes it (dragons fly anywhere, 11.5.3). Targaryen puts and moves tokens
where they are most reachable; every other house where they are least."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from westeros.ai.analysis import Situation
from westeros.engine import board
from westeros.engine.actions import Action, Choose
from westeros.engine.content import Ruleset
from westeros.engine.state import Unit

from . import loyalty, targaryen_bids
from .dragons import DRAGON
from .westeros_deck_iv import DECLINE, DESTROY_DRAGON, DONE, RETURN_DRAGON, home_of

TARGARYEN = loyalty.TARGARYEN
CONTROLLED = 10.0
"""``reach`` of an area Targaryen controls: above any defence strength."""
SPARE = 1
"""Power tokens Targaryen keeps after paying for a card's option (for bids)."""
LUXURY = 3
"""Power Targaryen needs to pay for The Long Plan, whose tokens another house places."""
WATERING_MAX = 3
"""The most Watering the Seed may cost (its loyalty points) for two tokens to be worth it."""

Answer = Callable[[Situation, list[str]], str]


def reach(sit: Situation, area: str) -> float:
    """How reachable a loyalty token in ``area`` is for Targaryen (see module docstring)."""
    state = sit.state
    if sit.control.get(area) == TARGARYEN:
        return CONTROLLED
    defence = sit.area_strength(area) + state.garrisons.get(area, 0) + state.neutral.get(area, 0)
    return -float(defence)


def for_me(sit: Situation, area: str) -> float:
    """``reach`` as this house wants it: high for Targaryen, low for everyone else."""
    value = reach(sit, area)
    return value if sit.me == TARGARYEN else -value


def best_area(sit: Situation, areas: list[str]) -> str:
    """The area of ``areas`` best for me to hold a token (ties: the first by name)."""
    return max(sorted(areas), key=lambda a: for_me(sit, a))


def can_pay(sit: Situation, cost: int) -> bool:
    """Does paying ``cost`` PT leave me the power I keep (``SPARE``)?"""
    return sit.state.power.get(sit.me, 0) >= cost + SPARE


def pay_for_token(sit: Situation, options: list[str]) -> str:
    """Empty Promises, Southron Ambitions, Strongholds of Resistance: pay 1 PT for a token on
    the more reachable area when I keep a spare PT."""
    areas = [o for o in options if o != DECLINE]
    return best_area(sit, areas) if can_pay(sit, 1) else DECLINE


def domestic_disputes(sit: Situation, options: list[str]) -> str:
    """Domestic Disputes: pay 1 PT (first question only) and pick the houses whose home areas
    are the most reachable, as many as allowed."""
    if DECLINE in options and not can_pay(sit, 1):
        return DECLINE
    houses = [o for o in options if o not in (DECLINE, DONE)]
    homes = {h: home_of(sit.state, h) for h in houses}
    reachable = [h for h in houses if homes[h]]
    if not reachable:
        return DONE if DONE in options else DECLINE
    return max(sorted(reachable), key=lambda h: reach(sit, str(homes[h])))


def the_long_plan(sit: Situation, options: list[str]) -> str:
    """The Long Plan: Targaryen pays when rich and names the house with the fewest units (its
    areas are the weakest held); the named house puts its tokens where Targaryen reaches least."""
    if sit.me != TARGARYEN:
        return best_area(sit, options)
    if sit.state.power.get(sit.me, 0) < LUXURY:
        return DECLINE
    houses = [o for o in options if o != DECLINE]
    return min(sorted(houses), key=lambda h: sum(len(sit.units(a)) for a in owned(sit, h)))


def owned(sit: Situation, house: str) -> list[str]:
    """The areas whose units are ``house``'s."""
    return [a for a in sit.state.units if sit.occupant(a) == house]


def watering_the_seed(sit: Situation, options: list[str]) -> str:
    """Watering the Seed: pay its price (my loyalty points) when it is small and leaves a spare
    PT; both tokens on the most reachable river-adjacent areas."""
    areas = [o for o in options if o != DECLINE]
    if DECLINE in options:
        cost = loyalty.points(sit.state)
        if cost > WATERING_MAX or not can_pay(sit, cost):
            return DECLINE
    return best_area(sit, areas)


def dragon_strength(sit: Situation) -> int:
    """The strength of one of Targaryen's dragons now (11.5.2, the engine's hook)."""
    return board.unit_strength(sit.state, Unit(TARGARYEN, DRAGON), False)


def fire_made_flesh(sit: Situation, options: list[str]) -> str:
    """Fire Made Flesh: bring a destroyed dragon back when possible; destroy one only when the
    others, each a point stronger, outweigh all of them now; the dragon destroyed is one that
    leaves the most units of mine behind."""
    if RETURN_DRAGON in options:
        return RETURN_DRAGON
    if DESTROY_DRAGON in options:
        count = sum(u.type == DRAGON for a in owned(sit, TARGARYEN) for u in sit.units(a))
        now = dragon_strength(sit)
        return DESTROY_DRAGON if (count - 1) * (now + 1) > count * now else DECLINE
    if DECLINE in options:
        return DECLINE
    return max(sorted(options), key=lambda a: len(sit.units(a)))


def playing_with_fire(sit: Situation, options: list[str]) -> str:
    """Playing with Fire: Targaryen pays for the area next to most of its strength and gives
    the unit to the house with the fewest castles; the house placing picks its strongest
    defender."""
    rules = sit.rules
    if all(o in rules.unit_types for o in options):
        return max(
            sorted(options), key=lambda t: board.unit_strength(sit.state, Unit(sit.me, t), False)
        )
    if all(o in sit.state.houses for o in options):
        return min(sorted(options), key=lambda h: sit.castles.get(h, 0))
    if not can_pay(sit, 1):
        return DECLINE
    areas = [o for o in options if o != DECLINE]
    return max(sorted(areas), key=lambda a: nearby_strength(sit, a))


def nearby_strength(sit: Situation, area: str) -> int:
    """My strength in the areas next to ``area``."""
    return sum(
        sit.area_strength(n) for n in board.neighbours(sit.state, area) if sit.occupant(n) == sit.me
    )


def moved(sit: Situation, move: str) -> float:
    """How much more reachable a token becomes by ``move`` ("from>to")."""
    source, _, target = move.partition(">")
    return reach(sit, target) - reach(sit, source)


def move_token(sit: Situation, options: list[str]) -> str:
    """Scattering Dissent, Word Spreads Quickly: the move best for me (Targaryen's cancelling
    of another house's move is its own prompt, ``westeros_deck_iv.cancel_answer``)."""
    sign = 1.0 if sit.me == TARGARYEN else -1.0
    return max(sorted(options), key=lambda m: sign * moved(sit, m))


def distribute_bid(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AIs' answer to ``distribute_bid`` (11.6.6): Targaryen's bid is spent either way, so
    each PT goes to the weakest house (fewest castles, the first on the track among equals),
    never the castle leader, that the PT left can still lift past another house's revealed bid;
    when they lift no one, it stops and leaves the order the bids made."""
    data = view["prompt"]["data"]
    sit = Situation(view, rules)
    bids: dict[str, int] = {h: n for h, n in data["bids"]}
    left: int = data["left"]
    houses = [o for o in data["options"] if o != targaryen_bids.STOP and o != sit.leader]

    def lifts(house: str) -> bool:
        return any(o != house and bids[house] <= n < bids[house] + left for o, n in bids.items())

    weakest = sorted(houses, key=lambda h: (sit.castles.get(h, 0), houses.index(h)))
    return Choose(next((h for h in weakest if lifts(h)), targaryen_bids.STOP))


CHOICES: dict[str, Answer] = {
    "domestic-disputes": domestic_disputes,
    "empty-promises": pay_for_token,
    "fire-made-flesh": fire_made_flesh,
    "playing-with-fire": playing_with_fire,
    "scattering-dissent": move_token,
    "southron-ambitions": pay_for_token,
    "strongholds-of-resistance": pay_for_token,
    "the-long-plan": the_long_plan,
    "watering-the-seed": watering_the_seed,
    "word-spreads-quickly": move_token,
}
"""Prompt reason (a deck IV card) → its answer."""


def answer(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AI answer to a deck IV choice, from the seat's view alone."""
    data = view["prompt"]["data"]
    options = list(data["options"])
    pick = CHOICES[data["reason"]](Situation(view, rules), options)
    return Choose(pick if pick in options else options[0])
