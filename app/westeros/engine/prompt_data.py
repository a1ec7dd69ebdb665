"""Typed schema of ``Prompt.data`` for every prompt kind of the engine and the base game, and
of the dict ``player_view`` returns (docs/protocol.md, "Prompt data" and "View").

Declarations only: the steps build plain JSON-ready dicts; these TypedDicts say exactly which
keys they hold and what each value is (a ``tuple[...]`` annotation is a fixed-length JSON array,
built as a list or a tuple). Kinds with a key that is a Python keyword (``from``, ``yield``)
use the functional TypedDict syntax. Plugins declare their own kinds in their own packages."""

from typing import Any, NotRequired, TypedDict

# ------------------------------------------------------------------ shared parts

UnitPair = tuple[str, str]
"""(area, unit type): a unit to choose, as prompts and SelectUnits actions name it."""


class OrderTokenData(TypedDict):
    """An order token (4.1): ``forbidden`` says why it may not be placed this round, or None."""

    id: str
    type: str
    bonus: int
    star: bool
    forbidden: str | None


# ------------------------------------------------------------------ choices (0.4.2, 8.2)


class ChooseOptionData(TypedDict):
    """``choose_option`` / ``use_blade``: pick one of ``options``; ``reason`` names the rule or
    card that asks; ``house`` the house affected when it is not the chooser (7.3.2)."""

    options: list[str]
    reason: str
    house: NotRequired[str]


class ChooseAreaData(TypedDict):
    """``choose_area`` / ``muster_area`` / ``destroy_area``: pick one of ``areas`` (or none,
    when ``optional``)."""

    areas: list[str]
    optional: bool
    reason: str


class RetreatData(ChooseAreaData):
    """``retreat`` (5.4.10): the retreat area; ``loser`` is the house whose units retreat."""

    loser: str


class DestroyUnitsData(TypedDict):
    """``destroy_units`` (5.4.9, 5.4.10, 7.3): destroy exactly ``count`` of ``units``."""

    count: int
    units: list[UnitPair]
    reason: str


class ReconcileSupplyData(DestroyUnitsData):
    """``reconcile_supply`` (3.4.3): destroy one army unit; ``armies`` are the army sizes now
    (largest first), ``allowed`` the supply-table row."""

    armies: list[int]
    allowed: list[int]


UpgradeUnitsData = TypedDict(
    "UpgradeUnitsData",
    {"min": int, "max": int, "units": list[UnitPair], "from": str, "to": str, "reason": str},
)
"""``upgrade_units`` (7.3.3): replace ``min``..``max`` of ``units`` (type ``from``) by ``to``."""

ReplaceUnitsData = TypedDict(
    "ReplaceUnitsData",
    {"count": int, "units": list[UnitPair], "from": str, "to": str, "reason": str},
)
"""``replace_units`` (7.3.3): replace exactly ``count`` of ``units`` (type ``from``) by ``to``."""


# ------------------------------------------------------------------ planning (4)


class PlaceOrdersData(TypedDict):
    """``place_orders`` (4.1-4.3): one order in each of ``areas``."""

    areas: list[str]
    tokens: list[OrderTokenData]
    star_limit: int
    fill_every_area: bool


class MessengerRavenData(TypedDict):
    """``messenger_raven`` (4.4): replace one of ``orders`` (area -> token) or pick an option."""

    options: list[str]
    orders: dict[str, str]
    tokens: list[OrderTokenData]
    star_limit: int
    stars_placed: int


# ------------------------------------------------------------------ bids (3.6, 7.2)


class BidData(TypedDict):
    """``bid`` (3.6.2): a secret bid of ``min``..``max`` power for ``track``."""

    track: str
    min: int
    max: int


class TieGroup(TypedDict):
    """Houses that bid the same ``bid``."""

    bid: int
    houses: list[str]


class OrderTiesData(TypedDict):
    """``order_ties`` (3.6.3): order the houses of each tied group on ``track``."""

    track: str
    groups: list[TieGroup]


class WildlingBidData(TypedDict):
    """``wildling_bid`` (7.2.1): a secret bid against the wildling ``strength``."""

    min: int
    max: int
    strength: int
    reason: str


# ------------------------------------------------------------------ action phase (5)


class RaidOrderData(TypedDict):
    """One Raid order: its token and the areas it may raid."""

    token: str
    targets: list[str]


class RaidData(TypedDict):
    """``raid`` (5.2): resolve one of ``raids`` (area -> order)."""

    raids: dict[str, RaidOrderData]
    may_skip_target: bool


class MarchDestinationData(TypedDict):
    """One destination: ``combat`` is ``house``, ``neutral`` or None, ``against`` the defending
    house, ``room`` how many more units fit (None: no cap). For a neutral force: its strength,
    whether the area has a castle, the marcher's own and the other houses' possible support."""

    area: str
    combat: str | None
    against: str | None
    room: int | None
    neutral: NotRequired[int]
    castle: NotRequired[bool]
    support: NotRequired[int]
    other_support: NotRequired[dict[str, int]]


class MarchOptionData(TypedDict):
    """One March order: movable ``units`` (types), ``staying`` units that cannot move, the
    destinations per unit domain, and whether a power token may stay (5.3.9)."""

    token: str
    bonus: int
    units: list[str]
    staying: int
    destinations: dict[str, list[MarchDestinationData]]
    may_leave_power: bool


class MarchData(TypedDict):
    """``march`` (5.3): resolve one of ``marches`` (area -> order); ``declined`` lists
    (neutral area, house) pairs that refused support (5.5.1)."""

    marches: dict[str, MarchOptionData]
    supply_limits: list[int]
    declined: list[tuple[str, str]]


class SupportNeutralAttackData(TypedDict):
    """``support_neutral_attack`` (5.5.1): whether ``support_areas`` help ``attacker`` against
    the neutral force in ``area``."""

    options: list[str]
    attacker: str
    area: str
    neutral_force: int
    support_areas: list[str]
    strength: int
    reason: str


ConsolidateOrderData = TypedDict(
    "ConsolidateOrderData", {"token": str, "yield": int, "may_muster": bool}
)
"""One Consolidate Power order: power it yields and whether it may muster instead (5.6)."""


class ConsolidatePowerData(TypedDict):
    """``consolidate_power`` (5.6): resolve one of ``orders`` (area -> order)."""

    orders: dict[str, ConsolidateOrderData]


class RecruitData(TypedDict):
    """A unit type that may be recruited, its cost and the areas it may go to."""

    unit: str
    cost: int
    areas: list[str]


UpgradeData = TypedDict("UpgradeData", {"from": str, "to": str, "cost": int})
"""An upgrade of a unit of type ``from`` to ``to`` (3.5.2)."""


class MusterData(TypedDict):
    """``muster`` (3.5): spend ``points`` in ``area`` on a recruit or an upgrade, pick an
    option (done), or muster first in one of ``other_areas`` (3.5.1: any order)."""

    area: str
    points: int
    recruits: list[RecruitData]
    upgrades: list[UpgradeData]
    options: list[str]
    other_areas: list[str]


# ------------------------------------------------------------------ combat (5.4)


class ChooseHouseCardData(TypedDict):
    """``choose_house_card`` (5.4.3): pick one of ``cards`` for ``side``. The secret choice
    names ``opponent`` and ``area``; a replacement card (Tyrion, Aeron) names ``reason``."""

    cards: list[str]
    side: str
    opponent: NotRequired[str]
    area: NotRequired[str]
    reason: NotRequired[str]


class DeclareSupportData(TypedDict):
    """``declare_support`` (5.4.1): whom ``support_areas`` help in the combat in ``area``."""

    options: list[str]
    attacker: str
    defender: str
    area: str
    support_areas: list[str]


PROMPT_DATA: dict[str, type] = {
    "bid": BidData,
    "choose_area": ChooseAreaData,
    "choose_house_card": ChooseHouseCardData,
    "choose_option": ChooseOptionData,
    "consolidate_power": ConsolidatePowerData,
    "declare_support": DeclareSupportData,
    "destroy_area": ChooseAreaData,
    "destroy_units": DestroyUnitsData,
    "march": MarchData,
    "messenger_raven": MessengerRavenData,
    "muster": MusterData,
    "muster_area": ChooseAreaData,
    "order_ties": OrderTiesData,
    "place_orders": PlaceOrdersData,
    "raid": RaidData,
    "reconcile_supply": ReconcileSupplyData,
    "replace_units": ReplaceUnitsData,
    "retreat": RetreatData,
    "support_neutral_attack": SupportNeutralAttackData,
    "upgrade_units": UpgradeUnitsData,
    "use_blade": ChooseOptionData,
    "wildling_bid": WildlingBidData,
}
"""Prompt kind -> the TypedDict of its ``data`` (engine and base game kinds)."""


# ------------------------------------------------------------------ the view (view.py)


class PromptView(TypedDict):
    """A prompt as a seat sees it: ``data`` is its kind's TypedDict in ``PROMPT_DATA`` (or the
    plugin's)."""

    kind: str
    actions: list[str]
    data: dict[str, Any]


class TakeBackView(PromptView):
    """The open simultaneous question a house may answer again, with its own ``commitment``
    (an action's JSON)."""

    commitment: dict[str, Any]


class CombatSideView(TypedDict):
    """One combatant: participating units as (type, routed), revealed card, support areas."""

    house: str
    units: list[tuple[str, bool]]
    card: str | None
    support: list[str]


class CombatView(TypedDict):
    """The combat in progress (5.4); ``data`` holds public step and plugin data."""

    area: str
    origin: str
    march_token: str
    attacker: CombatSideView
    defender: CombatSideView
    winner: str | None
    data: dict[str, Any]


class VictoryView(TypedDict):
    """The victory track (1.9.1, 9.1): castle areas and score (``rule_victory_points``)."""

    castles: dict[str, int]
    points: dict[str, int]
    by_castles: bool
    goal: int


class LimitsView(TypedDict):
    """The ends of the round (1.9.1), wildling (1.8.1) and supply (1.7) tracks."""

    last_round: int
    max_threat: int
    max_supply: int


class PlayerView(TypedDict):
    """``player_view(state, house)``: all a seat (``house`` None: a spectator) may know (0.4.4)."""

    house: str | None
    round: int
    options: dict[str, Any]
    houses: list[str]
    players: int
    tracks: dict[str, list[str]]
    units: dict[str, list[tuple[str, str, bool]]]
    orders: dict[str, tuple[str, str]]
    control: dict[str, str]
    power_tokens: dict[str, str]
    power: dict[str, int]
    garrisons: dict[str, int]
    neutral_forces: dict[str, int]
    blocked: list[str]
    supply: dict[str, int]
    victory: VictoryView
    limits: LimitsView
    hands: dict[str, list[str]]
    discards: dict[str, list[str]]
    westeros_deck_sizes: list[int]
    revealed_westeros: list[str]
    wildling_deck_size: int
    threat: int
    restrictions: list[str]
    blade_used: bool
    raven_used: bool
    combat: CombatView | None
    waiting_for: list[str]
    committed: list[str]
    prompt: PromptView | None
    winner: str | None
    ext: dict[str, Any]
    wildling_top: NotRequired[str]
    take_back: TakeBackView | None
