"""The game state: compact, cheap to copy, fully deterministic (DESIGN §2).

Values stored in the state are immutable (ints, strings, tuples, frozensets, frozen dataclasses),
so ``copy()`` only copies the top-level containers. Engine code mutates a fresh copy and returns it;
the state a caller holds never changes."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .content import Ruleset, Setup

TRACKS = ("iron_throne", "fiefdoms", "kings_court")


class Unit(NamedTuple):
    """One unit on the board (1.2). ``routed`` units retreated this round (1.2.4)."""

    house: str
    type: str
    routed: bool = False


class Order(NamedTuple):
    """An order token on the board (1.4); ``token`` is an OrderToken id."""

    house: str
    token: str


class Event(NamedTuple):
    """Something that happened, for the game log. ``to`` is None when every house may see it,
    else the houses allowed to (player_view uses the same filter)."""

    kind: str
    data: dict[str, Any]
    to: frozenset[str] | None = None


@functools.cache
def _state_hash() -> Callable[[State], str]:
    """``encoding.state_hash``, imported on first use (the encoding module imports this one)."""
    from .encoding import state_hash

    return state_hash


class State:
    """Everything about one game at one moment. See module docstring for the copy contract."""

    __slots__ = (
        "blade_used",
        "blocked",
        "cache",
        "combat",
        "discards",
        "events",
        "ext",
        "garrisons",
        "hands",
        "houses",
        "neutral",
        "options",
        "orders",
        "placed",
        "power",
        "power_tokens",
        "raven_used",
        "restrictions",
        "revealed",
        "round",
        "rules",
        "seed",
        "serial",
        "setup",
        "stack",
        "supply",
        "threat",
        "tracks",
        "units",
        "westeros_decks",
        "wildling_deck",
        "wildling_seen",
        "winner",
    )

    rules: Ruleset
    setup: Setup
    options: dict[str, Any]
    seed: int
    round: int
    houses: tuple[str, ...]
    tracks: dict[str, tuple[str, ...]]
    units: dict[str, tuple[Unit, ...]]
    orders: dict[str, Order]
    power_tokens: dict[str, str]
    power: dict[str, int]
    garrisons: dict[str, int]
    neutral: dict[str, int]
    blocked: frozenset[str]
    supply: dict[str, int]
    hands: dict[str, tuple[str, ...]]
    discards: dict[str, tuple[str, ...]]
    placed: dict[str, frozenset[str]]
    westeros_decks: tuple[tuple[str, ...], ...]
    revealed: tuple[str, ...]
    wildling_deck: tuple[str, ...]
    threat: int
    wildling_seen: frozenset[str]
    restrictions: frozenset[str]
    blade_used: bool
    raven_used: bool
    stack: tuple[Any, ...]
    combat: Any
    winner: str | None
    ext: dict[str, Any]
    events: list[Event]
    serial: int
    cache: tuple[Any, dict[str, Any] | None, dict[Any, Any]] | None

    def copy(self) -> State:
        """A copy sharing every immutable value; its containers may be mutated freely. Every
        slot is named here (faster than a loop over ``__slots__``; a test checks none is
        missed)."""
        new = object.__new__(State)
        new.blade_used = self.blade_used
        new.blocked = self.blocked
        new.cache = None
        new.combat = self.combat
        new.discards = self.discards.copy()
        new.events = []
        new.ext = self.ext.copy()
        new.garrisons = self.garrisons.copy()
        new.hands = self.hands.copy()
        new.houses = self.houses
        new.neutral = self.neutral.copy()
        new.options = self.options
        new.orders = self.orders.copy()
        new.placed = self.placed.copy()
        new.power = self.power.copy()
        new.power_tokens = self.power_tokens.copy()
        new.raven_used = self.raven_used
        new.restrictions = self.restrictions
        new.revealed = self.revealed
        new.round = self.round
        new.rules = self.rules
        new.seed = self.seed
        new.serial = self.serial
        new.setup = self.setup
        new.stack = self.stack
        new.supply = self.supply.copy()
        new.threat = self.threat
        new.tracks = self.tracks.copy()
        new.units = self.units.copy()
        new.westeros_decks = self.westeros_decks
        new.wildling_deck = self.wildling_deck
        new.wildling_seen = self.wildling_seen
        new.winner = self.winner
        return new

    # ------------------------------------------------------------------ stack helpers
    def push(self, *steps: Any) -> None:
        """Schedule ``steps`` to run next, in the given order (the first runs first)."""
        self.stack = self.stack + tuple(reversed(steps))

    def replace_top(self, step: Any) -> None:
        """Replace the step on top of the stack (a decision recording a commitment)."""
        self.stack = (*self.stack[:-1], step)

    def pop(self) -> Any:
        """Remove and return the step on top of the stack."""
        top = self.stack[-1]
        self.stack = self.stack[:-1]
        return top

    def emit(self, kind: str, *, visible_to: frozenset[str] | None = None, **data: Any) -> None:
        """Record an event for the log of this apply(); ``visible_to`` limits who may see it
        (None: every house)."""
        self.events.append(Event(kind, data, visible_to))

    # ------------------------------------------------------------------ hashing
    def hash(self) -> str:
        """A stable hex digest of the whole state, from its versioned encoding
        (``encoding.state_hash``; DESIGN §2: replay gives the same hash)."""
        return _state_hash()(self)

    @property
    def over(self) -> bool:
        """True once the game has ended (instant win or after round 10)."""
        return self.winner is not None
