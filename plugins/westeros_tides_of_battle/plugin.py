"""Hook implementations of the Tides of Battle plugin (RULES.md 10).

The rule hooks always return their callables; each checks the game's option when it runs (see
``tides``), so a Ruleset built once serves games with Tides of Battle on and off."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.content import (
    N_,
    AiAnswer,
    CombatHook,
    CombatSteps,
    EventText,
    GameOption,
    IconModifier,
    ReferenceCard,
    StateHook,
    StrengthModifier,
)

from . import log_texts, tides
from .tides import OPTION

HERE = Path(__file__).resolve().parent
STATIC_PREFIX = "tides_of_battle"


@hookimpl
def register_game_options() -> list[GameOption]:
    return [
        GameOption(OPTION, "Tides of Battle", False, "Draw a Tides of Battle card in every combat.")
    ]


CARD_WORDS = {
    "zero": (N_("Strength 0"), ""),
    "sword": (N_("Strength 1 and a sword"), ""),
    "fortification": (N_("Strength 1 and a fortification"), ""),
    "two": (N_("Strength 2"), ""),
    "three": (N_("Strength 3"), ""),
    "skull": (
        N_("Skull"),
        N_(
            "Strength 0. After the casualties, the opponent destroys one more of its units in "
            "the combat, whoever won; fortifications do not prevent it."
        ),
    ),
}
"""Each card kind of the deck in words (RULES.md 10.1, 10.4)."""


@hookimpl
def register_reference_cards() -> list[ReferenceCard]:
    return [
        ReferenceCard(
            f"tides-{card.id}", "Tides of Battle", *CARD_WORDS[card.id], card.count, OPTION
        )
        for card in tides.cards().values()
    ]


@hookimpl
def rule_setup(options: Mapping[str, Any]) -> StateHook | None:
    return tides.setup


@hookimpl
def rule_combat_step(options: Mapping[str, Any]) -> CombatSteps | None:
    return tides.combat_steps


@hookimpl
def rule_strength_modifier(options: Mapping[str, Any]) -> StrengthModifier | None:
    return tides.strength_modifier


@hookimpl
def rule_icon_modifier(options: Mapping[str, Any]) -> IconModifier | None:
    return tides.icon_modifier


@hookimpl
def rule_after_casualties(options: Mapping[str, Any]) -> CombatHook | None:
    return tides.after_casualties


@hookimpl
def register_event_texts() -> list[EventText]:
    return log_texts.event_texts()


@hookimpl
def register_static() -> list[tuple[str, str]]:
    return [(STATIC_PREFIX, str(HERE / "static"))]


@hookimpl
def register_client_scripts() -> list[str | tuple[str, str]]:
    return [(f"/static/{STATIC_PREFIX}/tides.js", OPTION)]


@hookimpl
def register_translations() -> list[str]:
    return [str(HERE / "locale")]


@hookimpl
def register_ai_answers() -> list[AiAnswer]:
    return [AiAnswer("tides_redraw", tides.redraw_weak)]
