"""Vassals (RULES.md 11.2.5, 11.10): with the ``mod_vassals`` option a Mother of Dragons game
takes 3-6 players; every house no player takes (Targaryen excepted) is a vassal on the 7-player
board. A vassal starts from its vassal setup with supply 4 (11.10.2), has no power, never bids,
never holds a dominance token and cannot win (11.10.1); at the start of every Planning phase the
players claim the vassals they command this round (11.10.3) and answer for them; commanders place
at most 2 of a vassal's four orders after their own (11.10.4-11.10.5); a family never attacks,
raids or enters an area of another member, a vassal's support goes to its family, vassals avoid
ports and muster only at home (11.10.6); a vassal's emptied land area keeps a free power token
and its victory gives its commander 1 power (11.10.7); the commander makes the vassal's combat
choices, plays a card of the shared vassal deck for it (``vassal_cards``) and may use its own
Valyrian Steel Blade there (11.10.8)."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from westeros.engine import board, power
from westeros.engine.actions import Action
from westeros.engine.combat.context import Combat
from westeros.engine.content import LAND, GameOption, HouseOrders, OrderToken, Ruleset, Setup
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import Decision, Prompt, Step
from westeros.engine.state import TRACKS, Order, State

OPTION = "mod_vassals"
COMMANDERS = "vassal_commanders"
"""``state.ext`` key: (vassal, commander) pairs of this round (public, 11.10.3)."""
VASSAL_SUPPLY = 4
PORT = "port"
"""The area kind vassals may not enter (11.10.6; the ports plugin's kind)."""
TOP_SPACES = 3

PLAYERS: dict[int, tuple[str, ...]] = {
    3: ("baratheon", "lannister", "stark"),
    4: ("baratheon", "lannister", "stark", "greyjoy"),
    5: ("baratheon", "lannister", "stark", "greyjoy", "tyrell"),
    6: ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell"),
}
"""The houses players take at each count (the base setups, 2.1); the other houses of the
7-player setup are vassals (11.2.5)."""

VASSAL_SETUPS: dict[str, tuple[tuple[str, str, int], ...]] = {
    "stark": (
        ("winterfell", "footman", 2),
        ("white-harbor", "knight", 1),
        ("moat-cailin", "knight", 1),
        ("karhold", "footman", 1),
        ("castle-black", "footman", 1),
        ("the-shivering-sea", "ship", 1),
    ),
    "greyjoy": (
        ("pyke", "footman", 1),
        ("pyke", "knight", 1),
        ("greywater-watch", "footman", 1),
        ("ironmans-bay", "ship", 2),
        ("sunset-sea", "ship", 2),
    ),
    "lannister": (
        ("lannisport", "footman", 2),
        ("stoney-sept", "knight", 1),
        ("riverrun", "footman", 1),
        ("riverrun", "knight", 1),
        ("the-golden-sound", "ship", 3),
    ),
    "baratheon": (
        ("dragonstone", "knight", 2),
        ("kingswood", "footman", 1),
        ("storms-end", "footman", 1),
        ("shipbreaker-bay", "ship", 2),
        ("blackwater-bay", "ship", 1),
    ),
    "tyrell": (
        ("highgarden", "footman", 1),
        ("oldtown", "knight", 1),
        ("three-towers", "footman", 1),
        ("dornish-marches", "knight", 1),
        ("redwyne-straights", "ship", 3),
    ),
    "martell": (
        ("sunspear", "footman", 1),
        ("salt-shore", "footman", 1),
        ("starfall", "footman", 1),
        ("yronwood", "footman", 1),
        ("yronwood", "knight", 1),
        ("sea-of-dorne", "ship", 1),
        ("east-summer-sea", "ship", 2),
    ),
    "arryn": (
        ("the-eyrie", "knight", 1),
        ("port-of-the-eyrie", "ship", 1),
        ("the-vale-of-arryn", "knight", 1),
        ("the-vale-of-arryn", "footman", 1),
        ("the-mountains-of-the-moon", "knight", 1),
        ("the-mountains-of-the-moon", "footman", 1),
        ("the-bite", "ship", 1),
        ("the-narrow-sea", "ship", 1),
    ),
}
"""Each house's vassal setup card (11.10.2, S&R data): (area, unit type, count)."""


SUPPORT_AFTER_RAID = "vassal-support+1"
DEFENSE_MUSTER = "vassal-defense+1-muster"
ORDER_TOKENS = (
    OrderToken("vassal-march+0", "march", 0, False),
    OrderToken(
        "vassal-raid-support+1",
        "raid",
        0,
        False,
        unused_becomes=SUPPORT_AFTER_RAID,
        restricted_as=frozenset({"support"}),
    ),
    OrderToken(DEFENSE_MUSTER, "defense", 1, False),
    OrderToken("vassal-defense+3", "defense", 3, False),
)
"""A vassal's four order tokens (11.10.4), none starred. The Raid/Support +1 raids like a plain
Raid and, resolved without a target, stays as a Support +1; Sea of Storms and Web of Lies both
forbid it (11.10.5); the Defense +1/Muster is
a Defense +1 until the Consolidate Power step, where in a castle area it musters like a
starred Consolidate Power (11.10.5)."""
VASSAL_TOKENS = frozenset(t.id for t in ORDER_TOKENS)
SUPPORT_SIDE = OrderToken(SUPPORT_AFTER_RAID, "support", 1, False)
"""The Support +1 side of the Raid/Support +1, never placed as such."""
MUSTER_SIDE = OrderToken("vassal-muster", "consolidate_power", 0, True)
"""The Muster side of the Defense +1/Muster in the Consolidate Power step, never placed as
such (starred: it may muster in a castle area, 5.6.2; a vassal gains no power, 11.10.7)."""
SIDES = (SUPPORT_SIDE, MUSTER_SIDE)
VASSAL_ORDERS = 2
"""Orders a commander may place for each of its vassals (11.10.4)."""


def game_option(requires: str) -> GameOption:
    """The ``mod_vassals`` option (off unless chosen; needs Mother of Dragons, ``requires``)."""
    return GameOption(
        OPTION,
        "Vassals",
        False,
        "With Mother of Dragons, play with 3 to 6 players: every house no player takes is a "
        "vassal that the players command in turn.",
        requires=requires,
    )


def setup_overrides(seven: Setup) -> list[Setup]:
    """The 3-6 player setups of Mother of Dragons (11.2.5): the 7-player board, houses and
    tracks, King's Landing as the only neutral force (11.1), ``players`` the houses players
    take."""
    return [dataclasses.replace(seven, player_count=n, players=p) for n, p in PLAYERS.items()]


# ---------------------------------------------------------------------------------- queries


def vassals(state: State) -> tuple[str, ...]:
    """The vassal houses of this game (11.10.1), in setup order."""
    players = state.setup.players
    return tuple(h for h in state.houses if players and h not in players)


def is_vassal(state: State, house: str) -> bool:
    """Is ``house`` a vassal (11.10.1)?"""
    players = state.setup.players
    return bool(players) and house not in players


def commanders(state: State) -> dict[str, str]:
    """Each claimed vassal's commander this round (11.10.3)."""
    return dict(state.ext.get(COMMANDERS, ()))


def commander(state: State, house: str) -> str | None:
    """The commander of vassal ``house`` this round, or None (unclaimed or not a vassal)."""
    return commanders(state).get(house)


def allowances(vassal_count: int, player_count: int) -> list[int]:
    """How many vassals each player in turn order may claim before anything is passed on
    (11.10.3): floor(V/P), plus one for the first V mod P players."""
    base, extra = divmod(vassal_count, player_count)
    return [base + (1 if i < extra else 0) for i in range(player_count)]


def players_in_turn_order(state: State) -> tuple[str, ...]:
    """The player houses in Iron Throne order."""
    return tuple(h for h in state.tracks["iron_throne"] if not is_vassal(state, h))


# ---------------------------------------------------------------------------------- setup


def setup(state: State) -> None:
    """Vassal setup (11.10.2): each vassal's units are its vassal setup card's instead of its
    normal ones, its supply starts at 4 and it has no power tokens; a vassal in the top three
    spaces of a track sends every vassal to the bottom of that track in their relative order
    (a player Targaryen still last, 11.2.3)."""
    if not state.setup.players:
        return
    for house in vassals(state):
        for area, units in list(state.units.items()):
            mine = [u for u in units if u.house == house]
            if mine:
                board.remove_units(state, area, mine)
        for area, unit, count in VASSAL_SETUPS[house]:
            board.add_units(state, area, house, [unit] * count)
        state.supply[house] = VASSAL_SUPPLY
        state.power[house] = 0
    for track in TRACKS:
        order = state.tracks[track]
        if any(is_vassal(state, h) for h in order[:TOP_SPACES]):
            order = tuple(
                [h for h in order if not is_vassal(state, h)]
                + [h for h in order if is_vassal(state, h)]
            )
            for hook in state.rules.hooks.track_order:
                order = tuple(hook(state, track, order))
            state.tracks[track] = order


# ---------------------------------------------------------------------------------- rules


LEFT_OUT = frozenset({"wildling_bid", "dominance", "victory", "power", "muster_away_from_home"})
"""Rule points a vassal takes no part in (11.10.1, 11.10.6, 11.10.7)."""


def left_out(state: State, house: str, point: str) -> bool:
    """Vassals never bid against wildlings nor suffer their effects, never hold a dominance
    token, cannot win, gain no power (11.10.1, 11.10.7) and muster for a Mustering card only in
    their home area (11.10.6)."""
    return point in LEFT_OUT and is_vassal(state, house)


@functools.cache
def _player_tokens(rules: Ruleset) -> frozenset[str]:
    return frozenset(rules.order_tokens) - VASSAL_TOKENS - {t.id for t in SIDES}


def house_orders(state: State, house: str) -> HouseOrders:
    """A vassal's orders: its four tokens, at most 2 orders, none starred, placed by its
    commander once every player has placed its own (11.10.4); every other house owns every
    token but the vassal tokens."""
    if is_vassal(state, house):
        return HouseOrders(
            VASSAL_TOKENS, VASSAL_ORDERS, fill_every_area=False, star_limit=0, after_others=True
        )
    return HouseOrders(_player_tokens(state.rules))


def family(state: State, house: str) -> frozenset[str]:
    """``house``'s family this round (11.10.6): its commander (or itself) and the commander's
    vassals."""
    links = commanders(state)
    head = links.get(house, house)
    return frozenset({head, *(v for v, c in links.items() if c == head)})


ENTERING = frozenset({"march", "retreat"})
"""The ``rule_off_limits`` kinds that move units into the area."""


def off_limits(state: State, house: str, area: str, kind: str) -> bool:
    """No family member marches into (attacks) an area another member controls, even by a
    power token alone, nor raids another member's order; vassals never enter ports, neither
    marching nor retreating (11.10.6, 6.3.5)."""
    if kind in ENTERING and state.rules.areas[area].kind == PORT and is_vassal(state, house):
        return True
    members = family(state, house)
    if len(members) < 2:
        return False
    if kind == "raid":
        order = state.orders.get(area)
        other = order.house if order is not None else None
    else:
        other = board.controller(state, area)
    return other is not None and other != house and other in members


def support_options(state: State, combat: Combat, house: str) -> tuple[str, ...] | None:
    """A vassal's support in a combat of a family member goes to that member (11.10.6)."""
    if not is_vassal(state, house):
        return None
    members = family(state, house)
    for which in ("attacker", "defender"):
        if combat.side(which).house in members:
            return (which,)
    return None


def vassal_victory(state: State, combat: Combat) -> None:
    """When a vassal wins a combat its commander gains 1 power token (11.10.7)."""
    if combat.winner is None:
        return
    winner = combat.side(combat.winner).house
    head = commander(state, winner)
    if head is not None and power.gain(state, head, 1):
        state.emit("vassal_won", house=head, vassal=winner)


def muster_orders(state: State, order_type: str) -> None:
    """As the Consolidate Power step begins, each vassal Defense +1/Muster in a castle area
    turns into its Muster side: its commander may muster there (11.10.5)."""
    if order_type != "consolidate_power":
        return
    for area, order in list(state.orders.items()):
        if order.token == DEFENSE_MUSTER and state.rules.areas[area].castle:
            state.orders[area] = Order(order.house, MUSTER_SIDE.id)


def free_power_tokens(state: State) -> None:
    """A vassal's land area emptied by its march gets a power token of the vassal, for free
    (11.10.7): after a March of this decision, its origin if no unit is left there."""
    for event in state.events:
        if event.kind != "march" or not is_vassal(state, event.data["house"]):
            continue
        house, area = event.data["house"], event.data["area"]
        rules = state.rules
        if (
            area not in state.units
            and area not in state.power_tokens
            and rules.domain[area] == LAND
            and rules.areas[area].home_of != house
            and rules.kind(area).rules.allows_power_token(state, area)
        ):
            state.power_tokens[area] = house
            state.emit("vassal_power_token", house=house, area=area)


def answering_house(state: State, house: str) -> str | None:
    """A vassal's commander answers for it (11.10.8); its links last until the next claiming
    (11.10.3), and before the first one the first player in turn order answers."""
    if not is_vassal(state, house):
        return None
    return commander(state, house) or players_in_turn_order(state)[0]


def planning_steps(state: State) -> list[Step]:
    """Claiming at the start of every Planning phase (11.10.3)."""
    return [StartClaiming()] if vassals(state) else []


# ---------------------------------------------------------------------------------- claiming


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimVassalsAction(Action):
    """The vassals a player claims this round (11.10.3); may be none."""

    kind: ClassVar[str] = "claim_vassals"
    vassals: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class StartClaiming(Step):
    """Clear every vassal link, then let the players claim in turn order (11.10.3)."""

    def run(self, state: State) -> None:
        state.ext[COMMANDERS] = ()
        state.push(ClaimVassals(players_in_turn_order(state), 0))


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimVassals(Decision):
    """Player ``players[index]`` claims up to its allowance plus what earlier players passed on
    (11.10.3); the last player takes every remaining vassal without being asked."""

    players: tuple[str, ...]
    index: int

    def unclaimed(self, state: State) -> tuple[str, ...]:
        """The vassals no player has claimed yet this round."""
        taken = commanders(state)
        return tuple(h for h in vassals(state) if h not in taken)

    def allowance(self, state: State) -> int:
        """How many vassals the current player may claim: its own share plus the shares that
        earlier players left unclaimed."""
        shares = allowances(len(vassals(state)), len(self.players))
        return min(
            sum(shares[: self.index + 1]) - len(commanders(state)), len(self.unclaimed(state))
        )

    def house(self) -> str:
        """The player claiming now."""
        return self.players[self.index]

    def prompts(self, state: State) -> dict[str, Prompt]:
        if self.index >= len(self.players) - 1 or not self.unclaimed(state):
            return {}
        house = self.house()
        data = {
            "vassals": list(self.unclaimed(state)),
            "max": self.allowance(state),
            "reason": "11.10.3",
        }
        return {house: Prompt(house, "claim_vassals", (ClaimVassalsAction.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, ClaimVassalsAction)
        offered = self.unclaimed(state)
        if len(set(action.vassals)) != len(action.vassals) or any(
            v not in offered for v in action.vassals
        ):
            raise IllegalChoice(f"{house} may claim only among {list(offered)}", rule="11.10.3")
        if len(action.vassals) > self.allowance(state):
            raise IllegalChoice(
                f"{house} may claim at most {self.allowance(state)} vassal(s)", rule="11.10.3"
            )
        state.pop()
        self.claim(state, house, action.vassals)
        state.push(ClaimVassals(self.players, self.index + 1))

    def run(self, state: State) -> None:
        """The last player takes the rest; a player left with no vassal to claim (every one
        taken before its turn) is told so in the log (11.10.3)."""
        rest = self.unclaimed(state)
        if rest:
            self.claim(state, self.players[-1], rest)
            return
        for house in self.players[self.index :]:
            state.emit("vassals_claimed", house=house, vassals=[], none_left=True)

    @staticmethod
    def claim(state: State, house: str, claimed: tuple[str, ...]) -> None:
        """Record ``house`` as the commander of ``claimed`` and say so in the log."""
        state.ext[COMMANDERS] = tuple(state.ext.get(COMMANDERS, ())) + tuple(
            (v, house) for v in claimed
        )
        state.emit("vassals_claimed", house=house, vassals=list(claimed))

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        offered = list(self.unclaimed(state))
        count = rnd.randint(0, self.allowance(state))
        return ClaimVassalsAction(tuple(rnd.sample(offered, count)))


def claim_most(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AIs' claim (11.10.3): as many vassals as allowed, the ones with most units in the
    seat's view first (a vassal's units defend and fight for its commander)."""
    data = view["prompt"]["data"]
    units = view["units"]

    def size(house: str) -> int:
        return sum(1 for area in units.values() for u in area if u[0] == house)

    ranked = sorted(data["vassals"], key=lambda h: (-size(h), h))
    return ClaimVassalsAction(tuple(ranked[: data["max"]]))
