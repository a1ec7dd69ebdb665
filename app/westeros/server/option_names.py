"""The options of a ``choose_option`` decision (engine option ids) in words, for the log: the
same English words as the board's buttons (``frontend/static/js/log.js``), so one translation
serves both. Houses, cards, areas and tracks are named from the Ruleset."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .i18n import N_

if TYPE_CHECKING:
    from .narrate import Narrator

OPTION_NAMES = {
    "use": N_("Use it"),
    "pass": N_("Pass"),
    "yes": N_("Yes"),
    "no": N_("No"),
    "none": N_("None"),
    "nothing": N_("Nothing"),
    "done": N_("Done"),
    "supply": N_("Supply"),
    "mustering": N_("Mustering"),
    "clash_of_kings": N_("Clash of Kings"),
    "game_of_thrones": N_("Game of Thrones"),
    "no_defense": N_("No Defense orders"),
    "no_march+1": N_("No March +1 orders"),
    "look_at_wildling_card": N_("Look at the top wildling card"),
    "keep_on_top": N_("Keep it on top"),
    "move_to_bottom": N_("Put it at the bottom"),
    "destroy_units": N_("Destroy 2 units"),
    "drop_track": N_("Drop 2 places on your highest track"),
    "keep": N_("Keep the card"),
    "redraw": N_("Draw again"),
    "attacker": N_("The attacker"),
    "defender": N_("The defender"),
}


def option_name(narrator: Narrator, option: Any) -> str:
    """``option`` as a player reads it: a known option, a track, house, card or area name."""
    key = str(option)
    rules = narrator.rules
    if key in OPTION_NAMES:
        return narrator._(OPTION_NAMES[key])
    if key in ("iron_throne", "fiefdoms", "kings_court"):
        return narrator.track(key)
    if key in rules.houses:
        return narrator.house(key)
    if key in rules.areas:
        return narrator.area(key)
    return narrator.card(key) if narrator.card(key) != key else key.replace("_", " ")


ORDER_TYPES = {
    "defense": N_("Defense"),
    "march": N_("March"),
    "march+1": N_("March +1"),
    "support": N_("Support"),
    "raid": N_("Raid"),
    "consolidate_power": N_("Consolidate Power"),
}
"""Order types (RULES.md 1.4) and the kinds a Westeros card may forbid (3.3), as the board
names them."""


def order_type_name(narrator: Narrator, key: Any) -> str:
    """An order type or forbidden kind (``"consolidate_power"``, ``"march+1"``) in words."""
    text = ORDER_TYPES.get(str(key), str(key).replace("_", " "))
    return narrator._(text)


TIDES_CARDS = {
    "zero": N_("strength 0"),
    "sword": N_("a sword (+1)"),
    "fortification": N_("a fortification (+1)"),
    "two": N_("strength 2"),
    "three": N_("strength 3"),
    "skull": N_("a skull"),
}
"""The Tides of Battle cards (RULES.md 10.1) by what they show, as the board names them."""


def tides_card_name(narrator: Narrator, card: Any) -> str:
    """A Tides of Battle card id (``"skull"``) in words."""
    return narrator._(TIDES_CARDS.get(str(card), str(card)))
