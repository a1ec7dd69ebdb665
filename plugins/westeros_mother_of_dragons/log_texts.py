"""The Mother of Dragons plugin's log texts (RULES.md 11): gettext literals of this plugin,
translated by its own catalog (``locale/``, registered through ``register_translations``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westeros.engine.content import N_, EventText, Words

from . import loyalty_texts
from .arryn_cards import DISCARD, TAKE_BACK
from .iron_bank import COSTS
from .loans import BARREL, CROWN, DEGRADED, LOANS, STRONGHOLD
from .vassal_cards import KEEP_POWER, NO_KNIGHT, ZERO_BRONN


def card_taken_back(w: Words, e: Mapping[str, Any]) -> str:
    """Lysa Arryn goes back into her owner's hand (11.7.1)."""
    return w._("{house} takes {card} back into its hand.").format(
        house=w.house(e["house"]), card=w.card(e["card"])
    )


def cards_removed_from_game(w: Words, e: Mapping[str, Any]) -> str:
    """Robert Arryn and an opponent's card leave the game for good (11.7.1, 11.7.5)."""
    cards = w.join(
        w._("{card} ({house})").format(card=w.card(c), house=w.house(h)) for h, c in e["cards"]
    )
    return w._("Removed from the game: {cards}.").format(cards=cards)


def vassals_claimed(w: Words, e: Mapping[str, Any]) -> str:
    """A player claims vassals for the round, the last player takes the rest, or a player
    finds none left to claim (11.10.3)."""
    if e.get("none_left"):
        return w._("No vassal is left for {house} to claim this round.").format(
            house=w.house(e["house"])
        )
    if not e["vassals"]:
        return w._("{house} claims no vassal this round.").format(house=w.house(e["house"]))
    vassals = w.join(w.house(h) for h in e["vassals"])
    return w._("{house} commands {vassals} this round.").format(
        house=w.house(e["house"]), vassals=vassals
    )


def vassal_won(w: Words, e: Mapping[str, Any]) -> str:
    """A commander's reward for its vassal's victory (11.10.7)."""
    return w._("{vassal} won the combat: its commander {house} gains 1 power token.").format(
        vassal=w.house(e["vassal"]), house=w.house(e["house"])
    )


def vassal_power_token(w: Words, e: Mapping[str, Any]) -> str:
    """A vassal marched out of a land area and holds it with a free power token (11.10.7)."""
    return w._("{house} holds {area} with a free power token.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def card_discarded_for_strength(w: Words, e: Mapping[str, Any]) -> str:
    """Viserys Targaryen's owner discards a card to add its printed strength (11.7.2)."""
    return w._("{house} discards {card} to add {bonus} strength to Viserys Targaryen.").format(
        house=w.house(e["house"]), card=w.card(e["card"]), bonus=e["bonus"]
    )


def bronn_zeroed(w: Words, e: Mapping[str, Any]) -> str:
    """Bronn's opponent pays 2 power tokens to make Bronn's strength 0 (11.7.4)."""
    return w._("{house} discards 2 power tokens: {card} has strength 0.").format(
        house=w.house(e["house"]), card=w.card(e["card"])
    )


def connington_knight(w: Words, e: Mapping[str, Any]) -> str:
    """Jon Connington puts one of the losing vassal's knights on the board (11.7.4)."""
    return w._("Jon Connington: {house} places a knight in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


OPTIONS = {TAKE_BACK: N_("Take the card back"), DISCARD: N_("Leave it discarded")}
"""Labels of the options this plugin's decisions offer (Lysa Arryn)."""
VASSAL_CARD_OPTIONS = {
    ZERO_BRONN: N_("Discard 2 power tokens: Bronn has strength 0"),
    KEEP_POWER: N_("Keep the power tokens"),
    NO_KNIGHT: N_("Place no knight"),
}
"""Labels of the vassal cards' decisions (Bronn, Jon Connington, 11.7.4)."""


def event_texts() -> list[EventText]:
    """The Mother of Dragons events."""
    return [
        EventText("card_taken_back", card_taken_back, OPTIONS),
        EventText("cards_removed_from_game", cards_removed_from_game),
        EventText("vassals_claimed", vassals_claimed),
        EventText("vassal_won", vassal_won),
        EventText("vassal_power_token", vassal_power_token),
        EventText("bronn_zeroed", bronn_zeroed, VASSAL_CARD_OPTIONS),
        EventText("connington_knight", connington_knight),
        EventText("card_discarded_for_strength", card_discarded_for_strength),
        *iron_bank_event_texts(),
        *loyalty_texts.event_texts(),
    ]


# ---------------------------------------------------------------------------------- Iron Bank


def _loan(w: Words, loan: Any) -> str:
    """A loan card's name (11.9.6)."""
    name = LOANS.get(str(loan))
    return w._(name[0]) if name else str(loan)


def loan_market(w: Words, e: Mapping[str, Any]) -> str:
    """The loan market ages at the start of a round (11.9.3)."""
    offer = w.join(
        w._("{loan} ({cost} PT)").format(loan=_loan(w, loan), cost=cost)
        for loan, cost in zip(e["slots"], COSTS, strict=True)
        if loan
    )
    text = w._("The Iron Bank offers: {offer}.").format(offer=offer or w._("nothing"))
    if e["discarded"]:
        text += " " + w._("{loan} goes to the bottom of the loan deck.").format(
            loan=_loan(w, e["discarded"])
        )
    return text


def interest_paid(w: Words, e: Mapping[str, Any]) -> str:
    """A house pays interest on its loans (11.9.5)."""
    text = w._("{house} pays {paid} PT of interest to the Iron Bank.").format(
        house=w.house(e["house"]), paid=e["paid"]
    )
    if e["missing"]:
        text += " " + w.ngettext(
            "It lacks {n} PT: one of its units is destroyed.",
            "It lacks {n} PT: {n} of its units are destroyed.",
            e["missing"],
        ).format(n=e["missing"])
    return text


def loan_taken(w: Words, e: Mapping[str, Any]) -> str:
    """A house buys a loan (11.9.4)."""
    return w._("{house} takes the loan {loan} for {cost} PT.").format(
        house=w.house(e["house"]), loan=_loan(w, e["loan"]), cost=e["cost"]
    )


def loan_declined(w: Words, e: Mapping[str, Any]) -> str:
    """A house resolves its Iron Bank order without buying (11.9.4)."""
    return w._("{house} takes no loan from the Iron Bank.").format(house=w.house(e["house"]))


def iron_bank_unused(w: Words, e: Mapping[str, Any]) -> str:
    """An Iron Bank order with no loan its owner can pay for (11.9.4)."""
    return w._("{house}'s Iron Bank order in {area} buys nothing.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def area_improved(w: Words, e: Mapping[str, Any]) -> str:
    """A loan changes an area for good (11.9.6)."""
    texts = {
        CROWN: w._("{area} gets a power improvement (+1 crown)."),
        BARREL: w._("{area} gets a supply improvement (+1 barrel)."),
        STRONGHOLD: w._("{area} becomes a stronghold."),
        DEGRADED: w._("{area} loses its castle."),
    }
    return texts[e["change"]].format(area=w.area(e["area"]))


def loan_unit_placed(w: Words, e: Mapping[str, Any]) -> str:
    """A loan puts a unit on the board (11.9.6)."""
    return w._("{house} puts a {unit} in {area} ({loan}).").format(
        house=w.house(e["house"]),
        unit=w.unit(e["unit"]),
        area=w.area(e["area"]),
        loan=_loan(w, e["loan"]),
    )


def loan_unit_skipped(w: Words, e: Mapping[str, Any]) -> str:
    """A loan's unit has nowhere to go (pool, supply or no area, 11.9.6)."""
    return w._("{house} cannot put a {unit} on the board ({loan}).").format(
        house=w.house(e["house"]), unit=w.unit(e["unit"]), loan=_loan(w, e["loan"])
    )


def supply_raised(w: Words, e: Mapping[str, Any]) -> str:
    """Savvy Steward moves the supply token up (11.9.6)."""
    return w._("{house}'s supply rises to {level}.").format(
        house=w.house(e["house"]), level=e["level"]
    )


def westeros_deck_spied(w: Words, e: Mapping[str, Any]) -> str:
    """Spymaster looks at a Westeros deck (11.9.6)."""
    return w._("{house} looks at the top cards of Westeros deck {deck}.").format(
        house=w.house(e["house"]), deck=e["deck"]
    )


def westeros_cards_seen(w: Words, e: Mapping[str, Any]) -> str:
    """What the Spymaster's buyer sees (private)."""
    return w._("You see: {cards}.").format(cards=w.join(w.card(c) for c in e["cards"]))


def westeros_cards_arranged(w: Words, e: Mapping[str, Any]) -> str:
    """Spymaster puts the cards back (11.9.6)."""
    return w.ngettext(
        "{house} puts {n} card at the bottom of Westeros deck {deck}.",
        "{house} puts {n} cards at the bottom of Westeros deck {deck}.",
        e["bottom"],
    ).format(house=w.house(e["house"]), n=e["bottom"], deck=e["deck"])


def loan_killed(w: Words, e: Mapping[str, Any]) -> str:
    """The Faceless Men kill a unit (11.9.6)."""
    return w._("The Faceless Men kill {house}'s {unit} in {area}.").format(
        house=w.house(e["victim"]), unit=w.unit(e["unit"]), area=w.area(e["area"])
    )


IRON_BANK_OPTIONS = {
    **{loan: name for loan, (name, _) in LOANS.items()},
    CROWN: N_("Power improvement (+1 crown)"),
    BARREL: N_("Supply improvement (+1 barrel)"),
    "westeros-1": N_("Westeros deck I"),
    "westeros-2": N_("Westeros deck II"),
    "westeros-3": N_("Westeros deck III"),
    "top_12": N_("Both back on top, in the same order"),
    "top_21": N_("Both back on top, the second first"),
    "bottom_1": N_("The first to the bottom"),
    "bottom_2": N_("The second to the bottom"),
    "bottom_12": N_("Both to the bottom, the first above"),
    "bottom_21": N_("Both to the bottom, the second above"),
    "top_only": N_("Back on top"),
    "bottom_only": N_("To the bottom"),
}
"""Labels of the options the Iron Bank's decisions offer (loan names, improvements, Spymaster)."""
IRON_BANK_ORDER = N_("iron bank")
"""The Iron Bank order type as the log names it (``Words.order_type``)."""


def iron_bank_event_texts() -> list[EventText]:
    """The Iron Bank and sea-order events (11.8, 11.9)."""
    return [
        EventText("loan_market", loan_market),
        EventText("interest_paid", interest_paid),
        EventText("loan_taken", loan_taken, IRON_BANK_OPTIONS),
        EventText("loan_declined", loan_declined),
        EventText("iron_bank_unused", iron_bank_unused),
        EventText("area_improved", area_improved),
        EventText("loan_unit_placed", loan_unit_placed),
        EventText("loan_unit_skipped", loan_unit_skipped),
        EventText("supply_raised", supply_raised),
        EventText("westeros_deck_spied", westeros_deck_spied),
        EventText("westeros_cards_seen", westeros_cards_seen),
        EventText("westeros_cards_arranged", westeros_cards_arranged),
        EventText("loan_killed", loan_killed),
    ]
