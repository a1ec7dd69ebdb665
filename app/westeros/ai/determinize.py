"""Determinization (DESIGN §2): a full engine ``State`` built from one seat's ``player_view``,
with every hidden part sampled consistently with that view, and a step stack that lets the real
engine play on from the situation the seat is asked about.

What the view hides (RULES.md 0.4.4) and how it is sampled here:

- the order of the Westeros decks: each deck holds its whole composition (cards go back beneath
  their deck, 3.2.2), shuffled; the card revealed this round lies at the bottom;
- the order of the wildling deck: shuffled, the top card first if the seat looked at it (4.4);
- the engine's random seed (Tides of Battle draws, Winter is Coming shuffles): a fresh one;
- other houses' uncommitted orders, bids and house cards: not in the state at all — the search
  decides them with its own policies when it builds a situation (``search``).

Hands, discards, power and the board are public and copied as they are. Nothing here reads a
true game state: the only input is the view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import board, tracks
from ..engine.action_phase import CONSOLIDATE, MARCH, RAID, ActionPhase, OrderLoop
from ..engine.combat import start_combat
from ..engine.combat.cards import ChooseHouseCards, StartCardChoice
from ..engine.combat.support import CallForSupport, DeclareSupport
from ..engine.consolidate import ConsolidateTurn
from ..engine.content import Ruleset
from ..engine.flow import Step, advance
from ..engine.march import MarchTurn
from ..engine.public import public_state
from ..engine.raid import RaidTurn
from ..engine.state import State

View = Mapping[str, Any]


def westeros_decks(view: View, rules: Ruleset, rnd: random.Random) -> tuple[tuple[str, ...], ...]:
    """Every Westeros deck in a random order consistent with ``view`` (see module docstring)."""
    numbers = sorted({c.deck for c in rules.westeros_cards.values()})
    revealed = list(view["revealed_westeros"])
    decks = []
    for index, number in enumerate(numbers):
        cards = [c.id for c in rules.westeros_cards.values() if c.deck == number]
        cards = [c for c in cards for _ in range(rules.westeros_cards[c].count)]
        bottom = revealed[index] if index < len(revealed) else None
        if bottom in cards:
            cards.remove(bottom)
        rnd.shuffle(cards)
        if bottom is not None:
            cards.append(bottom)
        decks.append(tuple(cards))
    return tuple(decks)


def wildling_deck(view: View, rules: Ruleset, rnd: random.Random) -> tuple[str, ...]:
    """The wildling deck in a random order, the card the seat looked at on top (4.4)."""
    cards = list(rules.wildling_cards)
    top = view.get("wildling_top")
    if top in cards:
        cards.remove(top)
    rnd.shuffle(cards)
    return (top, *cards) if top else tuple(cards)


def determinize(view: View, rules: Ruleset, rnd: random.Random) -> State:
    """One sample of the full state the seat of ``view`` may be in, with an empty stack."""
    s = public_state(view, rules)
    s.seed = rnd.getrandbits(64)
    s.westeros_decks = westeros_decks(view, rules, rnd)
    s.wildling_deck = wildling_deck(view, rules, rnd)
    s.cache = None
    return s


# ---------------------------------------------------------------------------------- stacks


def loops_after(order_type: str, last: str | None) -> tuple[Step, ...]:
    """The Action-phase loops still to run, bottom of the stack first (5.1): after a ``last``
    house resolved an ``order_type`` order, that loop continues, then the later ones."""
    tail: list[Step] = []
    for kind in (CONSOLIDATE, MARCH, RAID):
        tail.append(OrderLoop(kind, last) if kind == order_type else OrderLoop(kind))
        if kind == order_type:
            break
    return tuple(tail)


def action_phase(state: State) -> State:
    """``state`` (orders revealed) set to play the whole Action phase (5.1), then stop."""
    state.stack = (ActionPhase(),)
    advance(state)
    return state


def combat_steps(state: State, after: type[Step]) -> tuple[Step, ...]:
    """The steps of the combat in ``state.combat`` that follow the first step of type ``after``
    (as ``start_combat`` queues them, 5.4), bottom of the stack first."""
    combat = state.combat
    scratch = state.copy()
    scratch.stack = ()
    start_combat(
        scratch,
        combat.attacker.house,
        combat.origin,
        combat.area,
        combat.attacker.units,
        combat.march_token,
    )
    steps: tuple[Step, ...] = scratch.stack
    index = next(i for i, step in enumerate(steps) if isinstance(step, after))
    return steps[:index]


def resume(state: State, view: View) -> State | None:
    """Give the determinized ``state`` the stack of the situation ``view`` asks about, so the
    engine can play on to the end of the Action phase; None for prompts it cannot rebuild."""
    me = view["house"]
    kind = view["prompt"]["kind"]
    data = view["prompt"]["data"]
    if kind == "raid":
        top: tuple[Step, ...] = (*loops_after(RAID, me), RaidTurn(me))
    elif kind == "march":
        top = (*loops_after(MARCH, me), MarchTurn(me))
    elif kind == "consolidate_power":
        top = (*loops_after(CONSOLIDATE, me), ConsolidateTurn(me))
    elif state.combat is not None and kind in ("declare_support", "choose_house_card"):
        if kind == "choose_house_card" and "reason" in data:
            return None
        loops = loops_after(MARCH, state.combat.attacker.house)
        if kind == "declare_support":
            top = (*loops, *combat_steps(state, CallForSupport), *later_supporters(state, me))
            top = (*top, DeclareSupport(me, tuple(data["support_areas"])))
        else:
            top = (*loops, *combat_steps(state, StartCardChoice), card_choice(state))
    else:
        return None
    state.stack = top
    state.cache = None
    return state


def later_supporters(state: State, me: str) -> tuple[Step, ...]:
    """The support declarations still to come after ``me``'s (5.4.1: in turn order), bottom
    of the stack first."""
    combat = state.combat
    fighting = (combat.attacker.house, combat.defender.house)
    by_house: dict[str, list[str]] = {}
    for area in board.support_sources(state, combat.area):
        by_house.setdefault(state.orders[area].house, []).append(area)
    order = [h for h in tracks.turn_order(state) if h in by_house and h not in fighting]
    later = order[order.index(me) + 1 :] if me in order else []
    return tuple(DeclareSupport(h, tuple(by_house[h])) for h in reversed(later))


def card_choice(state: State) -> ChooseHouseCards:
    """The secret house-card choice of the combat in ``state`` before anyone committed (5.4.3):
    every combatant with more than one card decides."""
    combat = state.combat
    sides = (combat.attacker, combat.defender)
    return ChooseHouseCards(tuple(s.house for s in sides if len(state.hands[s.house]) > 1))
