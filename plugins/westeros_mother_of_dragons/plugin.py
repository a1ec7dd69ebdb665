"""Hook implementations of the Mother of Dragons plugin (RULES.md 11).

Only games with the ``mother_of_dragons`` option get its content (``plugin_in_game``): every
other game, and every base test, sees the base board and houses unchanged. It brings House
Arryn and the 7-player board and setup (11.2.1-11.2.4, 11.3, 11.7.1) and, with the
``mod_vassals`` option, 3-6 player games with vassals (11.2.5, 11.10: ``vassals``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.actions import Action
from westeros.engine.content import (
    AiAnswer,
    AnsweringHouse,
    AreaDef,
    CombatHook,
    EventText,
    GameOption,
    HouseCard,
    HouseDef,
    HouseOrdersRule,
    LeftOut,
    OffLimits,
    OrderLoopStart,
    OrderToken,
    PlanningSteps,
    Setup,
    StartingUnit,
    StateHook,
    SupportOptions,
)
from westeros.engine.errors import ContentError
from westeros.engine.state import State

from . import content, log_texts, vassals

HERE = Path(__file__).resolve().parent
OPTION = "mother_of_dragons"


@hookimpl
def register_game_options() -> list[GameOption]:
    return [
        GameOption(
            OPTION,
            "Mother of Dragons",
            False,
            "Play with 7 players: House Arryn joins on the board with The Bite and the Vale.",
        ),
        vassals.game_option(),
    ]


@hookimpl
def plugin_in_game(options: Mapping[str, Any]) -> bool:
    return bool(options.get(OPTION))


@hookimpl
def register_areas() -> list[AreaDef]:
    return content.areas()


@hookimpl
def register_area_overrides() -> list[AreaDef]:
    return content.area_overrides()


@hookimpl
def register_adjacency() -> list[tuple[str, str]]:
    return content.adjacency()


@hookimpl
def register_removed_adjacency() -> list[tuple[str, str]]:
    return content.removed_adjacency()


@hookimpl
def register_houses() -> list[HouseDef]:
    return content.houses()


@hookimpl
def register_house_cards() -> list[HouseCard]:
    return content.cards()


@hookimpl
def register_starting_units() -> list[StartingUnit]:
    return content.starting_units()


@hookimpl
def register_setups() -> list[Setup]:
    return content.setups()


def refuse_other_player_counts(state: State) -> None:
    """Mother of Dragons is set up for 7 players (11.2.1); with fewer, the absent houses are
    vassals (11.2.5), which needs the vassals option."""
    counts = sorted(s.player_count for s in content.setups())
    count = state.setup.player_count
    if count not in counts and not state.options.get(vassals.OPTION):
        raise ContentError(
            f"Mother of Dragons is played with {counts} players, not {count} (fewer players "
            f"need vassals: the {vassals.OPTION!r} option, RULES.md 11.2.5)"
        )


def setup(state: State) -> None:
    """Refuse player counts without a Mother of Dragons setup, then set up vassals (11.10.2)."""
    refuse_other_player_counts(state)
    vassals.setup(state)


@hookimpl
def register_setup_overrides() -> list[Setup]:
    return vassals.setup_overrides(content.setups()[0])


@hookimpl
def rule_setup(options: Mapping[str, Any]) -> StateHook | None:
    return setup


@hookimpl
def rule_left_out(options: Mapping[str, Any]) -> LeftOut | None:
    return vassals.left_out if options.get(vassals.OPTION) else None


@hookimpl
def rule_planning_steps(options: Mapping[str, Any]) -> PlanningSteps | None:
    return vassals.planning_steps if options.get(vassals.OPTION) else None


@hookimpl
def rule_answering_house(options: Mapping[str, Any]) -> AnsweringHouse | None:
    return vassals.answering_house if options.get(vassals.OPTION) else None


@hookimpl
def rule_off_limits(options: Mapping[str, Any]) -> OffLimits | None:
    return vassals.off_limits if options.get(vassals.OPTION) else None


@hookimpl
def rule_after_casualties(options: Mapping[str, Any]) -> CombatHook | None:
    return vassals.vassal_victory if options.get(vassals.OPTION) else None


@hookimpl
def rule_after_resolution(options: Mapping[str, Any]) -> StateHook | None:
    return vassals.free_power_tokens if options.get(vassals.OPTION) else None


@hookimpl
def rule_support_options(options: Mapping[str, Any]) -> SupportOptions | None:
    return vassals.support_options if options.get(vassals.OPTION) else None


@hookimpl
def rule_order_loop_start(options: Mapping[str, Any]) -> OrderLoopStart | None:
    return vassals.muster_orders if options.get(vassals.OPTION) else None


@hookimpl
def register_order_tokens() -> list[OrderToken]:
    return [*vassals.ORDER_TOKENS, *vassals.SIDES]


@hookimpl
def rule_house_orders(options: Mapping[str, Any]) -> HouseOrdersRule | None:
    return vassals.house_orders


@hookimpl
def register_action_kinds() -> list[type[Action]]:
    return [vassals.ClaimVassalsAction]


@hookimpl
def register_ai_answers() -> list[AiAnswer]:
    return [AiAnswer("claim_vassals", vassals.claim_most)]


@hookimpl
def register_event_texts() -> list[EventText]:
    return log_texts.event_texts()


@hookimpl
def register_translations() -> list[str]:
    return [str(HERE / "locale")]
