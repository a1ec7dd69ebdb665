"""Resume as a property (issue 35, What to build "Resume is a property"): the snapshot of a
state, written and read back as stored JSON text, must play exactly like the live state.
``tests/store/test_snapshot_roundtrip_property.py`` and ``benchmarks/snapshots.py`` share this.

``OPTION_SETS`` names every option set the bundled plugins offer, with the player counts each
is played at; ``difference`` compares a live state with one brought back from the store
(``divergence``: with its own decoded snapshot); ``play_checking`` plays a random game and
checks snapshots along the way."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from westeros.engine import (
    Action,
    IllegalAction,
    Ruleset,
    State,
    apply,
    encoding,
    new_game,
    pending,
    random_action,
)
from westeros.engine.view import player_views
from westeros.plugins import build_ruleset

MOD = {"mother_of_dragons": True}
SEA = {"mod_sea_orders": True}
BANK = {"mod_iron_bank": True}
TIDES = {"tides_of_battle": True}
VASSALS = {**MOD, "mod_vassals": True}
EIGHT_ONLY = {"mod_targaryen_b_deck": True, "mod_alternate_dragon_tokens": True}
NO_PORTS = ("westeros_ports",)


class OptionSet(NamedTuple):
    """Player counts a set of game options is played at, and plugins turned off."""

    counts: tuple[int, ...]
    options: Mapping[str, Any]
    disabled: tuple[str, ...] = ()


BASE_COUNTS = (3, 4, 5, 6)
VASSAL_COUNTS = (3, 4, 5, 6, 7)
OPTION_SETS: dict[str, OptionSet] = {
    "base": OptionSet(BASE_COUNTS, {}),
    "base-no-ports": OptionSet(BASE_COUNTS, {}, NO_PORTS),
    "tides": OptionSet(BASE_COUNTS, TIDES),
    "tides-no-ports": OptionSet(BASE_COUNTS, TIDES, NO_PORTS),
    "mod": OptionSet((7, 8), MOD),
    "mod-sea-orders": OptionSet((7, 8), {**MOD, **SEA}),
    "mod-iron-bank": OptionSet((7, 8), {**MOD, **BANK}),
    "mod-targaryen-b-deck": OptionSet((8,), {**MOD, "mod_targaryen_b_deck": True}),
    "mod-alternate-dragons": OptionSet((8,), {**MOD, "mod_alternate_dragon_tokens": True}),
    "mod-everything": OptionSet((7, 8), {**MOD, **SEA, **BANK, **TIDES, **EIGHT_ONLY}),
    "vassals": OptionSet(VASSAL_COUNTS, VASSALS),
    "vassals-sea-orders-iron-bank": OptionSet(VASSAL_COUNTS, {**VASSALS, **SEA, **BANK}),
    "vassals-tides": OptionSet(VASSAL_COUNTS, {**VASSALS, **TIDES}),
    "vassals-everything": OptionSet(VASSAL_COUNTS, {**VASSALS, **SEA, **BANK, **TIDES}),
}
"""Every option set of the bundled plugins (base 3-6, ports off, Tides of Battle, Mother of
Dragons 7/8 with each of its options, vassals 3-7: RULES.md 11.2.5; Mother of Dragons needs
the ports plugin, so it is never played without it)."""


@functools.cache
def ruleset(name: str) -> Ruleset:
    """The Ruleset of option set ``name`` (built once per process)."""
    chosen = OPTION_SETS[name]
    return build_ruleset(chosen.options, disable=chosen.disabled, strict=True)


def reloaded(state: State) -> State:
    """``state`` as a stored snapshot brings it back: encoded, written as JSON text, read
    back and decoded on the game's Ruleset."""
    text = json.dumps(encoding.encode_state(state))
    return encoding.decode_state(json.loads(text), state.rules)


def _prompts(state: State) -> dict[str, tuple[Any, ...]]:
    """Each pending house's prompt, its data (the legal answers) included."""
    return {h: (p.kind, p.actions, p.data) for h, p in sorted(pending(state).items())}


def _outcome(state: State, house: str, action: Action) -> tuple[Any, ...]:
    """What ``action`` does from ``state``: the refusal, or the new state's hash, events and
    prompts."""
    try:
        after, events = apply(state, house, action)
    except IllegalAction as exc:
        return ("refused", type(exc).__name__, str(exc))
    return ("applied", after.hash(), [tuple(e) for e in events], _prompts(after))


def divergence(live: State, rnd: random.Random) -> str | None:
    """How ``live``'s snapshot (``reloaded``) plays differently from ``live``, or None when it
    plays exactly alike (``difference``)."""
    return difference(live, reloaded(live), rnd)


def difference(live: State, again: State, rnd: random.Random) -> str | None:
    """How ``again`` plays differently from ``live``, or None when it plays exactly alike:
    same hash, pending houses and prompts with their legal answers, every seat's view, the
    same random legal answer drawn, the same result of that answer (hash, events, prompts
    after it, or the same refusal), and the same setup. The house that answers is drawn with
    ``rnd``."""
    if again.hash() != live.hash():
        return "another state hash"
    if _prompts(again) != _prompts(live):
        return f"pending {sorted(pending(again))} / prompts differ from {sorted(pending(live))}"
    seats: list[str | None] = [None, *live.houses]
    if player_views(again, seats) != player_views(live, seats):
        return "a seat's view differs"
    waiting = sorted(pending(live))
    if waiting:
        house = rnd.choice(waiting)
        draw = rnd.randrange(2**32)
        action = random_action(live, house, random.Random(draw))
        if random_action(again, house, random.Random(draw)) != action:
            return f"{house}'s random legal answer differs"
        mine, theirs = _outcome(live, house, action), _outcome(again, house, action)
        if mine != theirs:
            what = theirs[2] if theirs[0] == "refused" else "another state, events or prompts"
            return f"{house} {action.kind} leads to {what}"
    if again.setup != live.setup:
        return (
            f"the {again.setup.player_count}-player setup instead of the "
            f"{live.setup.player_count}-player one"
        )
    return None


@dataclasses.dataclass
class Tally:
    """Snapshots checked and the divergences found (each with where)."""

    snapshots: int = 0
    divergent: list[str] = dataclasses.field(default_factory=list)


def play_checking(
    name: str, players: int, seed: int, *, every: int, limit: int | None = None
) -> tuple[State, Tally]:
    """Play a random game of option set ``name`` (at most ``limit`` actions), checking the
    snapshot of every ``every``-th state (``divergence``); returns the last state."""
    rules = ruleset(name)
    state = new_game(rules, players, seed, dict(OPTION_SETS[name].options))
    rnd = random.Random(seed)
    tally = Tally()
    count = 0
    while pending(state) and (limit is None or count < limit):
        if count % every == 0:
            tally.snapshots += 1
            found = divergence(state, random.Random(f"{seed}/{count}"))
            if found:
                tally.divergent.append(f"{name} {players}p seed {seed} action {count}: {found}")
        house = rnd.choice(sorted(pending(state)))
        state, _ = apply(state, house, random_action(state, house, rnd))
        count += 1
    return state, tally
