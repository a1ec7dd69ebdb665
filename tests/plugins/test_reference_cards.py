"""``register_reference_cards``: a plugin's cards outside the three decks (Tides of Battle,
RULES.md 10.1) reach the card reference of "How to play", only for games the plugin (and the
card's option) is part of; a card id registered twice is refused, naming the plugin."""

from __future__ import annotations

from westeros import hookimpl
from westeros.engine.content import ReferenceCard
from westeros.plugins import load

TIDES = "tides_of_battle"


class Relics:
    NAME = "relics"

    @hookimpl
    def register_reference_cards(self) -> list[ReferenceCard]:
        return [
            ReferenceCard("relic-horn", "Relics", "Horn of Winter", "Wakes the giants.", 1),
            ReferenceCard("relic-egg", "Relics", "Dragon egg", "", 3, TIDES),
        ]


class Copycat:
    NAME = "copycat"

    @hookimpl
    def register_reference_cards(self) -> list[ReferenceCard]:
        return [ReferenceCard("relic-horn", "Copies", "Horn", "", 1)]


def test_hook_register_reference_cards() -> None:
    loaded = load(extra=[Relics()], autoload=False)
    rules = loaded.ruleset
    every = {c.id: c for c in loaded.reference_cards_for(rules)}
    assert {"relic-horn", "relic-egg"} <= set(every)
    tides = [c for c in every.values() if c.deck == "Tides of Battle"]
    assert sum(c.count for c in tides) == 24  # RULES.md 10.1
    assert all(c.option == TIDES for c in tides)
    off = {c.id for c in loaded.reference_cards_for(rules, {})}
    assert "relic-horn" in off and "relic-egg" not in off and not off & {c.id for c in tides}
    on = {c.id for c in loaded.reference_cards_for(rules, {TIDES: True})}
    assert {"relic-horn", "relic-egg"} | {c.id for c in tides} <= on
    # a game made without the plugin lists none of its cards
    without = load(disable=["relics"], autoload=False).ruleset
    assert not {c.id for c in loaded.reference_cards_for(without)} & {"relic-horn", "relic-egg"}


def test_a_reference_card_id_registered_twice_is_refused() -> None:
    loaded = load(extra=[Relics(), Copycat()], autoload=False)
    assert [e.plugin for e in loaded.errors] == ["copycat"]
    assert "relic-horn" in loaded.errors[0].message
    assert [c.deck for c in loaded.reference_cards_for(loaded.ruleset) if c.id == "relic-horn"] == [
        "Relics"
    ]
