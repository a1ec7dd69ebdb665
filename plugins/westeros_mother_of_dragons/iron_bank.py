"""The Iron Bank (RULES.md 11.9) with the ``mod_iron_bank`` option.

State, all in ``state.ext``: the three market slots ``iron_bank_slots`` (costs 7, 4, 1; "" for
an empty slot), their costs ``iron_bank_costs`` (for the board) and the loans bought
``iron_bank_loans`` ((house, loan) pairs) are public; the loan deck ``_iron_bank_deck`` is
secret (its order is hidden from every seat). Setup shuffles the 12 loans and gives every house
7 PT (11.9.1, S&R). At every round start the market ages (11.9.3); from round 2 on interest is
due before the Westeros phase (11.9.5). A loan is bought only by resolving an Iron Bank order in
the Consolidate Power step (11.9.4); on a map with a Braavos area its holder pays 1 PT less
(11.9.2)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from westeros.engine import board, power, rng, tracks
from westeros.engine.actions import Action, Choose, SelectUnits
from westeros.engine.choices import ChooseOption, DestroyUnits, units_to_pairs
from westeros.engine.content import AreaDef, Ruleset
from westeros.engine.flow import Prompt, Step, left_out
from westeros.engine.state import State

from . import loans
from .sea_orders import IRON_BANK, IRON_BANK_TOKEN

SLOTS = "iron_bank_slots"
DECK = "_iron_bank_deck"
LOANS_HELD = "iron_bank_loans"
SLOT_COSTS = "iron_bank_costs"
BRAAVOS_HOLDER = "iron_bank_braavos"
BRAAVOS = "braavos"
COSTS = (7, 4, 1)
STARTING_POWER = 7
PASS = "pass"


def enabled(state: State) -> bool:
    """Is the Iron Bank in this game?"""
    return bool(state.options.get(IRON_BANK))


def slots(state: State) -> tuple[str, str, str]:
    """The loans in the 7-, 4- and 1-cost slots ("" for an empty slot)."""
    found = tuple(state.ext.get(SLOTS, ("", "", "")))
    return (found[0], found[1], found[2])


def held(state: State, house: str) -> list[str]:
    """The loans ``house`` has bought, in order."""
    return [loan for h, loan in state.ext.get(LOANS_HELD, ()) if h == house]


# ---------------------------------------------------------------------------------- setup


def setup(state: State) -> None:
    """11.9.1: shuffle the loan deck, empty slots, 7 PT per house (S&R); vassals have no PT
    (11.10.1)."""
    if not enabled(state):
        return
    deck, state.seed = rng.shuffled(state.seed, tuple(loans.LOANS))
    state.ext[DECK] = deck
    state.ext[SLOTS] = ("", "", "")
    state.ext[LOANS_HELD] = ()
    state.ext[SLOT_COSTS] = COSTS
    for house in state.houses:
        if not left_out(state, house, "power"):
            state.power[house] = STARTING_POWER


def age_market(state: State) -> None:
    """11.9.3: draw the top loan into the 7-cost slot, shift the others one slot cheaper; the
    loan pushed out of the 1-cost slot goes to the bottom of the deck."""
    deck = tuple(state.ext.get(DECK, ()))
    seven, four, one = slots(state)
    if one:
        deck = (*deck, one)
    top, deck = (deck[0], deck[1:]) if deck else ("", deck)
    state.ext[DECK] = deck
    state.ext[SLOTS] = (top, seven, four)
    state.emit("loan_market", slots=[top, seven, four], discarded=one)


def round_start(state: State) -> None:
    """The market ages every round; from round 2 interest is due first (11.9.3, 11.9.5)."""
    if not enabled(state):
        return
    age_market(state)
    if state.round > 1:
        state.push(*(Interest(h) for h in tracks.turn_order(state) if held(state, h)))


# ---------------------------------------------------------------------------------- interest


def blade_chooser(state: State, debtor: str) -> str:
    """Who destroys a debtor's units (11.9.5): the Blade holder (never a vassal, 11.10.1), or
    if that is the debtor, the next house on the Fiefdoms track that is not a vassal."""
    holder = tracks.holder(state, tracks.FIEFDOMS)
    if holder != debtor:
        return holder
    order = state.tracks[tracks.FIEFDOMS]
    after = order[order.index(debtor) + 1 :]
    return next((h for h in after if not left_out(state, h, "dominance")), debtor)


@dataclasses.dataclass(frozen=True, slots=True)
class Interest(Step):
    """``house`` pays 1 PT per loan it holds; each missing PT costs it one unit (11.9.5)."""

    house: str

    def run(self, state: State) -> None:
        owed = len(held(state, self.house))
        paid = power.lose(state, self.house, owed)
        missing = owed - paid
        state.emit("interest_paid", house=self.house, paid=paid, missing=missing)
        if missing:
            chooser = blade_chooser(state, self.house)
            state.push(Default(self.house, missing, "11.9.5 Iron Bank interest", chooser=chooser))


@dataclasses.dataclass(frozen=True, slots=True)
class Default(DestroyUnits):
    """``chooser`` (the Blade holder) picks ``count`` of the debtor ``house``'s units anywhere
    to destroy (11.9.5)."""

    chooser: str = ""

    def prompts(self, state: State) -> dict[str, Prompt]:
        units = self.eligible(state)
        if len(units) <= self.count or self.count <= 0:
            return {}
        data = {
            "count": self.count,
            "units": units_to_pairs(units),
            "reason": self.reason,
            "debtor": self.house,
        }
        return {self.chooser: Prompt(self.chooser, "iron_bank_default", (SelectUnits.kind,), data)}


def strongest_units(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """AI answer to ``iron_bank_default``: destroy the debtor's strongest units."""
    data = view["prompt"]["data"]
    units = sorted(data["units"], key=lambda p: (-rules.unit_types[p[1]].strength, rnd.random()))
    return SelectUnits(tuple((a, t) for a, t in units[: data["count"]]))


# ---------------------------------------------------------------------------------- purchase


def braavos_holder(state: State) -> str | None:
    """The house holding the Iron Bank token of Braavos (11.9.2), None without Braavos."""
    if BRAAVOS not in state.rules.areas:
        return None
    now = board.controller(state, BRAAVOS)
    return now if now is not None else state.ext.get(BRAAVOS_HOLDER)


def track_braavos(state: State) -> None:
    """The token passes to whoever controls Braavos (11.9.2)."""
    if enabled(state) and BRAAVOS in state.rules.areas:
        now = board.controller(state, BRAAVOS)
        if now is not None and state.ext.get(BRAAVOS_HOLDER) != now:
            state.ext[BRAAVOS_HOLDER] = now


def costs(state: State, house: str) -> dict[str, int]:
    """The price of each loan on offer for ``house`` (11.9.4, 11.9.2)."""
    rebate = 1 if braavos_holder(state) == house else 0
    return {
        loan: max(0, cost - rebate) for loan, cost in zip(slots(state), COSTS, strict=True) if loan
    }


def affordable(state: State, house: str) -> dict[str, int]:
    """The loans ``house`` can pay for from its available PT, with their prices."""
    return {loan: c for loan, c in costs(state, house).items() if c <= state.power[house]}


@dataclasses.dataclass(frozen=True, slots=True)
class BuyLoan(ChooseOption):
    """The owner of a resolved Iron Bank order buys one loan on offer, or passes (11.9.4)."""

    prompt_kind = "iron_bank_loan"

    def prompts(self, state: State) -> dict[str, Prompt]:
        p = ChooseOption.prompts(self, state)[self.house]
        offer = affordable(state, self.house)
        short = {
            loan: missing
            for loan in offer
            if (missing := loans.missing_units(state, self.house, loan))
        }
        data = {**p.data, "costs": offer, "missing_units": short}
        return {self.house: dataclasses.replace(p, data=data)}

    def chosen(self, state: State, option: str) -> None:
        if option == PASS:
            state.emit("loan_declined", house=self.house)
            return
        cost = affordable(state, self.house)[option]
        power.lose(state, self.house, cost)
        state.ext[SLOTS] = tuple("" if s == option else s for s in slots(state))
        state.ext[LOANS_HELD] = (*state.ext.get(LOANS_HELD, ()), (self.house, option))
        state.emit("loan_taken", house=self.house, loan=option, cost=cost)
        loans.resolve(state, self.house, option)


def resolve_order(state: State, house: str, area: str, token: str) -> bool:
    """Resolve an Iron Bank order (11.9.4): offer the loans ``house`` can afford."""
    if token != IRON_BANK_TOKEN:
        return False
    offer = affordable(state, house) if enabled(state) else {}
    if not offer:
        state.emit("iron_bank_unused", house=house, area=area)
        return True
    state.push(BuyLoan(house, (*offer, PASS), "11.9.4 Iron Bank"))
    return True


LOAN_WORTH = 1.0
"""What the AIs gain from an Iron Bank order that can buy a loan: more than a Raid or an idle
Support, less than defending or supporting where it matters (``planning.order_ideas``)."""


def order_value(state: State, house: str, area: str) -> float:
    """AI value of an Iron Bank order (``OrderToken.ai_value``): worth placing when a loan on
    offer costs at most the house's PT less the 2 it keeps for interest and bids (the rule of
    ``dearest_loan``), else nothing."""
    if not enabled(state):
        return 0.0
    room = state.power[house] - 2
    return LOAN_WORTH if any(c <= room for c in costs(state, house).values()) else 0.0


def dearest_loan(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """AI answer to ``iron_bank_loan``: the dearest loan it can pay while keeping 2 PT for
    interest and bids, else pass."""
    data = view["prompt"]["data"]
    room = view["power"][view["house"]] - 2
    fit = [(c, loan) for loan, c in data["costs"].items() if c <= room]
    return Choose(max(fit)[1] if fit else PASS)


def area_changes(state: State) -> list[AreaDef]:
    """``rule_area_changes``: the areas the loans improved or degraded (11.9.6)."""
    return loans.changed_areas(state) if state.ext.get(loans.IMPROVEMENTS) else []
