"""The Westeros cards of decks I-III (RULES.md 3.4), built from ``data/decks.json``.

A card type found in more than one deck (Last Days of Summer, Winter is Coming) gets one card
per deck, its id suffixed with the deck (``winter-is-coming-i``); other ids are the type."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

from ..engine import board, power, tracks
from ..engine.bidding import ClashOfKings
from ..engine.choices import ChooseOption
from ..engine.content import WesterosCard
from ..engine.mustering import MusteringAll
from ..engine.state import State
from ..engine.supply import ReconcileAll, update_supply
from .data import load

DECKS = {"I": 1, "II": 2, "III": 3}
NOTHING = "nothing"


def supply(state: State) -> None:
    """Supply (3.4.3): move every supply token, then reconcile armies in turn order."""
    update_supply(state)
    state.push(ReconcileAll())


def mustering(state: State) -> None:
    """Mustering (3.4.4)."""
    state.push(MusteringAll())


def game_of_thrones(state: State) -> None:
    """Game of Thrones (3.4.6): 1 PT per crown in controlled areas, plus plugin income (ports)."""
    areas = state.rules.areas
    gains = {}
    for house in tracks.turn_order(state):
        crowns = sum(
            areas[a].crowns
            for a in areas
            if areas[a].crowns and board.controller(state, a) == house
        )
        extra = sum(hook(state, house) for hook in state.rules.hooks.power_income)
        gains[house] = power.gain(state, house, crowns + extra)
    state.emit("power_gained", gains=gains, reason="Game of Thrones (3.4.6)")


def clash_of_kings(state: State) -> None:
    """Clash of Kings (3.4.7): bid for the three influence tracks."""
    state.push(ClashOfKings())


def wildlings_attack(state: State) -> None:
    """Wildlings Attack (3.4.15): an attack at the current threat."""
    from ..engine.wildlings import WildlingAttack

    state.push(WildlingAttack())


def forbid(*restrictions: str) -> Callable[[State], None]:
    """An effect adding ``restrictions`` to this round's Planning phase (3.3.1)."""

    def effect(state: State) -> None:
        state.restrictions = state.restrictions | frozenset(restrictions)
        state.emit("restriction", orders=sorted(restrictions))

    return effect


@dataclasses.dataclass(frozen=True, slots=True)
class ThroneOfBlades(ChooseOption):
    """A Throne of Blades (3.4.5): the Iron Throne holder picks Supply, Mustering or nothing."""

    def chosen(self, state: State, option: str) -> None:
        if option == "supply":
            supply(state)
        elif option == "mustering":
            mustering(state)


@dataclasses.dataclass(frozen=True, slots=True)
class DarkWingsDarkWords(ChooseOption):
    """Dark Wings, Dark Words (3.4.8): the Raven holder picks Clash of Kings, Game of Thrones
    or nothing."""

    def chosen(self, state: State, option: str) -> None:
        if option == "clash_of_kings":
            clash_of_kings(state)
        elif option == "game_of_thrones":
            game_of_thrones(state)


@dataclasses.dataclass(frozen=True, slots=True)
class PutToTheSword(ChooseOption):
    """Put to the Sword (3.4.14): the Blade holder forbids Defense or March +1 orders, or
    nothing."""

    def chosen(self, state: State, option: str) -> None:
        if option == "no_defense":
            forbid("defense")(state)
        elif option == "no_march+1":
            forbid("march+1")(state)


def throne_of_blades(state: State) -> None:
    """A Throne of Blades (3.4.5)."""
    state.push(
        ThroneOfBlades(
            tracks.holder(state, tracks.IRON_THRONE),
            ("supply", "mustering", NOTHING),
            "A Throne of Blades (3.4.5)",
        )
    )


def dark_wings_dark_words(state: State) -> None:
    """Dark Wings, Dark Words (3.4.8)."""
    state.push(
        DarkWingsDarkWords(
            tracks.holder(state, tracks.KINGS_COURT),
            ("clash_of_kings", "game_of_thrones", NOTHING),
            "Dark Wings, Dark Words (3.4.8)",
        )
    )


def put_to_the_sword(state: State) -> None:
    """Put to the Sword (3.4.14)."""
    state.push(
        PutToTheSword(
            tracks.holder(state, tracks.FIEFDOMS),
            ("no_defense", "no_march+1", NOTHING),
            "Put to the Sword (3.4.14)",
        )
    )


# type id -> (name, effect, Winter is Coming, one-line text)
CARDS: dict[str, tuple[str, Callable[[State], None] | None, bool, str]] = {
    "last-days-of-summer": ("Last Days of Summer", None, False, "Nothing happens."),
    "winter-is-coming": (
        "Winter is Coming",
        None,
        True,
        "Shuffle this deck, this card included, and reveal a new card from it.",
    ),
    "supply": (
        "Supply",
        supply,
        False,
        "Every house adjusts its supply to its barrels, then reconciles its armies.",
    ),
    "mustering": (
        "Mustering",
        mustering,
        False,
        "Every house musters units in the castle areas it controls.",
    ),
    "a-throne-of-blades": (
        "A Throne of Blades",
        throne_of_blades,
        False,
        "The Iron Throne holder chooses: Supply, Mustering or nothing.",
    ),
    "game-of-thrones": (
        "Game of Thrones",
        game_of_thrones,
        False,
        "Every house gains 1 power token per crown in the areas it controls.",
    ),
    "clash-of-kings": (
        "Clash of Kings",
        clash_of_kings,
        False,
        "Bid power tokens for the Iron Throne, Fiefdoms and King's Court tracks.",
    ),
    "dark-wings-dark-words": (
        "Dark Wings, Dark Words",
        dark_wings_dark_words,
        False,
        "The Messenger Raven holder chooses: Clash of Kings, Game of Thrones or nothing.",
    ),
    "sea-of-storms": (
        "Sea of Storms",
        forbid("raid"),
        False,
        "Raid orders cannot be played this round.",
    ),
    "rains-of-autumn": (
        "Rains of Autumn",
        forbid("march+1"),
        False,
        "March +1 orders cannot be played this round.",
    ),
    "feast-for-crows": (
        "Feast for Crows",
        forbid("consolidate_power"),
        False,
        "Consolidate Power orders cannot be played this round.",
    ),
    "web-of-lies": (
        "Web of Lies",
        forbid("support"),
        False,
        "Support orders cannot be played this round.",
    ),
    "storm-of-swords": (
        "Storm of Swords",
        forbid("defense"),
        False,
        "Defense orders cannot be played this round.",
    ),
    "put-to-the-sword": (
        "Put to the Sword",
        put_to_the_sword,
        False,
        "The Valyrian Steel Blade holder chooses: no Defense orders, no March +1 orders, "
        "or no restriction this round.",
    ),
    "wildlings-attack": (
        "Wildlings Attack",
        wildlings_attack,
        False,
        "The wildlings attack at the current threat.",
    ),
}


def card_type(card_id: str) -> str:
    """The card type of ``card_id``: the id without its deck suffix (``winter-is-coming``)."""
    base, _, suffix = card_id.rpartition("-")
    return base if suffix.upper() in DECKS and base in CARDS else card_id


def westeros_cards() -> list[WesterosCard]:
    """Every Westeros card of decks I-III with its effect (3.4)."""
    data = load("decks")
    icons = set(data["wildling_icon"])
    decks_of = Counter(e["card"] for entries in data["westeros_decks"].values() for e in entries)
    out = []
    for deck, entries in data["westeros_decks"].items():
        for entry in entries:
            type_id = entry["card"]
            name, effect, reshuffle, text = CARDS[type_id]
            card_id = type_id if decks_of[type_id] == 1 else f"{type_id}-{deck.lower()}"
            out.append(
                WesterosCard(
                    id=card_id,
                    name=name,
                    deck=DECKS[deck],
                    count=entry["count"],
                    wildling_icon=type_id in icons,
                    effect=effect,
                    reshuffle=reshuffle,
                    text=text,
                )
            )
    return out
