"""Plain-language log lines for engine events, through the translation mechanism.

Every sentence is an English gettext message (``_`` / ``ngettext`` calls, extracted by Babel,
``{name}`` placeholders filled with ``str.format``); content names (areas, houses, cards, units)
come from the Ruleset and go through gettext too, so a catalog may translate them. Only events
a seat may see reach this module (the session filters with ``westeros.engine.view.visible``)."""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from westeros.engine import Ruleset

from .i18n import N_
from .option_names import option_name, order_type_name, tides_card_name

Translations = gettext_module.NullTranslations
Describer = Callable[["Narrator", Mapping[str, Any]], str]

TRACK_NAMES = {
    "iron_throne": N_("Iron Throne"),
    "fiefdoms": N_("Fiefdoms"),
    "kings_court": N_("King's Court"),
}
SIDE_NAMES = {"attacker": N_("the attacker"), "defender": N_("the defender"), "none": N_("nobody")}


class Narrator:
    """Turns one event (``event_view`` data) into a sentence in one language."""

    def __init__(self, rules: Ruleset, translations: Translations | None = None) -> None:
        self.rules = rules
        self.translations = translations or gettext_module.NullTranslations()
        self._ = self.translations.gettext
        self.ngettext = self.translations.ngettext

    def __call__(self, event: Mapping[str, Any]) -> str:
        describe = DESCRIBERS.get(str(event.get("kind", "")))
        if describe is not None:
            try:
                return describe(self, event)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                pass
        return self.generic(event)

    # ------------------------------------------------------------------ names
    def _name(self, table: Mapping[str, Any], key: Any) -> str:
        item = table.get(key) if isinstance(key, str) else None
        name = getattr(item, "name", None) or str(key)
        return self._(name)

    def house(self, house: Any) -> str:
        """A house's display name."""
        return self._name(self.rules.houses, house)

    def area(self, area: Any) -> str:
        """An area's display name."""
        return self._name(self.rules.areas, area)

    def card(self, card: Any) -> str:
        """A house card's display name (or any other card id as given)."""
        for table in (
            self.rules.house_cards,
            self.rules.westeros_cards,
            self.rules.wildling_cards,
        ):
            if card in table:
                return self._name(table, card)
        return str(card)

    def unit(self, unit: Any) -> str:
        """A unit type's display name."""
        return self._name(self.rules.unit_types, unit)

    def track(self, track: Any) -> str:
        """An influence track's display name."""
        return self._(TRACK_NAMES.get(str(track), str(track)))

    def side(self, side: Any) -> str:
        """``attacker`` / ``defender`` / ``none`` in words."""
        return self._(SIDE_NAMES.get(str(side), str(side)))

    def token(self, token: Any) -> str:
        """An order token in words, e.g. "March +1 (star)"."""
        t = self.rules.order_tokens.get(token) if isinstance(token, str) else None
        if t is None:
            return str(token)
        kind = order_type_name(self, t.type)
        text = f"{kind} {t.bonus:+d}" if t.bonus else kind
        return self._("{order} (star)").format(order=text) if t.star else text

    def houses(self, houses: Iterable[Any]) -> str:
        """A list of houses in words."""
        return ", ".join(self.house(h) for h in houses)

    def units(self, units: Iterable[Any]) -> str:
        """Unit types (ids, or [area, type] pairs) in words."""
        out = []
        for unit in units:
            if isinstance(unit, list | tuple) and len(unit) == 2:
                out.append(
                    self._("{unit} in {area}").format(
                        unit=self.unit(unit[1]), area=self.area(unit[0])
                    )
                )
            else:
                out.append(self.unit(unit))
        return ", ".join(out) if out else self._("no units")

    def generic(self, event: Mapping[str, Any]) -> str:
        """Fallback for an event this module does not know (e.g. from a plugin)."""
        kind = str(event.get("kind", "event")).replace("_", " ")
        house = event.get("house")
        if isinstance(house, str):
            return self._("{house}: {what}").format(house=self.house(house), what=kind)
        return kind.capitalize()


# ---------------------------------------------------------------------------------- events


def _round(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Round {round} begins.").format(round=e["round"])


def _westeros_card(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Westeros deck {deck}: {card}.").format(deck=e["deck"], card=n.card(e["card"]))


def _westeros_revealed(n: Narrator, e: Mapping[str, Any]) -> str:
    cards = ", ".join(n.card(c) for c in e["cards"])
    return n._("Westeros cards revealed: {cards}.").format(cards=cards)


def _winter_is_coming(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Winter is Coming: Westeros deck {deck} is reshuffled.").format(deck=e["deck"])


def _restriction(n: Narrator, e: Mapping[str, Any]) -> str:
    orders = ", ".join(order_type_name(n, o) for o in e["orders"])
    return n._("This round these orders may not be placed: {orders}.").format(orders=orders)


def _supply(n: Narrator, e: Mapping[str, Any]) -> str:
    if "house" in e:
        return n._("{house}'s supply is now {supply}.").format(
            house=n.house(e["house"]), supply=e["supply"]
        )
    levels = ", ".join(f"{n.house(h)} {v}" for h, v in e["supply"].items())
    return n._("Supply adjusted: {levels}.").format(levels=levels)


def _power(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} now has {power} available power tokens.").format(
        house=n.house(e["house"]), power=e["power"]
    )


def _power_gained(n: Narrator, e: Mapping[str, Any]) -> str:
    if "house" in e:
        return n.ngettext(
            "{house} gains {n} power token.", "{house} gains {n} power tokens.", e["amount"]
        ).format(house=n.house(e["house"]), n=e["amount"])
    gains = ", ".join(f"{n.house(h)} +{v}" for h, v in e["gains"].items())
    return n._("Power gained: {gains}.").format(gains=gains)


def _threat(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("The wildling threat is now {threat}.").format(threat=e["threat"])


def _clash_of_kings(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Clash of Kings: the houses bid for the influence tracks.")


def _bids(n: Narrator, e: Mapping[str, Any]) -> str:
    bids = ", ".join(f"{n.house(h)} {v}" for h, v in e["bids"].items())
    return n._("Bids for the {track} track: {bids}.").format(track=n.track(e["track"]), bids=bids)


def _track(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{track} track: {order}.").format(
        track=n.track(e["track"]), order=n.houses(e["order"])
    )


def _wildling_attack(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("The wildlings attack with strength {strength}.").format(strength=e["strength"])


def _wildling_bids(n: Narrator, e: Mapping[str, Any]) -> str:
    bids = ", ".join(f"{n.house(h)} {v}" for h, v in e["bids"].items())
    if e["winner"] == "nights_watch":
        text = n._("The Night's Watch holds: {total} against {strength} ({bids}).")
    else:
        text = n._("The wildlings win: {total} against {strength} ({bids}).")
    return text.format(total=e["total"], strength=e["strength"], bids=bids)


def _wildling_card(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Wildling card: {card}.").format(card=n.card(e["card"]))


def _wildling_card_seen(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("You look at the top wildling card: {card}.").format(card=n.card(e["card"]))


def _committed(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} has decided.").format(house=n.house(e["house"]))


def _orders_revealed(n: Narrator, e: Mapping[str, Any]) -> str:
    return n.ngettext(
        "Orders revealed: {n} order on the board.",
        "Orders revealed: {n} orders on the board.",
        len(e["orders"]),
    ).format(n=len(e["orders"]))


def _raven_replaced(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} uses the Messenger Raven: {old} in {area} becomes {new}.").format(
        house=n.house(e["house"]),
        old=n.token(e["old"]),
        area=n.area(e["area"]),
        new=n.token(e["new"]),
    )


def _raven_unused(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} does not use the Messenger Raven.").format(house=n.house(e["house"]))


def _raven_looked(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} looks at the top wildling card.").format(house=n.house(e["house"]))


def _raid(n: Narrator, e: Mapping[str, Any]) -> str:
    if not e.get("target"):
        return n._("{house} removes its Raid order in {area}.").format(
            house=n.house(e["house"]), area=n.area(e["area"])
        )
    return n._("{house} raids {target} from {area}.").format(
        house=n.house(e["house"]), target=n.area(e["target"]), area=n.area(e["area"])
    )


def _march(n: Narrator, e: Mapping[str, Any]) -> str:
    if not e["moves"]:
        return n._("{house} removes its March order in {area}.").format(
            house=n.house(e["house"]), area=n.area(e["area"])
        )
    moves = "; ".join(
        n._("{units} to {area}").format(units=n.units(types), area=n.area(dst))
        for dst, types in e["moves"]
    )
    text = n._("{house} marches from {area}: {moves}.").format(
        house=n.house(e["house"]), area=n.area(e["area"]), moves=moves
    )
    if e.get("leave_power"):
        text += " " + n._("A power token stays behind.")
    return text


def _neutral_force_defeated(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} defeats the neutral force in {area}.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _neutral_support_declared(n: Narrator, e: Mapping[str, Any]) -> str:
    text = (
        n._("{house} supports {attacker}'s attack on the neutral force in {area}.")
        if e["support"]
        else n._("{house} refuses to support {attacker}'s attack on the neutral force in {area}.")
    )
    return text.format(
        house=n.house(e["house"]), attacker=n.house(e["attacker"]), area=n.area(e["area"])
    )


def _neutral_attack_called_off(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._(
        "{house} lacks the support to attack the neutral force in {area}; nothing moves."
    ).format(house=n.house(e["house"]), area=n.area(e["area"]))


def _combat(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Combat in {area}: {attacker} attacks {defender}.").format(
        area=n.area(e["area"]), attacker=n.house(e["attacker"]), defender=n.house(e["defender"])
    )


def _support_declared(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} supports {side}.").format(house=n.house(e["house"]), side=n.side(e["side"]))


def _initial_strength(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("Strength before house cards: attacker {attacker}, defender {defender}.").format(
        attacker=e["attacker"], defender=e["defender"]
    )


def _house_cards_revealed(n: Narrator, e: Mapping[str, Any]) -> str:
    (ah, ac), (dh, dc) = e["attacker"], e["defender"]
    none = n._("no card")
    return n._(
        "House cards: {attacker} plays {attacker_card}, {defender} plays {defender_card}."
    ).format(
        attacker=n.house(ah),
        attacker_card=n.card(ac) if ac else none,
        defender=n.house(dh),
        defender_card=n.card(dc) if dc else none,
    )


def _house_card_replaced(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} plays {card} instead.").format(
        house=n.house(e["house"]), card=n.card(e["card"])
    )


def _house_card_cancelled(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house}'s {card} is cancelled.").format(
        house=n.house(e["house"]), card=n.card(e["card"])
    )


def _house_card_discarded(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} discards {card}.").format(house=n.house(e["house"]), card=n.card(e["card"]))


def _no_house_card(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} fights without a house card.").format(house=n.house(e["house"]))


def _blade(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} uses the Valyrian Steel Blade.").format(house=n.house(e["house"]))


def _tides_drawn(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("You draw the Tides of Battle card {card}.").format(
        card=tides_card_name(n, e["card"])
    )


def _tides_revealed(n: Narrator, e: Mapping[str, Any]) -> str:
    cards = ", ".join(f"{n.house(h)} {tides_card_name(n, c)}" for h, c in e["cards"].items())
    return n._("Tides of Battle: {cards}.").format(cards=cards)


def _combat_won(n: Narrator, e: Mapping[str, Any]) -> str:
    attacker, defender = e["strength"]
    return n._("{winner} wins the combat in {area} ({attacker} to {defender}).").format(
        winner=n.house(e["winner"]), area=n.area(e["area"]), attacker=attacker, defender=defender
    )


def _garrison_removed(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("The garrison of {area} is removed.").format(area=n.area(e["area"]))


def _destroyed(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} loses {units}.").format(
        house=n.house(e["house"]), units=n.units(e["units"])
    )


def _casualties_prevented(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{card} prevents {house}'s casualties.").format(
        card=n.card(e["card"]), house=n.house(e["house"])
    )


def _retreat(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} retreats to {area}.").format(
        house=n.house(e["house"]), area=n.area(e["to"])
    )


def _moved_in(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} moves into {area}.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _move_in_prevented(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{card} keeps {house} from moving in.").format(
        card=n.card(e["card"]), house=n.house(e["house"])
    )


def _order_removed(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house}'s order in {area} is removed.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _order_moved(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house}'s order moves to {area}.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _combat_over(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("The combat is over.")


def _consolidate_power(n: Narrator, e: Mapping[str, Any]) -> str:
    return n.ngettext(
        "{house} consolidates power in {area} and gains {n} power token.",
        "{house} consolidates power in {area} and gains {n} power tokens.",
        e["gained"],
    ).format(house=n.house(e["house"]), area=n.area(e["area"]), n=e["gained"])


def _consolidate_muster(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} musters in {area}.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _mustered(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} musters a {unit} in {area}.").format(
        house=n.house(e["house"]), unit=n.unit(e["unit"]), area=n.area(e["area"])
    )


def _muster_done(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} finishes mustering in {area}.").format(
        house=n.house(e["house"]), area=n.area(e["area"])
    )


def _upgraded(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} upgrades a {unit} to a {new} in {area}.").format(
        house=n.house(e["house"]),
        unit=n.unit(e["unit"]),
        new=n.unit(e["to"]),
        area=n.area(e["area"]),
    )


def _replaced(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} replaces {units}.").format(
        house=n.house(e["house"]), units=n.units(e["units"])
    )


def _discarded(n: Narrator, e: Mapping[str, Any]) -> str:
    cards = ", ".join(n.card(c) for c in e["cards"])
    return n._("{house} discards {cards}.").format(house=n.house(e["house"]), cards=cards)


def _returned_to_hand(n: Narrator, e: Mapping[str, Any]) -> str:
    cards = ", ".join(n.card(c) for c in e["cards"])
    return n._("{house} takes back {cards}.").format(house=n.house(e["house"]), cards=cards)


def _house_cards_recycled(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} takes its discarded house cards back.").format(house=n.house(e["house"]))


def _port_taken_over(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} takes over the port {port}.").format(
        house=n.house(e["house"]), port=n.area(e["port"])
    )


def _port_ships_lost(n: Narrator, e: Mapping[str, Any]) -> str:
    return n.ngettext(
        "{house} loses {n} ship in {port}.", "{house} loses {n} ships in {port}.", e["ships"]
    ).format(house=n.house(e["house"]), n=e["ships"], port=n.area(e["port"]))


def _chose(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("{house} chooses {option}.").format(
        house=n.house(e["house"]), option=option_name(n, e["option"])
    )


def _game_over(n: Narrator, e: Mapping[str, Any]) -> str:
    return n._("The game is over: {winner} wins.").format(winner=n.house(e["winner"]))


DESCRIBERS: dict[str, Describer] = {
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
    "tides_drawn": _tides_drawn,
    "tides_revealed": _tides_revealed,
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
    "port_taken_over": _port_taken_over,
    "port_ships_destroyed": _port_ships_lost,
    "port_ships_removed": _port_ships_lost,
    "chose": _chose,
    "game_over": _game_over,
}
