"""What a plugin adds to "How to play" (``register_help_sections``, docs/plugins.md): sections
of topics in plain words, and the house-card decks the card reference labels.

Every title, paragraph and step is a gettext message of the plugin's catalog (write it with
``N_``); the help translates it where it is shown (``westeros.server.help_topics``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .engine.content import HouseCard


@dataclass(frozen=True, slots=True)
class HelpTopic:
    """One topic: ``id``, its ``title``, the RULES.md section (``rule``), paragraphs, numbered
    ``steps`` and the board element it explains (``show``: a CSS selector on the board page,
    "" for none). On a game's board it is shown only when the game option ``option`` (if set)
    is on and every house of ``houses`` is in the game; ``replaces`` names a topic of the
    game's own help (e.g. ``"westeros"``, the Westeros phase) it then takes the place of."""

    id: str
    title: str
    rule: str
    paragraphs: tuple[str, ...]
    steps: tuple[str, ...] = ()
    show: str = ""
    option: str | None = None
    houses: tuple[str, ...] = ()
    replaces: str | None = None

    def applies(self, options: Mapping[str, Any] | None, houses: Collection[str] | None) -> bool:
        """Is the topic part of a game with ``options`` and ``houses`` (None: no game, the
        start screen's help, which shows every topic)?"""
        if options is None or houses is None:
            return True
        return bool(not self.option or options.get(self.option)) and all(
            h in houses for h in self.houses
        )


@dataclass(frozen=True, slots=True)
class HelpDeck:
    """House cards the card reference lists under their own ``title``: one of a house's
    decks (Targaryen's A and B decks) or a deck shared by no single house (the vassal deck);
    ``option`` is the game option that brings it, if any."""

    id: str
    title: str
    cards: tuple[HouseCard, ...]
    option: str | None = None


@dataclass(frozen=True, slots=True)
class HelpSection:
    """A section of "How to play" under its own heading (``title``): its topics, then its
    decks (``decks``; on the start screen they are listed in this section)."""

    id: str
    title: str
    topics: tuple[HelpTopic, ...] = ()
    decks: tuple[HelpDeck, ...] = ()
