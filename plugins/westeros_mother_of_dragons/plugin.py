"""Hook implementations of the Mother of Dragons plugin (RULES.md 11).

Only games with the ``mother_of_dragons`` option get its content (``plugin_in_game``): every
other game, and every base test, sees the base board and houses unchanged. It brings House
Arryn and the 7-player board and setup (11.2.1-11.2.4, 11.3, 11.7.1), House Targaryen, Essos
and dragons for 8 players (11.2.2, 11.4, 11.5, 11.7.2-11.7.3), and with their own options the
sea order tokens (``mod_sea_orders``, 11.8), the Iron Bank (``mod_iron_bank``, 11.9) and 3-6
player games with vassals (``mod_vassals``, 11.2.5, 11.10: ``vassals``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from westeros import hookimpl
from westeros.engine.actions import Action
from westeros.engine.content import (
    AiAnswer,
    AnsweringHouse,
    AreaChanges,
    AreaDef,
    BidsRevealed,
    CombatHook,
    EventText,
    GameOption,
    HandViewers,
    HouseCard,
    HouseDef,
    HouseOrdersRule,
    LeftOut,
    MapShapes,
    MarchReach,
    OffLimits,
    OrderLoopStart,
    OrderResolver,
    OrderToken,
    PlanningSteps,
    ReferenceCard,
    Setup,
    StartingUnit,
    StateHook,
    SupportOptions,
    TrackArrangement,
    UnitStrength,
    UnitType,
    VictoryPoints,
    WesterosCard,
)
from westeros.engine.errors import ContentError
from westeros.engine.state import State
from westeros.help import HelpSection

from . import (
    ai_loans,
    ai_targaryen,
    content,
    dragons,
    help,
    iron_bank,
    log_texts,
    loyalty,
    sea_orders,
    targaryen_b_cards,
    targaryen_bids,
    tracks,
    vassal_cards,
    vassals,
    westeros_deck_iv,
)
from .loans import LOANS

HERE = Path(__file__).resolve().parent
OPTION = "mother_of_dragons"


@hookimpl
def register_game_options() -> list[GameOption]:
    return [
        GameOption(
            OPTION,
            "Mother of Dragons",
            False,
            "Play with 7 or 8 players: House Arryn joins on the board with The Bite and the "
            "Vale; with 8, House Targaryen and its dragons join from Essos.",
        ),
        GameOption(
            targaryen_b_cards.OPTION,
            "Targaryen B deck",
            False,
            "With Mother of Dragons and 8 players: Targaryen plays the alternative house cards.",
            requires=OPTION,
        ),
        GameOption(
            sea_orders.SEA_ORDERS,
            "Mother of Dragons: sea orders",
            False,
            "Each house gets Sea March -1, Sea Support +0 and Iron Bank order tokens for sea "
            "areas and ports (needs Mother of Dragons).",
            requires=OPTION,
        ),
        GameOption(
            sea_orders.IRON_BANK,
            "Mother of Dragons: the Iron Bank",
            False,
            "Houses may take loans from the Iron Bank with Iron Bank orders, and pay interest "
            "(needs Mother of Dragons).",
            requires=OPTION,
        ),
        GameOption(
            dragons.ALTERNATE,
            "Mother of Dragons: alternate dragon strength",
            False,
            "Dragon strength tokens reach the box in rounds 2, 4, 7, 9 and 10 instead of 2, 4, "
            "6, 8 and 10 (needs Mother of Dragons).",
            requires=OPTION,
        ),
        vassals.game_option(requires=OPTION),
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
    return [*content.cards(), *vassal_cards.house_cards()]


@hookimpl
def register_starting_units() -> list[StartingUnit]:
    return content.starting_units()


@hookimpl
def register_setups() -> list[Setup]:
    return content.setups()


def refuse_other_player_counts(state: State) -> None:
    """Mother of Dragons is set up for 7 and 8 players (11.2.1, 11.2.2); with fewer, the absent
    houses are vassals (11.2.5), which needs the vassals option."""
    counts = sorted(s.player_count for s in content.setups())
    count = state.setup.player_count
    if count not in counts and not state.options.get(vassals.OPTION):
        raise ContentError(
            f"Mother of Dragons is played with {counts} players, not {count} (fewer players "
            f"need vassals: the {vassals.OPTION!r} option, RULES.md 11.2.5)"
        )


@hookimpl
def register_setup_overrides() -> list[Setup]:
    seven = next(s for s in content.setups() if s.player_count == 7)
    return vassals.setup_overrides(seven)


@hookimpl
def rule_setup(options: Mapping[str, Any]) -> StateHook | None:
    deal = targaryen_b_cards.deal(
        content.targaryen_deck(bool(options.get(targaryen_b_cards.OPTION)))
    )

    def setup(state: State) -> None:
        refuse_other_player_counts(state)
        vassals.setup(state)
        vassal_cards.empty_hands(state)
        iron_bank.setup(state)
        deal(state)
        loyalty.setup(state)
        westeros_deck_iv.setup(state)

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
def rule_support_options(options: Mapping[str, Any]) -> SupportOptions | None:
    return vassals.support_options if options.get(vassals.OPTION) else None


@hookimpl
def rule_order_loop_start(options: Mapping[str, Any]) -> OrderLoopStart | None:
    return vassals.muster_orders if options.get(vassals.OPTION) else None


@hookimpl
def rule_combat_start(options: Mapping[str, Any]) -> CombatHook | None:
    return vassal_cards.draw if options.get(vassals.OPTION) else None


@hookimpl
def rule_combat_end(options: Mapping[str, Any]) -> CombatHook | None:
    return vassal_cards.return_cards if options.get(vassals.OPTION) else None


@hookimpl
def rule_hand_viewers(options: Mapping[str, Any]) -> HandViewers | None:
    return vassal_cards.hand_viewers if options.get(vassals.OPTION) else None


@hookimpl
def rule_house_orders(options: Mapping[str, Any]) -> HouseOrdersRule | None:
    return vassals.house_orders


@hookimpl
def register_action_kinds() -> list[type[Action]]:
    return [vassals.ClaimVassalsAction]


@hookimpl
def register_unit_types() -> list[UnitType]:
    return [dragons.unit_type()]


@hookimpl
def rule_unit_strength(options: Mapping[str, Any]) -> UnitStrength | None:
    return dragons.strength_of(dragons.rounds_of(content.data(), options))


@hookimpl
def rule_march_reach(options: Mapping[str, Any]) -> MarchReach | None:
    return dragons.flight


@hookimpl
def rule_track_order(options: Mapping[str, Any]) -> TrackArrangement | None:
    return tracks.targaryen_last


@hookimpl
def register_event_texts() -> list[EventText]:
    return log_texts.event_texts()


@hookimpl
def register_translations() -> list[str]:
    return [str(HERE / "locale")]


@hookimpl
def register_map_shapes() -> list[MapShapes]:
    return content.map_shapes()


@hookimpl
def register_order_tokens() -> list[OrderToken]:
    return [
        *sea_orders.order_tokens(iron_bank.order_value),
        *vassals.ORDER_TOKENS,
        *vassals.SIDES,
    ]


@hookimpl
def rule_round_start(options: Mapping[str, Any]) -> StateHook | None:
    return iron_bank.round_start


@hookimpl
def rule_resolve_order(options: Mapping[str, Any]) -> OrderResolver | None:
    return iron_bank.resolve_order


@hookimpl
def rule_area_changes(options: Mapping[str, Any]) -> AreaChanges | None:
    return iron_bank.area_changes


@hookimpl
def rule_after_resolution(options: Mapping[str, Any]) -> StateHook | None:
    vassal_game = bool(options.get(vassals.OPTION))

    def after(state: State) -> None:
        if vassal_game:
            vassals.free_power_tokens(state)
        iron_bank.track_braavos(state)
        loyalty.after_resolution(state)

    return after


@hookimpl
def register_ai_answers() -> list[AiAnswer]:
    return [
        AiAnswer("iron_bank_loan", iron_bank.dearest_loan),
        AiAnswer("iron_bank_default", iron_bank.strongest_units),
        AiAnswer("claim_vassals", vassals.claim_most),
        AiAnswer(ai_loans.LOAN_UNIT, ai_loans.answer),
        *(AiAnswer(reason, ai_loans.answer) for reason in ai_loans.CHOICES),
        *(AiAnswer(reason, ai_targaryen.answer) for reason in ai_targaryen.CHOICES),
        AiAnswer(westeros_deck_iv.CancelMove.prompt_kind, westeros_deck_iv.cancel_answer),
        AiAnswer(westeros_deck_iv.ShiftToken.prompt_kind, westeros_deck_iv.latest_token),
        AiAnswer(targaryen_bids.DistributeBid.prompt_kind, ai_targaryen.distribute_bid),
    ]


@hookimpl
def register_reference_cards() -> list[ReferenceCard]:
    return [
        ReferenceCard(loan, "Iron Bank", name, text, option=sea_orders.IRON_BANK)
        for loan, (name, text) in LOANS.items()
    ]


@hookimpl
def register_help_sections() -> list[HelpSection]:
    return help.sections()


@hookimpl
def register_westeros_cards() -> list[WesterosCard]:
    return westeros_deck_iv.westeros_cards()


@hookimpl
def rule_victory_points(options: Mapping[str, Any]) -> VictoryPoints | None:
    return loyalty.victory_points


@hookimpl
def rule_bids_revealed(options: Mapping[str, Any]) -> BidsRevealed | None:
    return targaryen_bids.offer


@hookimpl
def register_static() -> list[tuple[str, str]]:
    return [("mother_of_dragons", str(HERE / "static"))]


@hookimpl
def register_client_scripts() -> list[str | tuple[str, str]]:
    return [
        ("/static/mother_of_dragons/mod.js", OPTION),
        ("/static/mother_of_dragons/vassals.js", vassals.OPTION),
    ]
