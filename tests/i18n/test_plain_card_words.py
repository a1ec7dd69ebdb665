"""Plain words on the wildling cards (issue 13.3): the texts a player reads spell out who is
affected ("Night's Watch wins", "lowest bidder", "everyone else"), never the printed cards'
abbreviations NW / LB / EE (RULES.md 7.3)."""

from __future__ import annotations

import re

from westeros.engine.content import Ruleset

ABBREVIATION = re.compile(r"\b(NW|LB|EE)\b")


def test_13_3_wildling_card_texts_spell_out_the_abbreviations(rules: Ruleset) -> None:
    cards = list(rules.wildling_cards.values())
    assert len(cards) == 9
    for card in cards:
        assert card.text, card.id
        assert not ABBREVIATION.search(card.text), (card.id, card.text)
    spelled = [c for c in cards if "Night's Watch wins" in c.text]
    assert len(spelled) >= 8, [c.id for c in cards if c not in spelled]
    assert all("lowest bidder" in c.text or "everyone" in c.text for c in spelled)
