"""Content definitions: the typed objects plugins register through the ``register_*`` hooks,
and the ``Ruleset`` that merges them with the rule extension points (DESIGN §3).

Everything here is data plus callables; the engine never knows which plugin supplied what."""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ContentError

if TYPE_CHECKING:
    import random

    from .actions import Action
    from .combat.abilities import CardAbility
    from .combat.context import Combat
    from .flow import Step
    from .state import State

LAND = "land"
SEA = "sea"


@dataclass(frozen=True, slots=True)
class AreaRules:
    """Behaviour shared by every area of one kind (1.1.1). Subclass to add a kind (ports)."""

    def may_enter(self, state: State, house: str, area: str) -> bool:
        """May ``house`` move or retreat units into ``area`` at all (kind permitting)?"""
        return True

    def may_be_embattled(self, state: State, area: str) -> bool:
        """Can a combat ever take place in ``area``? (Ports: never, 6.1.4.)"""
        return True

    def unit_cap(self, state: State, area: str) -> int | None:
        """Most units one house may have in ``area`` (ports: 3 ships, 6.1.3)."""
        return None

    def controller(self, state: State, area: str) -> str | bool | None:
        """Who controls ``area``; return False to use the default rule (1.3)."""
        return False

    def consolidate_yield(self, state: State, area: str, house: str) -> int | None:
        """Power gained by a Consolidate Power order here; None for the default rule (5.6.1)."""
        return None

    def allows_power_token(self, state: State, area: str) -> bool:
        """May a house leave a power token here when it marches out (5.3.9)?"""
        return True


@dataclass(frozen=True, slots=True)
class AreaKind:
    """A kind of area (1.1.1): which units stand there and what it may support or raid.

    ``domain`` is ``land`` or ``sea``: land units stand in land-domain areas, ships in sea-domain.
    ``supports`` / ``raids``: the kinds of neighbouring areas an order here may support into or
    raid (5.2.1, 5.4.1). ``supported_from`` / ``raided_by``: the kinds of neighbouring areas whose
    orders may support into / raid an area of this kind. A new kind declares both directions of
    its relations with the kinds registered before it, so an older kind never names a newer one
    (ports: raided by sea areas); the Ruleset folds ``supported_from`` / ``raided_by`` into the
    other kinds' ``supports`` / ``raids``.
    """

    id: str
    domain: str
    supports: frozenset[str]
    raids: frozenset[str]
    counts_as_land: bool = False
    rules: AreaRules = field(default_factory=AreaRules)
    supported_from: frozenset[str] = frozenset()
    raided_by: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class AreaDef:
    """One area of the map (1.1). ``castle``: 0 none, 1 castle, 2 stronghold.

    ``attrs`` carries kind-specific facts (a port's ``port_of`` and ``port_sea``)."""

    id: str
    name: str
    kind: str
    castle: int = 0
    crowns: int = 0
    barrels: int = 0
    home_of: str | None = None
    garrison: int = 0
    attrs: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit type (1.2.1). ``vs_castle`` is the strength on the attacker's side against a castle
    area instead of ``strength`` (siege engines). ``upgrade_from`` lists types that may be
    upgraded into this one at ``upgrade_cost`` mustering points (3.5.2)."""

    id: str
    name: str
    domain: str
    strength: int
    muster_cost: int
    vs_castle: int | None = None
    upgrade_from: tuple[str, ...] = ()
    upgrade_cost: int = 1
    musterable: bool = True


@dataclass(frozen=True, slots=True)
class OrderToken:
    """One physical order token (1.4.1).

    A plugin's token may add: ``area_kinds``, the area kinds it may be placed in (empty: any);
    ``options``, game options of which one must be on for the token to be in the game (empty:
    always); ``raidable``, a Raid may remove an order of its (plugin) type (5.2.1, never
    pillaged); ``resolved_in``, the order loop (5.1) in which an order of its plugin type is
    resolved through ``rule_resolve_order`` (only ``consolidate_power`` is supported);
    ``ai_value(state, house, area)``, what the AIs' standard plans gain from an order of its
    plugin type in ``area`` (from the seat's public state; no function or 0: the token is
    placed only to fill an area no other order suits);
    ``unused_becomes``, the token an order of this one turns into, staying on the board, when
    it is resolved without a target (a vassal's Raid/Support +1, RULES.md 11.10.5; None: it is
    simply removed, 5.2.2); ``restricted_as``, other order types whose Westeros restrictions
    (3.3) forbid this token too (Web of Lies forbids the vassal Raid/Support +1, 11.10.5)."""

    id: str
    type: str
    bonus: int
    star: bool
    area_kinds: frozenset[str] = frozenset()
    options: frozenset[str] = frozenset()
    raidable: bool = False
    resolved_in: str | None = None
    ai_value: Callable[[State, str, str], float] | None = None
    unused_becomes: str | None = None
    restricted_as: frozenset[str] = frozenset()

    def in_game(self, options: Mapping[str, Any]) -> bool:
        """Is this token part of a game with ``options``?"""
        return not self.options or any(options.get(o) for o in self.options)

    def fits(self, kind: str) -> bool:
        """May this token be placed in an area of kind ``kind``?"""
        return not self.area_kinds or kind in self.area_kinds


@dataclass(frozen=True, slots=True)
class HouseDef:
    """A house (2.3): its home area and unit pool (its starting supply is the barrels it
    controls at setup, 2.3.5)."""

    id: str
    name: str
    home: str
    unit_limits: Mapping[str, int]
    colour: str = "#888888"


@dataclass(frozen=True, slots=True)
class HouseCard:
    """A house card (8.2). ``ability`` implements the timing windows of 5.4.4-5.4.11
    (see ``westeros.engine.combat.abilities.CardAbility``); None for a card without one."""

    id: str
    house: str
    name: str
    strength: int
    swords: int = 0
    fortifications: int = 0
    ability: CardAbility | None = None
    text: str = ""
    replaces: str | None = None
    """The id of a card this one takes the place of (in hands, the reference and the help);
    that card leaves the game (``register_house_cards``, docs/plugins.md)."""


def house_cards_from_data(
    houses: Mapping[str, Any], abilities: Mapping[str, CardAbility]
) -> list[HouseCard]:
    """The house cards of a data file's ``houses`` ({house: {"house_cards": [{id, name,
    strength, swords, fortifications}]}}), each with its ability from ``abilities`` (8.2)."""
    out = []
    for house, entry in houses.items():
        for c in entry["house_cards"]:
            ability = abilities.get(c["id"])
            out.append(
                HouseCard(
                    id=c["id"],
                    house=house,
                    name=c["name"],
                    strength=c["strength"],
                    swords=c["swords"],
                    fortifications=c["fortifications"],
                    ability=ability,
                    text=getattr(ability, "text", ""),
                )
            )
    return out


@dataclass(frozen=True, slots=True)
class StartingUnit:
    """Units a house places at setup (2.3.1)."""

    house: str
    area: str
    unit: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Setup:
    """A setup for one player count (2): houses, track orders, neutral forces, blocked areas,
    the supply table (1.7.3) and the starred-order limits by King's Court position (1.6.3)."""

    player_count: int
    houses: tuple[str, ...]
    tracks: Mapping[str, tuple[str, ...]]
    neutral_forces: Mapping[str, int]
    blocked_areas: frozenset[str]
    units_not_placed_in: frozenset[str]
    supply_table: tuple[tuple[int, ...], ...]
    star_limits: tuple[int, ...]
    players: tuple[str, ...] = ()
    """The houses players take, when some ``houses`` are in play without a player of their own
    (vassals, RULES.md 11.10); empty: a player for every house."""

    def seated_houses(self) -> tuple[str, ...]:
        """The houses with a player (a seat) of their own, in ``houses`` order: ``players``
        when set (the others are answered for, ``rule_answering_house``, RULES.md 11.10.8),
        else every house."""
        return tuple(h for h in self.houses if h in self.players) if self.players else self.houses


@dataclass(frozen=True, slots=True)
class WesterosCard:
    """A Westeros card (3.4). ``effect(state)`` resolves it (pushing steps for choices);
    ``reshuffle`` marks Winter is Coming (3.2.3)."""

    id: str
    name: str
    deck: int
    count: int
    wildling_icon: bool
    effect: Callable[[State], None] | None = None
    reshuffle: bool = False
    text: str = ""
    replaces: str | None = None
    """The id of a Westeros card this one takes the place of; that card leaves the game."""


@dataclass(frozen=True, slots=True)
class WildlingCard:
    """A wildling card (7.3): one callable per outcome, each given the state and a house."""

    id: str
    name: str
    nights_watch: Callable[[State, str], None]
    lowest_bidder: Callable[[State, str], None]
    everyone_else: Callable[[State, str], None]
    text: str = ""
    replaces: str | None = None
    """The id of a wildling card this one takes the place of; that card leaves the game."""


@dataclass(frozen=True, slots=True)
class ReferenceCard:
    """A card outside the house, Westeros and wildling decks (a Tides of Battle card, 10.1),
    listed by the card reference of "How to play" (``register_reference_cards``); no rule
    reads it. ``deck`` names its deck; ``option``, if set, is the game option that brings it."""

    id: str
    deck: str
    name: str
    text: str = ""
    count: int = 1
    option: str | None = None


@dataclass(frozen=True, slots=True)
class GameOption:
    """A game option shown on the new-game screen, e.g. Tides of Battle on/off."""

    id: str
    name: str
    default: Any
    description: str = ""
    requires: str | None = None
    """Another option this one only makes sense with: the new-game screen offers it only
    while that option is chosen, and its form keeps this option off without it."""


@dataclass(frozen=True, slots=True)
class MapShapes:
    """Geometry a plugin gives the generated map (``register_map_shapes``; the layout-file
    format of ``westeros.mapgen``): where its areas go, base areas it redraws (``replace``),
    and for a side board the room it adds to the canvas (``extend``). No rule reads it."""

    layout: Mapping[str, Any]


def N_(message: str) -> str:
    """Mark ``message`` as a gettext literal to be translated later (Babel's ``N_`` keyword)."""
    return message


class Words(Protocol):
    """What an event text may use to word an event (``westeros.server.narrate.Narrator``):
    the game's translations (``_``, ``ngettext``: write gettext literals, extracted by Babel)
    and content names in the reader's language. Every ``name`` method takes an id as the engine
    emits it and never returns the raw id of a known house, area, card, unit or option."""

    def _(self, message: str) -> str:
        """``message`` translated (a gettext literal with ``{name}`` placeholders)."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form for ``n``, translated."""
        ...

    def house(self, house: Any) -> str:
        """A house's name."""
        ...

    def join(self, items: Iterable[str]) -> str:
        """Items of a list joined in the reader's language ("a, b"; Chinese "a、b")."""
        ...

    def join_clauses(self, clauses: Iterable[str]) -> str:
        """Whole clauses of one log line joined ("a; b"; Chinese "a；b")."""
        ...

    def houses(self, houses: Iterable[Any]) -> str:
        """Several houses' names, joined."""
        ...

    def area(self, area: Any) -> str:
        """An area's name."""
        ...

    def card(self, card: Any) -> str:
        """A house, Westeros or wildling card's name."""
        ...

    def unit(self, unit: Any) -> str:
        """A unit type's name."""
        ...

    def units(self, units: Iterable[Any]) -> str:
        """Unit types (ids or [area, type] pairs) in words."""
        ...

    def track(self, track: Any) -> str:
        """An influence track's name."""
        ...

    def side(self, side: Any) -> str:
        """``attacker`` / ``defender`` / ``none`` in words."""
        ...

    def order_type(self, kind: Any) -> str:
        """An order type, or a kind of order a Westeros card forbids (``"march+1"``), in words."""
        ...

    def token(self, token: Any) -> str:
        """An order token in words ("March +1 (star)")."""
        ...

    def option(self, option: Any) -> str:
        """A ``choose`` option in words: a house, area or card name, or a registered label."""
        ...


class Describe(Protocol):
    """Words one event (its visible fields, as ``event_view`` gives them) as a sentence."""

    def __call__(self, words: Words, event: Mapping[str, Any], /) -> str: ...


@dataclass(frozen=True, slots=True)
class EventText:
    """How the game log words events of ``kind`` (``register_event_texts``).

    ``options`` labels the option ids a plugin's decisions offer (``Words.option``), each a
    gettext literal: {option id: English label}."""

    kind: str
    describe: Describe
    options: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)


class AnswerPolicy(Protocol):
    """An AI's answer to a plugin's prompt, from the seat's view alone (DESIGN §5): a legal
    action for ``view["prompt"]``, using ``rnd`` for any randomness."""

    def __call__(
        self, view: Mapping[str, Any], rules: Ruleset, rnd: random.Random, /
    ) -> Action: ...


@dataclass(frozen=True, slots=True)
class AiAnswer:
    """How the game's AIs answer prompts of ``kind`` (``register_ai_answers``)."""

    kind: str
    answer: AnswerPolicy


class StrengthModifier(Protocol):
    """``rule_strength_modifier``: added to ``side``'s combat strength (5.4.7). Read-only."""

    def __call__(self, state: State, combat: Combat, side: str, /) -> int: ...


class IconModifier(Protocol):
    """``rule_icon_modifier``: extra (swords, fortifications) for ``side`` (5.4.9). Read-only."""

    def __call__(self, state: State, combat: Combat, side: str, /) -> tuple[int, int]: ...


class CombatSteps(Protocol):
    """``rule_combat_step``: steps run after house-card abilities, before the Blade (5.4.5)."""

    def __call__(self, state: State, combat: Combat, /) -> list[Step]: ...


class CombatHook(Protocol):
    """``rule_after_casualties``: runs after sword casualties (5.4.9 item 5)."""

    def __call__(self, state: State, combat: Combat, /) -> None: ...


class StateHook(Protocol):
    """``rule_after_resolution`` / ``rule_round_start`` / ``rule_round_end`` / ``rule_setup``:
    a change to the state at that point of the rules."""

    def __call__(self, state: State, /) -> None: ...


class OrderResolver(Protocol):
    """``rule_resolve_order``: resolve ``house``'s order ``token`` in ``area`` (already taken
    off the board) if its type is the plugin's; True when it did."""

    def __call__(self, state: State, house: str, area: str, token: str, /) -> bool: ...


class AreaChanges(Protocol):
    """``rule_area_changes``: the areas whose facts this game has changed, as they are now."""

    def __call__(self, state: State, /) -> Iterable[AreaDef]: ...


class VictoryCheck(Protocol):
    """``rule_victory_check``: the winning house, or None (9.1)."""

    def __call__(self, state: State, /) -> str | None: ...


class VictoryPoints(Protocol):
    """``rule_victory_points``: ``house``'s victory-track score in place of its castle-area
    count, or None to keep the count (9.1, 9.2). Read-only."""

    def __call__(self, state: State, house: str, /) -> int | None: ...


class BidsRevealed(Protocol):
    """``rule_bids_revealed``: a step that changes the revealed ``bids`` for ``track`` and
    then builds it (``bidding.build_track``), or None to build it from ``bids`` (3.6)."""

    def __call__(self, state: State, track: str, bids: dict[str, int], /) -> Step | None: ...


class PowerIncome(Protocol):
    """``rule_power_income``: extra Game of Thrones power for ``house`` (3.4.6)."""

    def __call__(self, state: State, house: str, /) -> int: ...


class LeftOut(Protocol):
    """``rule_left_out``: True when ``house`` takes no part at rule ``point`` (a ``POINTS``
    name)."""

    def __call__(self, state: State, house: str, point: str, /) -> bool: ...


class PlanningSteps(Protocol):
    """``rule_planning_steps``: steps run at the start of the Planning phase, before orders
    are placed (4)."""

    def __call__(self, state: State, /) -> list[Step]: ...


class AnsweringHouse(Protocol):
    """``rule_answering_house``: the house whose player answers the prompts of ``house``, or
    None for ``house`` itself."""

    def __call__(self, state: State, house: str, /) -> str | None: ...


@dataclass(frozen=True, slots=True)
class HouseOrders:
    """How one house places orders (``rule_house_orders``; vassals, RULES.md 11.10.4): the
    ids of the order tokens it owns, at most ``max_orders`` orders (None: one per area with
    units), whether every area must get an order while a token fits (4.2), its star limit
    (None: by King's Court position, 1.6.3) and whether it is asked only once every house
    placing in the usual way has committed (``after_others``)."""

    tokens: frozenset[str]
    max_orders: int | None = None
    fill_every_area: bool = True
    star_limit: int | None = None
    after_others: bool = False


class HouseOrdersRule(Protocol):
    """``rule_house_orders``: how ``house`` places orders, or None for the usual way."""

    def __call__(self, state: State, house: str, /) -> HouseOrders | None: ...


class OffLimits(Protocol):
    """``rule_off_limits``: True when ``house`` may not march into ``area`` (``kind``
    "march"), retreat into it (``kind`` "retreat") or raid the order in it (``kind`` "raid")."""

    def __call__(self, state: State, house: str, area: str, kind: str, /) -> bool: ...


class SupportOptions(Protocol):
    """``rule_support_options``: the declarations ("attacker", "defender", "none") ``house``
    may make in ``combat``, or None for all three."""

    def __call__(self, state: State, combat: Combat, house: str, /) -> tuple[str, ...] | None: ...


class HandViewers(Protocol):
    """``rule_hand_viewers``: the houses that may see ``house``'s hand, or None for all."""

    def __call__(self, state: State, house: str, /) -> frozenset[str] | None: ...


class OrderLoopStart(Protocol):
    """``rule_order_loop_start``: runs when the 5.1 loop of ``order_type`` begins."""

    def __call__(self, state: State, order_type: str, /) -> None: ...


LEFT_OUT_POINTS = (
    "orders",
    "wildling_bid",
    "dominance",
    "victory",
    "power",
    "muster_away_from_home",
)
"""Rule points ``rule_left_out`` may leave a house out of: placing orders in the Planning phase
(4.1), bidding against (and suffering or gaining from) a wildling attack (7.2), holding a
dominance token (1.6.2, the next house down holds it), winning (9), gaining power tokens
(1.5.2) and mustering for a Mustering card anywhere but in its home area (3.4.4)."""


class MusterTargets(Protocol):
    """``rule_muster_targets``: extra areas a unit mustered in ``area`` may go (3.5.3)."""

    def __call__(self, state: State, area: str, house: str, unit_type: str, /) -> list[str]: ...


class UnitStrength(Protocol):
    """``rule_unit_strength``: the strength of a unit that is not routed, given the strength
    its type (and the castle rule) gives it (1.2.1). Read-only."""

    def __call__(self, state: State, unit: Any, strength: int, /) -> int: ...


class MarchReach(Protocol):
    """``rule_march_reach``: extra areas a marching group of exactly ``types`` may move to from
    ``area`` (5.3.2). Read-only."""

    def __call__(
        self, state: State, house: str, area: str, types: tuple[str, ...], /
    ) -> Iterable[str]: ...


class TrackArrangement(Protocol):
    """``rule_track_order``: the order an influence track is actually given when it is
    rebuilt or a house is moved on it (1.6.4). Read-only."""

    def __call__(self, state: State, track: str, order: tuple[str, ...], /) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class RuleHooks:
    """Rule extension points (DESIGN §3), each a tuple of callables in plugin order.

    - ``strength_modifiers(state, combat, side) -> int``: added to a side's combat strength.
    - ``icon_modifiers(state, combat, side) -> (swords, fortifications)``: added to a side's icons.
    - ``combat_steps(state, combat) -> list[Step]``: steps run after house-card abilities and
      before the Valyrian Steel Blade (Tides of Battle, 5.4.5).
    - ``after_casualties(state, combat) -> None``: after sword casualties (ToB skulls, 10.4).
    - ``after_resolution(state) -> None``: consequence checks (Appendix A.3; ports 6.3).
    - ``round_start(state) -> None`` / ``round_end(state) -> None``: at the start / Clean Up.
    - ``victory_checks(state) -> str | None``: an extra way to win, returning the winner.
    - ``power_income(state, house) -> int``: extra Game of Thrones power (ports 6.2.3).
    - ``muster_targets(state, area, house, unit) -> list[str]``: extra areas a unit mustered in
      ``area`` may be placed in (ports 6.2.4).
    - ``setup(state) -> None``: after the board is set up (ToB deck, port ships).
    - ``left_out(state, house, point) -> bool``: leave a house out of a rule point
      (``LEFT_OUT_POINTS``).
    - ``planning_steps(state) -> list[Step]``: steps at the start of the Planning phase.
    - ``answering_house(state, house) -> str | None``: who answers for a house.
    - ``house_orders(state, house) -> HouseOrders | None``: a house's tokens and order limits.
    - ``off_limits(state, house, area, kind) -> bool``: areas a house may not march into,
      retreat into or raid.
    - ``support_options(state, combat, house) -> tuple | None``: whom a house may support.
    - ``order_loop_start(state, order_type) -> None``: when a 5.1 order loop begins.
    - ``unit_strength(state, unit, strength) -> int``: a unit's strength in place of its type's.
    - ``march_reach(state, house, area, types) -> areas``: extra areas a marching group reaches.
    - ``track_order(state, track, order) -> order``: the order a track is given when it changes.
    - ``resolve_order(state, house, area, token) -> bool``: resolves an order of a plugin type.
    - ``area_changes(state) -> areas``: areas whose crowns, barrels or castle changed in play.
    - ``victory_points(state, house) -> int | None``: a score in place of the castle count.
    - ``bids_revealed(state, track, bids) -> Step | None``: adjusts revealed track bids.
    - ``combat_start(state, combat) -> None``: a combat begins, before support (5.4).
    - ``combat_end(state, combat) -> None``: a combat ends, before ``state.combat`` is cleared.
    - ``hand_viewers(state, house) -> houses | None``: who may see a house's hand.
    """

    strength_modifiers: tuple[StrengthModifier, ...] = ()
    icon_modifiers: tuple[IconModifier, ...] = ()
    combat_steps: tuple[CombatSteps, ...] = ()
    after_casualties: tuple[CombatHook, ...] = ()
    after_resolution: tuple[StateHook, ...] = ()
    round_start: tuple[StateHook, ...] = ()
    round_end: tuple[StateHook, ...] = ()
    victory_checks: tuple[VictoryCheck, ...] = ()
    power_income: tuple[PowerIncome, ...] = ()
    muster_targets: tuple[MusterTargets, ...] = ()
    setup: tuple[StateHook, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    planning_steps: tuple[PlanningSteps, ...] = ()
    answering_house: tuple[AnsweringHouse, ...] = ()
    house_orders: tuple[HouseOrdersRule, ...] = ()
    off_limits: tuple[OffLimits, ...] = ()
    support_options: tuple[SupportOptions, ...] = ()
    order_loop_start: tuple[OrderLoopStart, ...] = ()
    unit_strength: tuple[UnitStrength, ...] = ()
    march_reach: tuple[MarchReach, ...] = ()
    track_order: tuple[TrackArrangement, ...] = ()
    resolve_order: tuple[OrderResolver, ...] = ()
    area_changes: tuple[AreaChanges, ...] = ()
    victory_points: tuple[VictoryPoints, ...] = ()
    bids_revealed: tuple[BidsRevealed, ...] = ()
    combat_start: tuple[CombatHook, ...] = ()
    combat_end: tuple[CombatHook, ...] = ()
    hand_viewers: tuple[HandViewers, ...] = ()


def _index(items: Iterable[Any], what: str, attr: str = "id") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key = getattr(item, attr)
        if key in out and out[key] is not item:
            raise ContentError(f"duplicate {what} id {key!r}")
        out[key] = item
    return out


def _overridden(areas: Iterable[AreaDef], overrides: Iterable[AreaDef]) -> list[AreaDef]:
    """``areas`` with each area of ``overrides`` in place of the registered area of the same
    id (an expansion's board overlay, e.g. RULES.md 11.1)."""
    areas = list(areas)
    by_id = _index(list(overrides), "area override")
    unknown = set(by_id) - {a.id for a in areas}
    if unknown:
        raise ContentError(f"area override names unknown area {sorted(unknown)[0]!r}")
    return [by_id.get(a.id, a) for a in areas]


def _replaced(cards: Iterable[Any], removed: Collection[str], what: str) -> list[Any]:
    """``cards`` with each card that names another in ``replaces`` standing where that card
    stood (a chain of replacements ends at its last card), and without the cards whose ids are
    in ``removed``. A replacement naming no registered card, or two cards replacing the same
    one, is a ContentError naming them."""
    cards = list(cards)
    ids = {c.id for c in cards}
    by_replaced: dict[str, Any] = {}
    for card in cards:
        if card.replaces is None:
            continue
        if card.replaces not in ids:
            raise ContentError(f"{what} {card.id!r} replaces unknown {what} {card.replaces!r}")
        if card.replaces in by_replaced:
            first = by_replaced[card.replaces].id
            raise ContentError(
                f"{what} {card.replaces!r} is replaced twice, by {first!r} and {card.id!r}"
            )
        by_replaced[card.replaces] = card
    out = []
    for card in cards:
        if card.replaces is not None:
            continue
        while card.id in by_replaced:
            card = by_replaced[card.id]
        if card.id not in removed:
            out.append(card)
    return out


def _fold_relations(kinds: Iterable[AreaKind]) -> list[AreaKind]:
    """Each kind with the ``supports`` / ``raids`` that other kinds declare towards it through
    ``supported_from`` / ``raided_by`` (5.2.1, 5.4.1)."""
    kinds = list(kinds)
    out = []
    for kind in kinds:
        supports = kind.supports | {k.id for k in kinds if kind.id in k.supported_from}
        raids = kind.raids | {k.id for k in kinds if kind.id in k.raided_by}
        out.append(replace(kind, supports=frozenset(supports), raids=frozenset(raids)))
    return out


class Ruleset:
    """All content and rule hooks of one game, merged and indexed. Immutable once built.

    ``plugins`` records the (name, version) of every plugin that contributed, for saves."""

    def __init__(
        self,
        *,
        area_kinds: list[AreaKind],
        areas: list[AreaDef],
        adjacent: list[tuple[str, str]],
        unit_types: list[UnitType],
        order_tokens: list[OrderToken],
        houses: list[HouseDef],
        house_cards: list[HouseCard],
        starting_units: list[StartingUnit],
        setups: list[Setup],
        westeros_cards: list[WesterosCard],
        wildling_cards: list[WildlingCard],
        options: Iterable[GameOption] = (),
        hooks: RuleHooks | None = None,
        plugins: tuple[tuple[str, str], ...] = (),
        action_kinds: Iterable[type[Action]] = (),
        event_texts: Iterable[EventText] = (),
        ai_answers: Iterable[AiAnswer] = (),
        area_overrides: Iterable[AreaDef] = (),
        removed_adjacent: Iterable[tuple[str, str]] = (),
        setup_overrides: Iterable[Setup] = (),
        removed_cards: Iterable[str] = (),
    ) -> None:
        from .actions import engine_kinds

        areas = _overridden(areas, area_overrides)
        removed = frozenset(removed_cards)
        registered = {c.id for c in house_cards} | {c.id for c in westeros_cards}
        unknown = removed - registered - {c.id for c in wildling_cards}
        if unknown:
            raise ContentError(f"removed card {sorted(unknown)[0]!r} is not registered")
        house_cards = _replaced(house_cards, removed, "house card")
        westeros_cards = _replaced(westeros_cards, removed, "Westeros card")
        wildling_cards = _replaced(wildling_cards, removed, "wildling card")
        if removed_adjacent:
            gone = {frozenset(p) for p in removed_adjacent}
            adjacent = [p for p in adjacent if frozenset(p) not in gone]

        self.area_kinds: dict[str, AreaKind] = _index(_fold_relations(area_kinds), "area kind")
        self.areas: dict[str, AreaDef] = _index(list(areas), "area")
        self.unit_types: dict[str, UnitType] = _index(list(unit_types), "unit type")
        self.order_tokens: dict[str, OrderToken] = _index(list(order_tokens), "order token")
        self.houses: dict[str, HouseDef] = _index(list(houses), "house")
        self.house_cards: dict[str, HouseCard] = _index(list(house_cards), "house card")
        self.westeros_cards: dict[str, WesterosCard] = _index(list(westeros_cards), "Westeros card")
        self.wildling_cards: dict[str, WildlingCard] = _index(list(wildling_cards), "wildling card")
        self.options: dict[str, GameOption] = _index(list(options), "game option")
        self.action_kinds: dict[str, type[Action]] = _index(
            [*engine_kinds().values(), *action_kinds], "action kind", "kind"
        )
        self.event_texts: dict[str, EventText] = _index(event_texts, "event text", "kind")
        self.ai_answers: dict[str, AiAnswer] = _index(ai_answers, "AI answer", "kind")
        self.setups: dict[int, Setup] = {}
        for setup in setups:
            if setup.player_count in self.setups:
                raise ContentError(f"two setups for {setup.player_count} players")
            self.setups[setup.player_count] = setup
        for setup in setup_overrides:
            if setup.player_count not in self.setups:
                raise ContentError(
                    f"setup override for {setup.player_count} players, none to replace"
                )
            self.setups[setup.player_count] = setup
        self.starting_units = tuple(starting_units)
        self.hooks = hooks or RuleHooks()
        self.plugins = plugins
        self.adjacency: dict[str, frozenset[str]] = self._adjacency(adjacent)
        self.cards_of: dict[str, tuple[str, ...]] = {
            h: tuple(c.id for c in house_cards if c.house == h) for h in self.houses
        }
        self.home_of: dict[str, str] = {h.id: h.home for h in houses}
        self.domain: dict[str, str] = {a.id: self.area_kinds[a.kind].domain for a in areas}
        self.land_areas: tuple[str, ...] = tuple(
            a.id for a in areas if self.area_kinds[a.kind].counts_as_land
        )
        self.home_areas: dict[str, str] = {a.id: a.home_of for a in areas if a.home_of}
        self.custom_control: frozenset[str] = frozenset(
            a.id
            for a in areas
            if type(self.area_kinds[a.kind].rules).controller is not AreaRules.controller
        )
        self.default_control: frozenset[str] = frozenset(
            a for a in self.domain if self.domain[a] == LAND and a not in self.custom_control
        )
        self.base: Ruleset = self
        self._variants: dict[tuple[AreaDef, ...], Ruleset] = {}
        self._open_near: dict[frozenset[str], dict[str, dict[str, tuple[str, ...]]]] = {}
        self._index_areas()

    def _index_areas(self) -> None:
        """The lookups derived from ``areas``."""
        areas = list(self.areas.values())
        self.kind_of: dict[str, AreaKind] = {a.id: self.area_kinds[a.kind] for a in areas}
        self.capped_areas: frozenset[str] = self._ruled_by("unit_cap")
        self.entry_ruled_areas: frozenset[str] = self._ruled_by("may_enter")
        self.castle_areas: frozenset[str] = frozenset(a.id for a in areas if a.castle)
        self.barrel_areas: tuple[tuple[str, int], ...] = tuple(
            (a.id, a.barrels) for a in areas if a.barrels
        )
        self.seas_near: dict[str, tuple[str, ...]] = {
            area: tuple(a for a in near if self.areas[a].kind == SEA)
            for area, near in self.adjacency.items()
        }
        self.shores: dict[str, tuple[str, ...]] = {
            area: tuple(a for a in near if self.domain[a] == LAND)
            for area, near in self.adjacency.items()
            if self.areas[area].kind == SEA
        }

    def _ruled_by(self, method: str) -> frozenset[str]:
        """The areas whose kind's rules change ``AreaRules``' default ``method`` (the others'
        answer is the default: no unit cap, entry allowed)."""
        default = getattr(AreaRules, method)
        return frozenset(
            a
            for a, kind in self.kind_of.items()
            if getattr(type(kind.rules), method) is not default
        )

    def with_area_changes(self, changed: Iterable[AreaDef]) -> Ruleset:
        """This game's Ruleset with ``changed`` areas in place of the base ones (an area
        improved or degraded in play: ``rule_area_changes``); the same object for the same
        changes, the base Ruleset for none."""
        key = tuple(sorted(changed, key=lambda a: a.id))
        base = self.base
        if not key:
            return base
        if key not in base._variants:
            variant = copy.copy(base)
            variant.areas = {**base.areas, **{a.id: a for a in key}}
            variant._index_areas()
            base._variants[key] = variant
        return base._variants[key]

    def _adjacency(self, pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
        for area in self.areas.values():
            if area.kind not in self.area_kinds:
                raise ContentError(f"area {area.id!r} has unknown kind {area.kind!r}")
        adj: dict[str, set[str]] = {a: set() for a in self.areas}
        for a, b in pairs:
            if a not in self.areas or b not in self.areas:
                raise ContentError(f"adjacency {a!r}-{b!r} names an unknown area")
            adj[a].add(b)
            adj[b].add(a)
        return {a: frozenset(n) for a, n in adj.items()}

    def open_near(self, blocked: frozenset[str]) -> dict[str, dict[str, tuple[str, ...]]]:
        """For every area its adjacent areas that are not ``blocked`` (1.10.4), by domain, in
        ``adjacency`` order; worked out once per set of blocked areas (it depends on adjacency
        and domains alone, which areas changed in play keep: shared with the variants)."""
        table = self._open_near.get(blocked)
        if table is None:
            table = {}
            for area, near in self.adjacency.items():
                by_domain: dict[str, tuple[str, ...]] = {}
                for a in near:
                    if a not in blocked:
                        by_domain[self.domain[a]] = (*by_domain.get(self.domain[a], ()), a)
                table[area] = by_domain
            self._open_near[blocked] = table
        return table

    def kind(self, area: str) -> AreaKind:
        """The AreaKind of ``area``."""
        return self.kind_of[area]

    def option(self, options: Mapping[str, Any], key: str) -> Any:
        """The value of game option ``key`` in ``options``, or its registered default."""
        if key in options:
            return options[key]
        opt = self.options.get(key)
        return opt.default if opt else None
