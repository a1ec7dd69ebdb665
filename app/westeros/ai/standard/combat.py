"""The Standard AI's house cards (RULES.md 5.4.3): every card in hand is tried against every
card the opponent may play with the engine's own combat preview (``preview.card_preview``:
final strengths, victor, losses), and the choice follows the margin — the weakest card that
still wins as often as the best one does, or the weakest card of all when the combat is lost
whatever I play, to save the strong ones for later.

Both combatants ask about the same pairs of cards, and a search meets the same combat in many
of its simulations: a pair's outcome is kept for the combat situation it was worked out in
(``Outcomes``, keyed by everything in the state a preview reads), so the second side to choose,
and every later simulation reaching the same situation, reads it instead of replaying it. Each
bot holds its own table unless it is given one: a search shares one among the simulations of
one seat (``strong.StrongBot``), never between seats."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from ...engine import preview
from ...engine.actions import Action, Choose
from ...engine.combat.context import ATTACKER, Combat
from ...engine.content import Ruleset, Setup
from ...engine.state import State
from ..analysis import Situation
from ..baseline.choices import ChoicePolicy
from ..baseline.policy import BASELINE, Data, Personality

LOST = 0.2
"""Below this chance to win with the best card, the fight counts as lost anyway."""
CLOSE = 0.1
"""Cards within this chance of the best one count as winning as often."""
Pair = tuple[str | None, str | None]
"""(attacker's card, defender's card)."""
Table = dict[Pair, tuple[bool, int]]
"""Pair → (did the attacker win, the loser's casualties)."""
UNREAD = frozenset({"cache", "events", "serial", "stack"})
"""The ``State`` slots a card preview does not read: the waiting state's memo, the events and
count of applies, and the step stack (the preview runs the combat on a copy with an empty one,
``preview._row``)."""
KEY_SLOTS = tuple(name for name in State.__slots__ if name not in UNREAD)
"""Every other slot, in a fixed order: what a combat situation's key is made of."""
NEAR_SLOTS = tuple(name for name in KEY_SLOTS if name not in ("orders", "placed"))
"""The slots a base-game combat situation's key holds whole (``near_only``)."""
AUDITED = "westeros.base."
"""The package whose house-card abilities were read for ``near_only``."""


@functools.cache
def base_abilities(rules: Ruleset) -> bool:
    """Is every house card's ability in ``rules`` one of the base game's (``AUDITED``)?"""
    return all(
        c.ability is None or type(c.ability).__module__.startswith(AUDITED)
        for c in rules.house_cards.values()
    )


def near_only(state: State) -> bool:
    """May the key of ``state``'s combat hold only the orders in and next to the embattled area
    and no placed tokens? So in the base game (no game option, every ability the base game's):
    the combat steps read the orders of the embattled area and of the support areas declared
    (5.4.1-5.4.2: adjacent to it), Queen of Thorns removes one adjacent, Cersei Lannister's
    removal anywhere is optional (a preview passes, ``preview.assumed_answer``) and comes after
    the victor is known; nothing in a combat reads the tokens placed this round (4.3)."""
    return not any(state.options.values()) and base_abilities(state.rules)


def frozen(value: Any) -> Hashable:
    """``value`` as a hashable key part: a dict as its items in order, a dataclass with
    unhashable fields (a ``Setup``) as its fields, anything else as it is."""
    if isinstance(value, Mapping):
        return tuple((k, frozen(v)) for k, v in value.items())
    if is_dataclass(value) and not isinstance(value, type):
        try:
            hash(value)
        except TypeError:
            return (type(value), *(frozen(getattr(value, f.name)) for f in fields(value)))
    return value


SETUPS: dict[int, tuple[Setup, Hashable]] = {}
"""The ``frozen`` form of each setup met (public content, one per game), by identity."""


def frozen_setup(setup: Setup) -> Hashable:
    """``frozen(setup)``, worked out once per setup object."""
    found = SETUPS.get(id(setup))
    if found is None or found[0] is not setup:
        if len(SETUPS) >= 64:
            SETUPS.clear()
        found = SETUPS[id(setup)] = (setup, frozen(setup))
    return found[1]


def part(state: State, name: str) -> Hashable:
    """The slot ``name`` of ``state`` as a key part."""
    value = getattr(state, name)
    return frozen_setup(value) if name == "setup" else frozen(value)


def situation_key(state: State) -> tuple[Any, ...] | None:
    """What the outcomes of the combat in ``state`` depend on: every slot a preview may read
    (``KEY_SLOTS``: power, tracks, hands, discards, the board, plugin data, the random seed and
    the decks...), of the orders only those in and next to the embattled area where that is
    all a combat reads (``near_only``). None when a part cannot be hashed."""
    if near_only(state):
        combat: Combat = state.combat
        near = (combat.area, combat.origin, *sorted(state.rules.adjacency[combat.area]))
        orders = tuple((a, state.orders.get(a)) for a in near)
        key = (orders, *(part(state, name) for name in NEAR_SLOTS))
    else:
        key = tuple(part(state, name) for name in KEY_SLOTS)
    try:
        hash(key)
    except TypeError:
        return None
    return key


class Outcomes:
    """The outcome of each pair of cards in the last ``KEPT`` combat situations asked about,
    keyed by ``situation_key``: two states with the same key give the same previews, whatever
    objects they are, so a table found under a key is the one a fresh preview would fill."""

    KEPT = 512

    def __init__(self) -> None:
        self.tables: dict[tuple[Any, ...], Table] = {}

    def table(self, state: State) -> Table:
        """The outcomes known for the combat situation of ``state`` (``rows`` fills it in); a
        fresh table, kept nowhere, when the situation has no key."""
        key = situation_key(state)
        if key is None:
            return {}
        found = self.tables.get(key)
        if found is None:
            if len(self.tables) >= self.KEPT:
                del self.tables[next(iter(self.tables))]
            found = self.tables[key] = {}
        return found

    @staticmethod
    def rows(
        state: State, house: str, card: str, table: Table
    ) -> list[tuple[str | None, bool, int]]:
        """(opponent's card, do I win, the loser's casualties) for ``house`` playing ``card``
        against each card the opponent may play: from ``table`` (the ``table`` of ``state``),
        else by the preview, whose rows are added to it."""
        combat: Combat = state.combat
        which = combat.side_of(house)
        assert which is not None, f"{house} does not fight in this combat"
        attacking = which == ATTACKER
        pairs = {
            c: (card, c) if attacking else (c, card) for c in preview.opponent_cards(state, house)
        }
        if any(p not in table for p in pairs.values()):
            for row in preview.card_preview(state, house, card)["against"]:
                attacker_won = row["wins"] == attacking
                table[pairs[row["opponent_card"]]] = (attacker_won, row["casualties"])
        return [(c, table[p][0] == attacking, table[p][1]) for c, p in pairs.items()]


class StandardCombat(ChoicePolicy):
    """House cards by margin; the other combat choices as the baseline AI makes them. The card
    outcomes found are kept in ``outcomes``."""

    def __init__(
        self,
        seed: int = 0,
        personality: Personality = BASELINE,
        outcomes: Outcomes | None = None,
    ) -> None:
        super().__init__(seed, personality)
        self.outcomes = outcomes if outcomes is not None else Outcomes()

    def card_chances(self, sit: Situation, cards: list[str]) -> dict[str, tuple[float, int]]:
        """For each of my ``cards``: (chance to win against the opponent's possible cards,
        casualties I inflict when winning) by the engine's preview; the opponent's stronger
        cards weigh a little more (a defender rarely holds back)."""
        defs = sit.rules.house_cards
        table = self.outcomes.table(sit.state)
        out: dict[str, tuple[float, int]] = {}
        for card in cards:
            total = won = 0.0
            hurt = 0
            for theirs, wins, casualties in self.outcomes.rows(sit.state, sit.me, card, table):
                weight = 1.0 + 0.3 * (defs[theirs].strength if theirs in defs else 0)
                total += weight
                if wins:
                    won += weight
                    hurt += casualties
            out[card] = (won / total if total else 0.0, hurt)
        return out

    def choose_house_card(self, sit: Situation, data: Data) -> Action:
        """House card (5.4.3) by margin (see module docstring); a forced replacement
        (``reason`` given, 5.4.4) is chosen as the baseline AI does."""
        if sit.state.combat is None or "reason" in data:
            return super().choose_house_card(sit, data)
        defs = sit.rules.house_cards
        cards = list(data["cards"])
        chances = self.card_chances(sit, cards)
        best = max(p for p, _ in chances.values())

        def worth(card: str) -> tuple[int, int, str]:
            c = defs[card]
            return (c.strength, c.swords + c.fortifications, card)

        if best < LOST:
            return Choose(min(cards, key=worth))
        winners = [c for c in cards if chances[c][0] >= best - CLOSE]
        return Choose(min(winners, key=lambda c: (worth(c)[0], -chances[c][1], c)))
