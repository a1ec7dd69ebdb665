"""The base game's log texts (each seat reads the events it may see, RULES.md 0.4.4), registered
through ``register_event_texts`` like any plugin's.

Every sentence is an English gettext literal (``w._`` / ``w.ngettext``, extracted by Babel,
``{name}`` placeholders filled with ``str.format``); names come from ``Words`` in the reader's
language, never as raw ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.content import N_, Describe, EventText, Words


def _round(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Round {round} begins.").format(round=e["round"])


def _westeros_card(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Westeros deck {deck}: {card}.").format(deck=e["deck"], card=w.card(e["card"]))


def _westeros_revealed(w: Words, e: Mapping[str, Any]) -> str:
    cards = w.join(w.card(c) for c in e["cards"])
    return w._("Westeros cards revealed: {cards}.").format(cards=cards)


def _winter_is_coming(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Winter is Coming: Westeros deck {deck} is reshuffled.").format(deck=e["deck"])


def _restriction(w: Words, e: Mapping[str, Any]) -> str:
    orders = w.join(w.order_type(o) for o in e["orders"])
    return w._("This round these orders may not be placed: {orders}.").format(orders=orders)


def _supply(w: Words, e: Mapping[str, Any]) -> str:
    if "house" in e:
        return w._("{house}'s supply is now {supply}.").format(
            house=w.house(e["house"]), supply=e["supply"]
        )
    levels = w.join(f"{w.house(h)} {v}" for h, v in e["supply"].items())
    return w._("Supply adjusted: {levels}.").format(levels=levels)


def _power(w: Words, e: Mapping[str, Any]) -> str:
    return w.ngettext(
        "{house} now has {power} available power token.",
        "{house} now has {power} available power tokens.",
        e["power"],
    ).format(house=w.house(e["house"]), power=e["power"])


def _power_gained(w: Words, e: Mapping[str, Any]) -> str:
    if "house" in e:
        return w.ngettext(
            "{house} gains {n} power token.", "{house} gains {n} power tokens.", e["amount"]
        ).format(house=w.house(e["house"]), n=e["amount"])
    gains = w.join(f"{w.house(h)} +{v}" for h, v in e["gains"].items())
    return w._("Power gained: {gains}.").format(gains=gains)


def _threat(w: Words, e: Mapping[str, Any]) -> str:
    return w._("The wildling threat is now {threat}.").format(threat=e["threat"])


def _clash_of_kings(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Clash of Kings: the houses bid for the influence tracks.")


def _bids(w: Words, e: Mapping[str, Any]) -> str:
    bids = w.join(f"{w.house(h)} {v}" for h, v in e["bids"].items())
    return w._("Bids for the {track} track: {bids}.").format(track=w.track(e["track"]), bids=bids)


def _track(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{track} track: {order}.").format(
        track=w.track(e["track"]), order=w.houses(e["order"])
    )


def _wildling_attack(w: Words, e: Mapping[str, Any]) -> str:
    return w._("The wildlings attack with strength {strength}.").format(strength=e["strength"])


def _wildling_bids(w: Words, e: Mapping[str, Any]) -> str:
    bids = w.join(f"{w.house(h)} {v}" for h, v in e["bids"].items())
    if e["winner"] == "nights_watch":
        text = w._("The Night's Watch holds: {total} against {strength} ({bids}).")
    else:
        text = w._("The wildlings win: {strength} against {total} ({bids}).")
    return text.format(total=e["total"], strength=e["strength"], bids=bids)


def _wildling_card(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Wildling card: {card}.").format(card=w.card(e["card"]))


def _wildling_card_seen(w: Words, e: Mapping[str, Any]) -> str:
    return w._("You look at the top wildling card: {card}.").format(card=w.card(e["card"]))


def _committed(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} has decided.").format(house=w.house(e["house"]))


def _orders_revealed(w: Words, e: Mapping[str, Any]) -> str:
    return w.ngettext(
        "Orders revealed: {n} order on the board.",
        "Orders revealed: {n} orders on the board.",
        len(e["orders"]),
    ).format(n=len(e["orders"]))


def _raven_replaced(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} uses the Messenger Raven: {old} in {area} becomes {new}.").format(
        house=w.house(e["house"]),
        old=w.token(e["old"]),
        area=w.area(e["area"]),
        new=w.token(e["new"]),
    )


def _raven_unused(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} does not use the Messenger Raven.").format(house=w.house(e["house"]))


def _raven_looked(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} looks at the top wildling card.").format(house=w.house(e["house"]))


def _raid(w: Words, e: Mapping[str, Any]) -> str:
    if not e.get("target"):
        return w._("{house} removes its Raid order in {area}.").format(
            house=w.house(e["house"]), area=w.area(e["area"])
        )
    return w._("{house} raids {target} from {area}.").format(
        house=w.house(e["house"]), target=w.area(e["target"]), area=w.area(e["area"])
    )


def _march(w: Words, e: Mapping[str, Any]) -> str:
    if not e["moves"]:
        return w._("{house} removes its March order in {area}.").format(
            house=w.house(e["house"]), area=w.area(e["area"])
        )
    moves = w.join_clauses(
        w._("{units} to {area}").format(units=w.units(types), area=w.area(dst))
        for dst, types in e["moves"]
    )
    text = w._("{house} marches from {area}: {moves}.").format(
        house=w.house(e["house"]), area=w.area(e["area"]), moves=moves
    )
    if e.get("leave_power"):
        text += " " + w._("A power token stays behind.")
    return text


def _neutral_force_defeated(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} defeats the neutral force in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _neutral_support_declared(w: Words, e: Mapping[str, Any]) -> str:
    text = (
        w._("{house} supports {attacker}'s attack on the neutral force in {area}.")
        if e["support"]
        else w._("{house} refuses to support {attacker}'s attack on the neutral force in {area}.")
    )
    return text.format(
        house=w.house(e["house"]), attacker=w.house(e["attacker"]), area=w.area(e["area"])
    )


def _neutral_attack_called_off(w: Words, e: Mapping[str, Any]) -> str:
    return w._(
        "{house} lacks the support to attack the neutral force in {area}; nothing moves."
    ).format(house=w.house(e["house"]), area=w.area(e["area"]))


def _combat(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Combat in {area}: {attacker} attacks {defender}.").format(
        area=w.area(e["area"]), attacker=w.house(e["attacker"]), defender=w.house(e["defender"])
    )


def _support_declared(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} supports {side}.").format(house=w.house(e["house"]), side=w.side(e["side"]))


def _initial_strength(w: Words, e: Mapping[str, Any]) -> str:
    return w._("Strength before house cards: attacker {attacker}, defender {defender}.").format(
        attacker=e["attacker"], defender=e["defender"]
    )


def _house_cards_revealed(w: Words, e: Mapping[str, Any]) -> str:
    (ah, ac), (dh, dc) = e["attacker"], e["defender"]
    none = w._("no card")
    return w._(
        "House cards: {attacker} plays {attacker_card}, {defender} plays {defender_card}."
    ).format(
        attacker=w.house(ah),
        attacker_card=w.card(ac) if ac else none,
        defender=w.house(dh),
        defender_card=w.card(dc) if dc else none,
    )


def _house_card_replaced(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} plays {card} instead.").format(
        house=w.house(e["house"]), card=w.card(e["card"])
    )


def _house_card_cancelled(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house}'s {card} is cancelled.").format(
        house=w.house(e["house"]), card=w.card(e["card"])
    )


def _house_card_discarded(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} discards {card}.").format(house=w.house(e["house"]), card=w.card(e["card"]))


def _no_house_card(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} fights without a house card.").format(house=w.house(e["house"]))


def _blade(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} uses the Valyrian Steel Blade.").format(house=w.house(e["house"]))


def _combat_won(w: Words, e: Mapping[str, Any]) -> str:
    won, lost = sorted(e["strength"], reverse=True)  # the victor's total is never lower
    return w._("{winner} wins the combat in {area}, {won} to {lost}.").format(
        winner=w.house(e["winner"]), area=w.area(e["area"]), won=won, lost=lost
    )


def _garrison_removed(w: Words, e: Mapping[str, Any]) -> str:
    return w._("The garrison of {area} is removed.").format(area=w.area(e["area"]))


def _destroyed(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} loses {units}.").format(
        house=w.house(e["house"]), units=w.units(e["units"])
    )


def _casualties_prevented(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{card} prevents {house}'s casualties.").format(
        card=w.card(e["card"]), house=w.house(e["house"])
    )


def _retreat(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} retreats to {area}.").format(
        house=w.house(e["house"]), area=w.area(e["to"])
    )


def _moved_in(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} moves into {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _move_in_prevented(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{card} keeps {house} from moving in.").format(
        card=w.card(e["card"]), house=w.house(e["house"])
    )


def _order_removed(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house}'s order in {area} is removed.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _order_moved(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house}'s order moves to {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _combat_over(w: Words, e: Mapping[str, Any]) -> str:
    return w._("The combat is over.")


def _consolidate_power(w: Words, e: Mapping[str, Any]) -> str:
    return w.ngettext(
        "{house} consolidates power in {area} and gains {n} power token.",
        "{house} consolidates power in {area} and gains {n} power tokens.",
        e["gained"],
    ).format(house=w.house(e["house"]), area=w.area(e["area"]), n=e["gained"])


def _consolidate_muster(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} musters in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _mustered(w: Words, e: Mapping[str, Any]) -> str:
    source = e.get("source")
    if source and source != e["area"]:  # a ship mustered from a castle into its sea (3.5.3)
        return w._("{house} musters a {unit} in {area} from {source}.").format(
            house=w.house(e["house"]),
            unit=w.unit(e["unit"]),
            area=w.area(e["area"]),
            source=w.area(source),
        )
    return w._("{house} musters a {unit} in {area}.").format(
        house=w.house(e["house"]), unit=w.unit(e["unit"]), area=w.area(e["area"])
    )


def _muster_done(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} finishes mustering in {area}.").format(
        house=w.house(e["house"]), area=w.area(e["area"])
    )


def _upgraded(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} upgrades a {unit} to a {new} in {area}.").format(
        house=w.house(e["house"]),
        unit=w.unit(e["unit"]),
        new=w.unit(e["to"]),
        area=w.area(e["area"]),
    )


def _replaced(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} replaces {units}.").format(
        house=w.house(e["house"]), units=w.units(e["units"])
    )


def _discarded(w: Words, e: Mapping[str, Any]) -> str:
    cards = w.join(w.card(c) for c in e["cards"])
    return w._("{house} discards {cards}.").format(house=w.house(e["house"]), cards=cards)


def _returned_to_hand(w: Words, e: Mapping[str, Any]) -> str:
    cards = w.join(w.card(c) for c in e["cards"])
    return w._("{house} takes back {cards}.").format(house=w.house(e["house"]), cards=cards)


def _house_cards_recycled(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} takes its discarded house cards back.").format(house=w.house(e["house"]))


def _chose(w: Words, e: Mapping[str, Any]) -> str:
    return w._("{house} chooses {option}.").format(
        house=w.house(e["house"]), option=w.option(e["option"])
    )


def _game_over(w: Words, e: Mapping[str, Any]) -> str:
    return w._("The game is over: {winner} wins.").format(winner=w.house(e["winner"]))


DESCRIBERS: dict[str, Describe] = {
    "round": _round,
    "westeros_card": _westeros_card,
    "westeros_revealed": _westeros_revealed,
    "winter_is_coming": _winter_is_coming,
    "restriction": _restriction,
    "supply": _supply,
    "power": _power,
    "power_gained": _power_gained,
    "threat": _threat,
    "clash_of_kings": _clash_of_kings,
    "bids": _bids,
    "track": _track,
    "wildling_attack": _wildling_attack,
    "wildling_bids": _wildling_bids,
    "wildling_card": _wildling_card,
    "wildling_card_seen": _wildling_card_seen,
    "committed": _committed,
    "orders_revealed": _orders_revealed,
    "raven_replaced": _raven_replaced,
    "raven_unused": _raven_unused,
    "raven_looked": _raven_looked,
    "raid": _raid,
    "march": _march,
    "neutral_force_defeated": _neutral_force_defeated,
    "neutral_support_declared": _neutral_support_declared,
    "neutral_attack_called_off": _neutral_attack_called_off,
    "combat": _combat,
    "support_declared": _support_declared,
    "initial_strength": _initial_strength,
    "house_cards_revealed": _house_cards_revealed,
    "house_card_replaced": _house_card_replaced,
    "house_card_cancelled": _house_card_cancelled,
    "house_card_discarded": _house_card_discarded,
    "no_house_card": _no_house_card,
    "valyrian_steel_blade": _blade,
    "blade_used": _blade,
    "combat_won": _combat_won,
    "garrison_removed": _garrison_removed,
    "destroyed": _destroyed,
    "casualties_prevented": _casualties_prevented,
    "retreat": _retreat,
    "moved_in": _moved_in,
    "move_in_prevented": _move_in_prevented,
    "order_removed": _order_removed,
    "order_moved": _order_moved,
    "combat_over": _combat_over,
    "consolidate_power": _consolidate_power,
    "consolidate_muster": _consolidate_muster,
    "mustered": _mustered,
    "muster_done": _muster_done,
    "upgraded": _upgraded,
    "replaced": _replaced,
    "discarded": _discarded,
    "returned_to_hand": _returned_to_hand,
    "discards_returned": _house_cards_recycled,
    "house_cards_recycled": _house_cards_recycled,
    "chose": _chose,
    "game_over": _game_over,
}


OPTION_LABELS: dict[str, str] = {
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
    "attacker": N_("The attacker"),
    "defender": N_("The defender"),
    "footman": N_("Footman"),
    "knight": N_("Knight"),
}
"""Labels of the option ids the base game's decisions offer (houses, areas, cards and tracks
are named by ``Words`` itself); ``N_`` marks them for extraction, ``Words.option`` translates."""


def event_texts() -> list[EventText]:
    """One EventText per base-game event kind; the ``chose`` entry labels the base options."""
    return [
        EventText(kind, describe, OPTION_LABELS if kind == "chose" else {})
        for kind, describe in DESCRIBERS.items()
    ]
