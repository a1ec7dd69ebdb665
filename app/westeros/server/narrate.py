"""Plain-language log lines for engine events, through the translation mechanism.

The sentences are not written here: each plugin (the base game included) registers an
``EventText`` per event kind (``register_event_texts``), and the game's ``Ruleset.event_texts``
is the table this module looks up. ``Narrator`` is the ``Words`` those texts use: the game's
gettext catalog (the game's own merged with the plugins' catalogs, ``westeros.server.i18n``)
and content names from the Ruleset, translated too. Only events a seat may see reach this
module (the session filters with ``westeros.engine.view.visible``)."""

from __future__ import annotations

import gettext as gettext_module
from collections.abc import Iterable, Mapping
from typing import Any

from westeros.engine import Ruleset
from westeros.engine.content import N_

Translations = gettext_module.NullTranslations

TRACK_NAMES = {
    "iron_throne": N_("Iron Throne"),
    "fiefdoms": N_("Fiefdoms"),
    "kings_court": N_("King's Court"),
}
ORDER_TYPES = {
    "defense": N_("Defense"),
    "march": N_("March"),
    "march+1": N_("March +1"),
    "support": N_("Support"),
    "raid": N_("Raid"),
    "consolidate_power": N_("Consolidate Power"),
}
"""Order types (RULES.md 1.4) and the kinds a Westeros card may forbid (3.3), as the board
names them (``frontend/static/js/log.js``), so one translation serves both."""
SIDE_NAMES = {"attacker": N_("the attacker"), "defender": N_("the defender"), "none": N_("nobody")}


def option_labels(rules: Ruleset) -> dict[str, str]:
    """The English label of every option id the plugins' decisions offer (``EventText.options``),
    for the log and the board."""
    return {
        option: label
        for text in rules.event_texts.values()
        for option, label in text.options.items()
    }


class Narrator:
    """Turns one event (``event_view`` data) into a sentence in one language; implements
    ``westeros.engine.content.Words`` for the event texts."""

    def __init__(self, rules: Ruleset, translations: Translations | None = None) -> None:
        self.rules = rules
        self.translations = translations or gettext_module.NullTranslations()
        self._ = self.translations.gettext
        self.ngettext = self.translations.ngettext
        self.labels = option_labels(rules)

    def __call__(self, event: Mapping[str, Any]) -> str:
        text = self.rules.event_texts.get(str(event.get("kind", "")))
        if text is not None:
            try:
                return text.describe(self, event)
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
        """A house, Westeros or wildling card's display name (any other id as given)."""
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

    def order_type(self, kind: Any) -> str:
        """An order type or forbidden kind (``"consolidate_power"``, ``"march+1"``) in words."""
        return self._(ORDER_TYPES.get(str(kind), str(kind).replace("_", " ")))

    def token(self, token: Any) -> str:
        """An order token in words, e.g. "March +1 (star)"."""
        t = self.rules.order_tokens.get(token) if isinstance(token, str) else None
        if t is None:
            return str(token)
        kind = self.order_type(t.type)
        text = f"{kind} {t.bonus:+d}" if t.bonus else kind
        return self._("{order} (star)").format(order=text) if t.star else text

    def option(self, option: Any) -> str:
        """A ``choose`` option: a registered label, else a house, track, card or area name."""
        key = str(option)
        if key in self.labels:
            return self._(self.labels[key])
        if key in self.rules.houses:
            return self.house(key)
        if key in TRACK_NAMES:
            return self.track(key)
        if key in self.rules.areas:
            return self.area(key)
        return self.card(key)

    def join(self, items: Iterable[str]) -> str:
        """Items of a list in this language's way ("a, b" in English, "a、b" in Chinese)."""
        return self._(", ").join(items)

    def join_clauses(self, clauses: Iterable[str]) -> str:
        """Whole clauses of one log line ("a; b" in English, "a；b" in Chinese)."""
        return self._("; ").join(clauses)

    def houses(self, houses: Iterable[Any]) -> str:
        """A list of houses in words."""
        return self.join(self.house(h) for h in houses)

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
        return self.join(out) if out else self._("no units")

    def generic(self, event: Mapping[str, Any]) -> str:
        """Fallback for an event no plugin words (or whose text failed)."""
        kind = str(event.get("kind", "event")).replace("_", " ")
        house = event.get("house")
        if isinstance(house, str):
            return self._("{house}: {what}").format(house=self.house(house), what=kind)
        return kind.capitalize()
