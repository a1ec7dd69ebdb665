"""Setting up a new game (2): board, houses, tracks, decks, all from registered content."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import board, rng
from .content import Ruleset
from .errors import ContentError
from .flow import advance
from .round import Round
from .state import State

STARTING_POWER = 5
STARTING_THREAT = 2


def new_game(
    rules: Ruleset,
    players: int,
    seed: int | str = 0,
    options: Mapping[str, Any] | None = None,
    *,
    start: bool = True,
) -> State:
    """A new game for ``players`` houses (2.1-2.5), shuffled from ``seed``, waiting for the first
    decision (round 1 Planning; the Westeros phase is skipped in round 1). With ``start`` False
    the board is set up but no step is queued (rule tests push the step they exercise)."""
    if players not in rules.setups:
        raise ContentError(f"no setup for {players} players (have {sorted(rules.setups)})")
    setup = rules.setups[players]
    s = State.__new__(State)
    s.rules = rules
    s.setup = setup
    s.options = {k: rules.option(options or {}, k) for k in rules.options} | dict(options or {})
    s.seed = rng.seed_from(seed)
    s.round = 1
    s.houses = tuple(setup.houses)
    s.tracks = {t: tuple(order) for t, order in setup.tracks.items()}
    s.units = {}
    s.orders = {}
    s.power_tokens = {}
    s.power = {h: STARTING_POWER for h in s.houses}
    s.blocked = frozenset(a for a in setup.blocked_areas if a in rules.areas)
    s.garrisons = {
        a.id: a.garrison for a in rules.areas.values() if a.home_of in s.houses and a.garrison
    }
    s.neutral = {a: v for a, v in setup.neutral_forces.items() if a in rules.areas}
    s.supply = {}
    s.hands = {h: rules.cards_of[h] for h in s.houses}
    s.discards = {h: () for h in s.houses}
    s.placed = {h: frozenset() for h in s.houses}
    s.revealed = ()
    s.threat = STARTING_THREAT
    s.wildling_seen = frozenset()
    s.restrictions = frozenset()
    s.blade_used = False
    s.raven_used = False
    s.stack = ()
    s.combat = None
    s.winner = None
    s.ext = {}
    s.events = []
    s.serial = 0
    s.cache = None
    for unit in rules.starting_units:
        if unit.house not in s.houses:
            continue
        if unit.area not in rules.areas or unit.area in s.blocked:
            continue
        if unit.area in setup.units_not_placed_in:
            continue
        board.add_units(s, unit.area, unit.house, [unit.unit] * unit.count)
    decks = []
    for number in sorted({c.deck for c in rules.westeros_cards.values()}):
        cards = [
            c.id for c in rules.westeros_cards.values() if c.deck == number for _ in range(c.count)
        ]
        deck, s.seed = rng.shuffled(s.seed, cards)
        decks.append(deck)
    s.westeros_decks = tuple(decks)
    s.wildling_deck, s.seed = rng.shuffled(s.seed, list(rules.wildling_cards))
    s.supply = {h: board.barrels(s, h) for h in s.houses}
    for hook in rules.hooks.setup:
        hook(s)
    if start:
        s.push(Round())
        advance(s)
    return s
