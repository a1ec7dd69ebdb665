"""The 12 loan cards of the Iron Bank and their effects (RULES.md 11.9.6).

An effect resolves at once when its loan is bought (11.9.4); its choices are decisions of the
buyer (``ChooseOption`` steps, answered with ``Choose``). Area improvements and degradations
are kept in ``state.ext[IMPROVEMENTS]`` as (area, change) pairs and reach every rule through
``rule_area_changes`` (``changed_areas``): a power improvement is +1 crown, a supply
improvement +1 barrel, ``stronghold`` makes a castle a stronghold, ``degraded`` takes the
castle away (no mustering, no victory value). Units a loan places are not mustered: they need a
unit in the pool, an area the buyer controls of their domain (ships: a sea area or port it
holds), room under the area's unit cap and the supply limit."""

from __future__ import annotations

import dataclasses

from westeros.engine import board, power, victory
from westeros.engine.choices import ChooseOption
from westeros.engine.content import N_, AreaDef
from westeros.engine.flow import Prompt
from westeros.engine.state import State

IMPROVEMENTS = "area_improvements"
CROWN = "crown"
BARREL = "barrel"
STRONGHOLD = "stronghold"
DEGRADED = "degraded"
PASS = "pass"
MAX_SUPPLY = 6
DECKS = ("westeros-1", "westeros-2", "westeros-3")

CUSTOMS = "customs-officer"
ARTIFICER = "expert-artificer"
FULL_HOST = "full-host"
MAESTER = "loyal-maester"
MASTER_AT_ARMS = "master-at-arms"
PYROMANCER = "pyromancer"
STEWARD = "savvy-steward"
SEA_RAIDERS = "sea-raiders"
SIEGE = "siege-engineers"
SPYMASTER = "spymaster"
FACELESS = "the-faceless-men"
CAVALRY = "vanguard-cavalry"

LOANS: dict[str, tuple[str, str]] = {
    CUSTOMS: (N_("Customs Officer"), N_("Gain 10 Power tokens.")),
    ARTIFICER: (
        N_("Expert Artificer"),
        N_("Place a power improvement (+1 crown) on any land area, then gain 8 Power tokens."),
    ),
    FULL_HOST: (
        N_("Full Host"),
        N_(
            "Put a footman, a knight, a siege engine and a ship from your pool into areas you "
            "control."
        ),
    ),
    MAESTER: (
        N_("Loyal Maester"),
        N_("Place a supply improvement (+1 barrel) on each of two different land areas."),
    ),
    MASTER_AT_ARMS: (N_("Master-at-Arms"), N_("Two areas with a castle each become a stronghold.")),
    PYROMANCER: (
        N_("Pyromancer"),
        N_(
            "Degrade an area with a castle (it loses its castle), then give it a power or a "
            "supply improvement."
        ),
    ),
    STEWARD: (
        N_("Savvy Steward"),
        N_(
            "Place a supply improvement on any land area, then move your supply token up one "
            "position."
        ),
    ),
    SEA_RAIDERS: (
        N_("Sea Raiders"),
        N_("Put a footman and three ships from your pool into areas you control."),
    ),
    SIEGE: (
        N_("Siege Engineers"),
        N_("Put a footman and two siege engines from your pool into areas you control."),
    ),
    SPYMASTER: (
        N_("Spymaster"),
        N_(
            "Look at the top two cards of a Westeros deck; put any of them on the bottom and "
            "the rest back on top, in the order you choose."
        ),
    ),
    FACELESS: (
        N_("The Faceless Men"),
        N_("Kill a knight in one area and a footman in another; they may belong to any house."),
    ),
    CAVALRY: (
        N_("Vanguard Cavalry"),
        N_("Put three knights from your pool into areas you control."),
    ),
}
"""Every loan card: (name, effect), RULES.md 11.9.6."""

UNITS_OF = {
    FULL_HOST: ("footman", "knight", "siege_engine", "ship"),
    SEA_RAIDERS: ("footman", "ship", "ship", "ship"),
    SIEGE: ("footman", "siege_engine", "siege_engine"),
    CAVALRY: ("knight", "knight", "knight"),
}
"""The units each placing loan brings, in the order they are placed."""


# ---------------------------------------------------------------------------------- areas


def improvements(state: State) -> tuple[tuple[str, str], ...]:
    """The (area, change) pairs made so far, oldest first."""
    return tuple((str(a), str(c)) for a, c in state.ext.get(IMPROVEMENTS, ()))


def changed_areas(state: State) -> list[AreaDef]:
    """Every area the loans changed, as it is now (``rule_area_changes``)."""
    base = state.rules.base.areas
    by_area: dict[str, list[str]] = {}
    for area, change in improvements(state):
        by_area.setdefault(area, []).append(change)
    out = []
    for area, changes in by_area.items():
        a = base[area]
        castle = a.castle
        for change in changes:
            castle = {STRONGHOLD: 2, DEGRADED: 0}.get(change, castle)
        out.append(
            dataclasses.replace(
                a,
                crowns=a.crowns + changes.count(CROWN),
                barrels=a.barrels + changes.count(BARREL),
                castle=castle,
            )
        )
    return out


def improve(state: State, house: str, area: str, change: str) -> None:
    """Change ``area`` for good and let every rule see it (11.9.6)."""
    state.ext[IMPROVEMENTS] = (*improvements(state), (area, change))
    board.refresh_areas(state)
    state.emit("area_improved", house=house, area=area, change=change)


def land_areas(state: State) -> tuple[str, ...]:
    """Land areas an improvement may go on (any, 11.9.6)."""
    return tuple(sorted(state.rules.land_areas))


def castles(state: State) -> tuple[str, ...]:
    """Areas with a castle, not a stronghold (S&R: Master-at-Arms and Pyromancer)."""
    return tuple(sorted(a for a in state.rules.castle_areas if state.rules.areas[a].castle == 1))


@dataclasses.dataclass(frozen=True, slots=True)
class Improve(ChooseOption):
    """The buyer picks the area of an improvement (or castle change) ``change``; ``more``
    further areas follow, each different from the ones chosen (Loyal Maester,
    Master-at-Arms)."""

    change: str = CROWN
    more: int = 0

    def chosen(self, state: State, option: str) -> None:
        improve(state, self.house, option, self.change)
        rest = tuple(o for o in self.options if o != option)
        if self.more and rest:
            state.push(Improve(self.house, rest, self.reason, self.change, self.more - 1))


@dataclasses.dataclass(frozen=True, slots=True)
class PyromancerTarget(ChooseOption):
    """Pyromancer: the castle area to degrade (11.9.6)."""

    def chosen(self, state: State, option: str) -> None:
        improve(state, self.house, option, DEGRADED)
        state.push(PyromancerGift(self.house, (CROWN, BARREL), self.reason, option))


@dataclasses.dataclass(frozen=True, slots=True)
class PyromancerGift(ChooseOption):
    """Pyromancer: a power or a supply improvement for the degraded ``area``."""

    area: str = ""

    def chosen(self, state: State, option: str) -> None:
        improve(state, self.house, self.area, option)


# ---------------------------------------------------------------------------------- units


def placements(state: State, house: str, unit: str) -> tuple[str, ...]:
    """Areas one new ``unit`` of ``house`` may be put in (11.9.6 notes), sorted."""
    rules = state.rules
    if board.available(state, house, unit) <= 0:
        return ()
    domain = rules.unit_types[unit].domain
    sizes = {a: len(u) for a, u in state.units.items() if u[0].house == house}
    out = []
    for area in rules.areas:
        if rules.domain[area] != domain or board.controller(state, area) != house:
            continue
        if board.occupant(state, area) not in (None, house) or not board.passable(state, area):
            continue
        cap = rules.kind(area).rules.unit_cap(state, area)
        here = sizes.get(area, 0)
        if cap is not None and here >= cap:
            continue
        if board.within_supply(state, house, {area: here + 1}):
            out.append(area)
    return tuple(sorted(out))


def missing_units(state: State, house: str, loan: str) -> list[str]:
    """The units of a placing ``loan`` that ``house``'s pool cannot give now (1.2.2, 11.4.3:
    Targaryen has no siege engines), in the loan's order; empty for any other loan."""
    missing = []
    left: dict[str, int] = {}
    for unit in UNITS_OF.get(loan, ()):
        left.setdefault(unit, board.available(state, house, unit))
        if left[unit] > 0:
            left[unit] -= 1
        else:
            missing.append(unit)
    return missing


def place_next(state: State, house: str, loan: str, units: tuple[str, ...]) -> None:
    """Offer the next of ``units`` that has somewhere to go (the rest are skipped)."""
    for i, unit in enumerate(units):
        areas = placements(state, house, unit)
        if areas:
            state.push(PlaceLoanUnit(house, (*areas, PASS), loan, unit, units[i + 1 :]))
            return
        state.emit("loan_unit_skipped", house=house, loan=loan, unit=unit)


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceLoanUnit(ChooseOption):
    """The buyer puts one ``unit`` of a loan into an area (or passes); ``rest`` follow."""

    prompt_kind = "loan_unit"
    unit: str = "footman"
    rest: tuple[str, ...] = ()

    def prompts(self, state: State) -> dict[str, Prompt]:
        p = ChooseOption.prompts(self, state)[self.house]
        return {self.house: dataclasses.replace(p, data={**p.data, "unit": self.unit})}

    def chosen(self, state: State, option: str) -> None:
        if option != PASS:
            board.add_units(state, option, self.house, (self.unit,))
            state.emit(
                "loan_unit_placed", house=self.house, loan=self.reason, unit=self.unit, area=option
            )
        place_next(state, self.house, self.reason, self.rest)


# ---------------------------------------------------------------------------------- Spymaster

SPY_ORDERS = {
    "top_12": ((0, 1), ()),
    "top_21": ((1, 0), ()),
    "bottom_1": ((1,), (0,)),
    "bottom_2": ((0,), (1,)),
    "bottom_12": ((), (0, 1)),
    "bottom_21": ((), (1, 0)),
}
"""Spymaster arrangements of the two cards seen (1 = the top one): the cards going back on top
(top first) and those going to the bottom (the last is the deck's bottom)."""
SPY_ORDERS_ONE = {"top_only": ((0,), ()), "bottom_only": ((), (0,))}
"""The two arrangements when the deck holds a single card."""


@dataclasses.dataclass(frozen=True, slots=True)
class SpymasterDeck(ChooseOption):
    """Spymaster: which Westeros deck to look at (11.9.6)."""

    def chosen(self, state: State, option: str) -> None:
        index = DECKS.index(option)
        seen = state.westeros_decks[index][:2]
        state.emit("westeros_deck_spied", house=self.house, deck=index + 1)
        state.emit("westeros_cards_seen", visible_to=frozenset({self.house}), cards=list(seen))
        orders = SPY_ORDERS if len(seen) == 2 else SPY_ORDERS_ONE
        state.push(SpymasterArrange(self.house, tuple(orders), self.reason, index, seen))


@dataclasses.dataclass(frozen=True, slots=True)
class SpymasterArrange(ChooseOption):
    """Spymaster: put the ``seen`` cards back on top or at the bottom, in the chosen order."""

    prompt_kind = "spymaster"
    deck: int = 0
    seen: tuple[str, ...] = ()

    def prompts(self, state: State) -> dict[str, Prompt]:
        p = ChooseOption.prompts(self, state)[self.house]
        return {self.house: dataclasses.replace(p, data={**p.data, "cards": list(self.seen)})}

    def chosen(self, state: State, option: str) -> None:
        top, bottom = (SPY_ORDERS | SPY_ORDERS_ONE)[option]
        deck = state.westeros_decks[self.deck]
        rest = deck[len(self.seen) :]
        new = (*(self.seen[i] for i in top), *rest, *(self.seen[i] for i in bottom))
        decks = list(state.westeros_decks)
        decks[self.deck] = new
        state.westeros_decks = tuple(decks)
        state.emit(
            "westeros_cards_arranged", house=self.house, deck=self.deck + 1, bottom=len(bottom)
        )


# ---------------------------------------------------------------------------------- Faceless Men


def with_unit(state: State, unit: str, exclude: str | None = None) -> tuple[str, ...]:
    """Areas holding a ``unit`` of any house, sorted."""
    return tuple(
        sorted(
            a for a, us in state.units.items() if a != exclude and any(u.type == unit for u in us)
        )
    )


def kill(state: State, house: str, area: str, unit: str) -> None:
    """The Faceless Men kill one ``unit`` in ``area`` (routed ones first)."""
    units = state.units[area]
    victim = min((u for u in units if u.type == unit), key=lambda u: not u.routed)
    board.remove_units(state, area, [victim])
    state.emit("loan_killed", house=house, victim=victim.house, area=area, unit=unit)
    victory.consequences(state)


@dataclasses.dataclass(frozen=True, slots=True)
class FacelessKill(ChooseOption):
    """The Faceless Men: the area of the ``unit`` to kill. The prompt names the unit and, per
    area, the house it belongs to (``victims``), so the buyer sees which pick hits whom."""

    prompt_kind = "faceless_men"
    unit: str = "knight"

    def prompts(self, state: State) -> dict[str, Prompt]:
        p = ChooseOption.prompts(self, state)[self.house]
        victims = {area: state.units[area][0].house for area in self.options}
        data = {**p.data, "unit": self.unit, "victims": victims}
        return {self.house: dataclasses.replace(p, data=data)}


@dataclasses.dataclass(frozen=True, slots=True)
class FacelessKnight(FacelessKill):
    """The Faceless Men: the area of the knight to kill."""

    def chosen(self, state: State, option: str) -> None:
        kill(state, self.house, option, "knight")
        faceless_footman(state, self.house, option)


def faceless_footman(state: State, house: str, knight_area: str | None) -> None:
    areas = with_unit(state, "footman", knight_area)
    if areas:
        state.push(FacelessFootman(house, areas, FACELESS))


@dataclasses.dataclass(frozen=True, slots=True)
class FacelessFootman(FacelessKill):
    """The Faceless Men: the area of the footman to kill (not the knight's)."""

    unit: str = "footman"

    def chosen(self, state: State, option: str) -> None:
        kill(state, self.house, option, "footman")


# ---------------------------------------------------------------------------------- effects


def gain(state: State, house: str, amount: int) -> None:
    state.emit("power_gained", gains={house: power.gain(state, house, amount)})


def resolve(state: State, house: str, loan: str) -> None:
    """Carry out the effect of ``loan`` for its buyer ``house`` (11.9.6)."""
    if loan == CUSTOMS:
        gain(state, house, 10)
    elif loan == ARTIFICER:
        gain(state, house, 8)
        state.push(Improve(house, land_areas(state), loan, CROWN))
    elif loan == MAESTER:
        state.push(Improve(house, land_areas(state), loan, BARREL, more=1))
    elif loan == STEWARD:
        state.supply[house] = min(MAX_SUPPLY, state.supply[house] + 1)
        state.emit("supply_raised", house=house, level=state.supply[house])
        state.push(Improve(house, land_areas(state), loan, BARREL))
    elif loan == MASTER_AT_ARMS:
        if castles(state):
            state.push(Improve(house, castles(state), loan, STRONGHOLD, more=1))
    elif loan == PYROMANCER:
        if castles(state):
            state.push(PyromancerTarget(house, castles(state), loan))
    elif loan in UNITS_OF:
        place_next(state, house, loan, UNITS_OF[loan])
    elif loan == SPYMASTER:
        decks = tuple(d for i, d in enumerate(DECKS) if state.westeros_decks[i])
        if decks:
            state.push(SpymasterDeck(house, decks, loan))
    elif loan == FACELESS:
        knights = with_unit(state, "knight")
        if knights:
            state.push(FacelessKnight(house, knights, loan))
        else:
            faceless_footman(state, house, None)
