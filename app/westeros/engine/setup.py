"""Setting up a new game (2): board, houses, tracks, decks, all from registered content."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import board, rng
from .content import Ruleset, Setup
from .errors import ContentError
from .flow import advance
from .round import Round
from .state import State

STARTING_POWER = 5
STARTING_THREAT = 2
PLAYER_HOUSES = "player_houses"
"""The game option naming the houses the players take (house ids, comma-separated), for a
player count whose setup leaves some houses without a player (``Setup.players``; vassals,
RULES.md 11.2.5). Empty or absent: the setup's own ``players``."""


def chosen_houses(options: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The houses ``options`` say the players take (``PLAYER_HOUSES``), or () for none."""
    text = str((options or {}).get(PLAYER_HOUSES) or "")
    return tuple(h.strip() for h in text.split(",") if h.strip())


def boards_for(rules: Ruleset, players: int) -> list[Setup]:
    """The setups whose board a ``players``-player game with houses left to no player may be
    played on (RULES.md 11.2.5): its own, then, from the fewest houses up, every setup that
    seats a player for each of its houses and has all the houses of the count's own."""
    own = rules.setups[players]
    larger = sorted(
        (
            s
            for s in rules.setups.values()
            if not s.players
            and len(s.houses) > len(own.houses)
            and set(own.houses) <= set(s.houses)
        ),
        key=lambda s: len(s.houses),
    )
    return [own, *larger]


def choosable_houses(rules: Ruleset, players: int) -> tuple[str, ...]:
    """The houses the players of a ``players``-player game may choose among: every house of
    ``boards_for`` when the count's setup leaves houses to no player (11.2.5), else the houses
    it seats."""
    own = rules.setups[players]
    if not own.players:
        return own.houses
    return tuple(dict.fromkeys(h for s in boards_for(rules, players) for h in s.houses))


def setup_for(rules: Ruleset, players: int, options: Mapping[str, Any] | None = None) -> Setup:
    """The setup of a ``players``-player game with ``options``: the registered one, or, with
    the players' houses chosen (``PLAYER_HOUSES``, 11.2.5), the first of ``boards_for`` that
    has them all, with those houses as its ``players`` (every other house has none: a vassal).
    ContentError names what cannot be chosen."""
    if players not in rules.setups:
        raise ContentError(f"no setup for {players} players (have {sorted(rules.setups)})")
    own = rules.setups[players]
    chosen = chosen_houses(options)
    if not chosen:
        return own
    if not own.players:
        raise ContentError(
            f"every house of a {players}-player game has a player: its houses are not chosen"
        )
    if len(chosen) != players or len(set(chosen)) != players:
        raise ContentError(f"choose {players} different houses for the players, not {list(chosen)}")
    board_setup = next(
        (s for s in boards_for(rules, players) if set(chosen) <= set(s.houses)), None
    )
    if board_setup is None:
        offered = ", ".join(choosable_houses(rules, players))
        raise ContentError(f"the players of a {players}-player game choose among {offered}")
    return dataclasses.replace(
        board_setup,
        player_count=players,
        players=tuple(h for h in board_setup.houses if h in chosen),
    )


def players_with(rules: Ruleset, players: int, house: str) -> tuple[str, ...]:
    """The houses the players take when a person chooses ``house`` and the other players
    keep the setup's usual houses (``Setup.players``): ``house`` takes the place of the last
    of them when it is not one (11.2.5)."""
    usual = rules.setups[players].players
    if house in usual:
        return usual
    return (house, *usual[: players - 1])


def new_game(
    rules: Ruleset,
    players: int,
    seed: int | str = 0,
    options: Mapping[str, Any] | None = None,
    *,
    start: bool = True,
) -> State:
    """A new game for ``players`` houses (2.1-2.5; the setup ``setup_for`` the ``options``),
    shuffled from ``seed``, waiting for the first decision (round 1 Planning; the Westeros
    phase is skipped in round 1). With ``start`` False the board is set up but no step is
    queued (rule tests push the step they exercise)."""
    setup = setup_for(rules, players, options)
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
    counts = board.barrel_counts(s)
    s.supply = {h: counts.get(h, 0) for h in s.houses}
    for hook in rules.hooks.setup:
        hook(s)
    if start:
        s.push(Round())
        advance(s)
    return s
