"""What a seat knows, as an engine ``State``: the public board rebuilt from a ``player_view``.

The AI, the combat preview and the legality checks of a draft run the engine's own board and
combat queries (control, reach, supply, combat strength) on this state. It holds only what the
view shows (RULES.md 0.4.4): hidden parts are empty — no Westeros deck contents, no wildling
deck beyond a card the seat looked at (4.4), no secret commitments on the stack, no secret ``_``
keys. Nothing here ever reads a true game state.

The setup is the one the view names by its player count (``players``), not the one of its
number of houses: a plugin may seat fewer players than there are houses (a vassal game of 3-6
players is played on the 7-player board, RULES.md 11.2.5), and only its own setup says which
houses are vassals (11.10.1) and which order tokens each house owns (11.10.4). A view without a
player count, or naming a setup of other houses, raises ``UnreadableView``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import board
from .combat.context import Combat, Side
from .content import Ruleset, Setup
from .errors import ContentError, EngineError
from .setup import setup_for
from .state import Order, State, Unit


class UnreadableView(EngineError):
    """A view ``public_state`` cannot rebuild a state from (see the module docstring)."""


def frozen(value: Any) -> Any:
    """``value`` with every list turned into a tuple (views may have been through JSON)."""
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


def _side(data: Mapping[str, Any]) -> Side:
    house = data["house"]
    return Side(
        house,
        tuple(Unit(house, t, bool(r)) for t, r in data["units"]),
        data["card"],
        tuple(data["support"]),
    )


def combat_of(view: Mapping[str, Any]) -> Combat | None:
    """The combat in progress as the view shows it (secret data left out), or None."""
    data = view.get("combat")
    if not data:
        return None
    return Combat(
        area=data["area"],
        origin=data["origin"],
        march_token=data["march_token"],
        attacker=_side(data["attacker"]),
        defender=_side(data["defender"]),
        winner=data["winner"],
        data=tuple((k, frozen(v)) for k, v in sorted(data["data"].items())),
    )


def view_setup(view: Mapping[str, Any], rules: Ruleset) -> Setup:
    """The setup of the game ``view`` shows: the one of its player count, which must seat
    exactly its houses (RULES.md 2.1, 11.2.5). Raises UnreadableView otherwise."""
    players = view.get("players")
    if type(players) is not int:
        raise UnreadableView(
            f"the view does not name its game's player count (players: {players!r})"
        )
    if players not in rules.setups:
        raise UnreadableView(
            f"the view names {players} players; the rules have setups for {sorted(rules.setups)}"
        )
    try:
        setup = setup_for(rules, players, view.get("options") or {})
    except ContentError as exc:
        raise UnreadableView(f"the view's setup cannot be made: {exc}") from exc
    houses = tuple(view["houses"])
    if tuple(setup.houses) != houses:
        raise UnreadableView(
            f"the view's houses {list(houses)} are not those of the {players}-player setup "
            f"{list(setup.houses)}"
        )
    return setup


def public_state(view: Mapping[str, Any], rules: Ruleset) -> State:
    """A State holding exactly the public information of ``view`` (see module docstring)."""
    setup = view_setup(view, rules)
    houses = tuple(setup.houses)
    s = State.__new__(State)
    for name in State.__slots__:  # engine caches and any field a view does not describe
        setattr(s, name, None)
    s.rules = rules
    s.setup = setup
    s.options = dict(view["options"])
    s.seed = 0
    s.round = view["round"]
    s.houses = houses
    s.tracks = {t: tuple(order) for t, order in view["tracks"].items()}
    s.units = {
        area: tuple(Unit(h, t, bool(r)) for h, t, r in units)
        for area, units in view["units"].items()
        if units
    }
    s.orders = {area: Order(h, token) for area, (h, token) in view["orders"].items()}
    s.power_tokens = dict(view["power_tokens"])
    s.power = dict(view["power"])
    s.garrisons = dict(view["garrisons"])
    s.neutral = dict(view["neutral_forces"])
    s.blocked = frozenset(view["blocked"])
    s.supply = dict(view["supply"])
    s.hands = {h: tuple(c) for h, c in view["hands"].items()}
    s.discards = {h: tuple(c) for h, c in view["discards"].items()}
    s.placed = {h: frozenset(o.token for o in s.orders.values() if o.house == h) for h in houses}
    s.westeros_decks = tuple(() for _ in view["westeros_deck_sizes"])
    s.revealed = tuple(view["revealed_westeros"])
    top = view.get("wildling_top")
    s.wildling_deck = (top,) if top else ()
    s.threat = view["threat"]
    s.wildling_seen = frozenset({view["house"]}) if top else frozenset()
    s.restrictions = frozenset(view["restrictions"])
    s.blade_used = view["blade_used"]
    s.raven_used = view["raven_used"]
    s.stack = ()
    s.combat = combat_of(view)
    s.winner = view["winner"]
    s.ext = {k: frozen(v) for k, v in view["ext"].items()}
    s.events = []
    s.serial = 0
    board.refresh_areas(s)
    return s
