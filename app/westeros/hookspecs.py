# mypy: disable-error-code="empty-body"
"""Every hook a Westeros plugin may implement (DESIGN §3; modder's guide: docs/plugins.md).

Plugins implement hooks with ``from westeros import hookimpl``. Three groups:

- *Content* hooks return lists of the typed objects in ``westeros.engine.content``; the host
  merges them in plugin order and refuses a plugin that registers an id another plugin already
  registered, naming both.
- *Rule* hooks receive the game's options (registered defaults filled in) and return a callable,
  or None when the plugin is inactive under those options; the engine calls the callables, in
  plugin order, at the matching point of the rules (``westeros.engine.content.RuleHooks``).
  Callables get the state being changed: they may change it and ``state.push`` steps, but must be
  deterministic (randomness only through ``westeros.engine.rng`` with ``state.seed``).
- *Log and action* hooks (``register_event_texts``, ``register_action_kinds``) are content too:
  the game log's wording of a plugin's events and the decisions its prompts ask for.
- *AI* and *UI* hooks contribute AI personalities, templates, static files, translations and
  the board's client scripts (prompt screens and map decorations, ``register_client_scripts``).

A plugin that raises in any hook is disabled for the session (``westeros.plugins``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pluggy

from .ai.personality import AIPersonality
from .engine.actions import Action
from .engine.content import (
    AiAnswer,
    AnsweringHouse,
    AreaChanges,
    AreaDef,
    AreaKind,
    BidsRevealed,
    CombatHook,
    CombatSteps,
    EventText,
    GameOption,
    HandViewers,
    HouseCard,
    HouseDef,
    HouseOrdersRule,
    IconModifier,
    LeftOut,
    MapShapes,
    MarchReach,
    MusterTargets,
    OffLimits,
    OrderLoopStart,
    OrderResolver,
    OrderToken,
    PlanningSteps,
    PowerIncome,
    ReferenceCard,
    Setup,
    StartingUnit,
    StateHook,
    StrengthModifier,
    SupportOptions,
    TrackArrangement,
    UnitStrength,
    UnitType,
    VictoryCheck,
    VictoryPoints,
    WesterosCard,
    WildlingCard,
)
from .help import HelpSection

hookspec = pluggy.HookspecMarker("westeros")

# ---------------------------------------------------------------------------------- content


@hookspec
def register_area_kinds() -> list[AreaKind]:
    """Kinds of area (RULES.md 1.1.1): land and sea come from the base game, port from ports.
    A kind's ``rules`` (an ``AreaRules`` subclass) answers who may enter, who controls the
    area, its unit cap and its Consolidate Power yield, so a new kind needs no engine change.
    A kind declares its support and raid relations in both directions (``supports`` /
    ``raids`` for orders in it, ``supported_from`` / ``raided_by`` for orders in older kinds
    next to it: RULES.md 5.2.1, 5.4.1), so no earlier kind has to name it.

    :return: AreaKind objects with unique ids.
    """


@hookspec
def register_areas() -> list[AreaDef]:
    """Map areas (RULES.md 1.1) with castles, crowns, barrels, home and garrison; each names a
    registered area kind. Kind-specific facts go in ``attrs`` (a port's ``port_of``).

    :return: AreaDef objects; ids must be unique across all plugins.
    """


@hookspec
def register_adjacency() -> list[tuple[str, str]]:
    """Adjacent pairs of areas (RULES.md 1.1.1); order within a pair does not matter.

    :return: (area id, area id) pairs; both areas must be registered by some plugin, else
        this plugin is disabled.
    """


@hookspec
def register_area_overrides() -> list[AreaDef]:
    """Areas that replace the area of the same id another plugin registered, for the games this
    plugin is part of (an expansion's board overlay: RULES.md 11.1, the Eyrie becomes a home
    stronghold). The replacement keeps the id; kind, castle, crowns, barrels, home, garrison
    and ``attrs`` are the override's.

    :return: AreaDef objects, at most one per area id across all plugins; each must name an
        area some plugin registers, else this plugin is disabled.
    """


@hookspec
def register_removed_adjacency() -> list[tuple[str, str]]:
    """Adjacent pairs that are no longer adjacent in the games this plugin is part of (an
    overlay that puts a new sea between two areas: RULES.md 11.1, The Bite).

    :return: (area id, area id) pairs, order within a pair not mattering; both areas must be
        registered by some plugin, else this plugin is disabled.
    """


@hookspec
def register_unit_types() -> list[UnitType]:
    """Unit types (RULES.md 1.2.1): strength, domain, mustering and upgrade costs.

    :return: UnitType objects.
    """


@hookspec
def register_order_tokens() -> list[OrderToken]:
    """The order tokens every house owns (RULES.md 1.4.1).

    :return: OrderToken objects (one per physical token).
    """


@hookspec
def register_houses() -> list[HouseDef]:
    """Houses (RULES.md 2.3): home area, unit pool, starting supply.

    :return: HouseDef objects.
    """


@hookspec
def register_house_cards() -> list[HouseCard]:
    """House cards with their abilities (RULES.md 8); every card of a house in play starts
    in its owner's hand.

    A card whose ``replaces`` names another card's id takes that card's place (its hand,
    the card reference and the help list only the new one); ``WesterosCard`` and
    ``WildlingCard`` have ``replaces`` too.

    :return: HouseCard objects with unique ids; ``ability`` is a
        ``westeros.engine.combat.abilities.CardAbility`` (or None for a card without one).
    """


@hookspec
def register_removed_cards() -> list[str]:
    """Ids of house, Westeros or wildling cards that leave the games the plugin is part of:
    no hand, deck, card reference or help lists them. An id nobody registers is an error.

    :return: card ids.
    """


@hookspec
def register_starting_units() -> list[StartingUnit]:
    """Units placed at setup (RULES.md 2.3.1); units of absent houses are skipped.

    :return: StartingUnit objects.
    """


@hookspec
def register_setups() -> list[Setup]:
    """Setups per player count (RULES.md 2): houses, tracks, neutral forces, supply table.

    :return: Setup objects, at most one per player count across all plugins.
    """


@hookspec
def register_westeros_cards() -> list[WesterosCard]:
    """Westeros cards of every deck (RULES.md 3.4) with their effects.

    :return: WesterosCard objects (``count`` copies of each go into deck ``deck``).
    """


@hookspec
def register_wildling_cards() -> list[WildlingCard]:
    """Wildling cards (RULES.md 7.3) with their three outcomes.

    :return: WildlingCard objects.
    """


@hookspec
def register_action_kinds() -> list[type[Action]]:
    """Action kinds (``westeros.engine.actions.Action`` subclasses with a unique ``kind``) that
    the plugin's decisions ask for (``Prompt.actions``). A game parses actions only of the
    kinds of its own plugins (``Ruleset.action_kinds``); a kind another plugin registered
    refuses this plugin, naming both.

    :return: Action subclasses (frozen dataclasses whose fields are str/int/bool/None/tuples).
    """


@hookspec
def register_event_texts() -> list[EventText]:
    """How the game log words the plugin's events (each seat reads only the events it may
    see, RULES.md 0.4.4): ``EventText(kind, describe, options)`` where
    ``describe(words, event) -> str`` returns the sentence for one event of ``kind`` in the
    reader's language (gettext literals through ``words._`` / ``words.ngettext``, names through
    ``words.house`` / ``area`` / ..., never a raw id), and ``options`` labels the option ids
    its decisions offer.

    :return: EventText objects, at most one per event kind across all plugins.
    """


@hookspec
def register_game_options() -> list[GameOption]:
    """Options shown on the new-game screen (e.g. Tides of Battle on/off). A new game
    records every option's value in ``state.options`` (the default unless chosen).

    :return: GameOption objects with unique ids and their defaults.
    """


@hookspec
def plugin_in_game(options: Mapping[str, Any]) -> bool | None:
    """Is this plugin's content part of a game with ``options`` (registered defaults filled
    in)? An expansion that a game must choose (RULES.md 11, a game option) returns False when
    it is not chosen: the game then gets only the plugin's game options and translations, so
    the new-game screen can offer it, and none of its other content or rule hooks. None or
    True: the plugin takes part as usual.

    :param options: the game's options.
    :return: False to stay out of this game.
    """


@hookspec
def register_setup_overrides() -> list[Setup]:
    """Setups that replace the setup another plugin registered for the same player count, in
    the games this plugin is part of (an expansion played with fewer players in its own way:
    RULES.md 11.2.5, every untaken house is a vassal on the 7-player board). ``Setup.players``
    names the houses players take when some houses in play have no player of their own.

    :return: Setup objects, at most one per player count across all plugins; each must
        replace a registered setup, else the plugins' content does not fit together.
    """


# ---------------------------------------------------------------------------------- rules


@hookspec
def rule_strength_modifier(options: Mapping[str, Any]) -> StrengthModifier | None:
    """Combat strength modifier (RULES.md 5.4.7): ``f(state, combat, side) -> int`` is added
    to the final strength of ``side`` (``"attacker"`` or ``"defender"``) of ``combat``
    (``westeros.engine.combat.Combat``) whenever it is computed. Read-only: do not change the
    state.

    :param options: the game's options.
    :return: the modifier, or None when inactive.
    """


@hookspec
def rule_icon_modifier(options: Mapping[str, Any]) -> IconModifier | None:
    """Extra sword / fortification icons for a side (RULES.md 5.4.9):
    ``f(state, combat, side) -> (swords, fortifications)`` is added to the icons of ``side``'s
    house card when casualties are counted. Read-only.

    :param options: the game's options.
    :return: the modifier, or None when inactive.
    """


@hookspec
def rule_combat_step(options: Mapping[str, Any]) -> CombatSteps | None:
    """Steps inserted into a combat after house-card abilities, before the Blade
    (RULES.md 5.4.5): ``f(state, combat) -> list[Step]``. The steps (frozen dataclasses,
    ``Step`` or ``Decision``) run in the given order; they keep their data in
    ``state.combat`` via ``combat.with_data`` (keys starting with ``_`` stay secret).

    :param options: the game's options.
    :return: the step factory, or None when inactive.
    """


@hookspec
def rule_after_casualties(options: Mapping[str, Any]) -> CombatHook | None:
    """Runs after sword casualties (RULES.md 5.4.9 item 5): ``f(state, combat) -> None``.
    Steps it pushes (e.g. ``DestroyParticipants``) run before the retreat.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_after_resolution(options: Mapping[str, Any]) -> StateHook | None:
    """Consequence check after every resolution (RULES.md Appendix A.3): ``f(state) -> None``,
    called by ``westeros.engine.victory.consequences`` before the victory check. It runs very
    often: keep it cheap and idempotent; push a Decision when a house must choose.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_round_start(options: Mapping[str, Any]) -> StateHook | None:
    """Runs at the start of every round (RULES.md 3.1), before its phases are queued:
    ``f(state) -> None``; ``state.round`` is the new round.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_round_end(options: Mapping[str, Any]) -> StateHook | None:
    """End-of-round effect during Clean Up (RULES.md 5.7): ``f(state) -> None``, after orders
    are removed and routed units restored, before the victory check and the next round.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_victory_check(options: Mapping[str, Any]) -> VictoryCheck | None:
    """An extra victory condition (RULES.md 9.1): ``f(state) -> winning house or None``,
    asked before the 7-castle check after every resolution; the first house returned wins.

    :param options: the game's options.
    :return: the check, or None when inactive.
    """


@hookspec
def rule_power_income(options: Mapping[str, Any]) -> PowerIncome | None:
    """Extra power from Game of Thrones (RULES.md 3.4.6): ``f(state, house) -> int`` is added
    to ``house``'s crowns (ports: 6.2.3); the 20-token cap still applies (1.5.2).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_muster_targets(options: Mapping[str, Any]) -> MusterTargets | None:
    """Extra areas a unit mustered in a castle area may be placed in (RULES.md 3.5.3, 6.2.4):
    ``f(state, area, house, unit_type) -> list[area id]``. The engine still checks the unit's
    domain, blocked areas, occupants, the area kind's unit cap, the pool and supply.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_setup(options: Mapping[str, Any]) -> StateHook | None:
    """Runs once after the board is set up (RULES.md 2): ``f(state) -> None``, after units,
    decks and supply are placed and before round 1 starts (extra decks, tokens, units).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_unit_strength(options: Mapping[str, Any]) -> UnitStrength | None:
    """A unit's own strength (RULES.md 1.2.1), e.g. one that changes over the game:
    ``f(state, unit, strength) -> int`` gets a unit that is not routed (``westeros.engine.state
    .Unit``) and the strength its type gives it (``vs_castle`` already applied) and returns the
    strength it has; every combat, support and march computation uses it (routed units stay 0,
    card modifiers come on top). Read-only; called in plugin order, each on the previous result.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_march_reach(options: Mapping[str, Any]) -> MarchReach | None:
    """Extra destinations of a marching group (RULES.md 5.3.2), e.g. units that fly:
    ``f(state, house, area, types) -> areas`` names areas that the group of exactly ``types``
    (unit type ids, sorted) marching from ``area`` may move to besides adjacency and
    transport. The engine still checks each unit's domain, the area kind's entry rule and unit
    cap, blocked areas, one combat per march and supply. The march prompt lists them per unit
    type, for a group of all that type's movable units (``group_reach`` of the prompt data).
    Read-only.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_track_order(options: Mapping[str, Any]) -> TrackArrangement | None:
    """The order an influence track really takes (RULES.md 1.6.4), e.g. a house that always
    stays last: ``f(state, track, order) -> order`` gets the order a bid, card or effect would
    give the track and returns a reordering of the same houses; dominance follows the result.
    Called in plugin order, each on the previous result. Read-only.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_resolve_order(options: Mapping[str, Any]) -> OrderResolver | None:
    """Resolves an order of a type the engine does not know (RULES.md 5.6.3): a token whose
    ``OrderToken.resolved_in`` is ``consolidate_power`` joins that loop; its area appears in the
    ``consolidate_power`` prompt (yield 0, no muster) and ``ResolveConsolidate`` on it takes it
    off the board and calls ``f(state, house, area, token) -> bool``, which returns True when
    the token is the plugin's (it may push steps, e.g. a purchase decision).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_area_changes(options: Mapping[str, Any]) -> AreaChanges | None:
    """Areas whose facts (crowns, barrels, castle) the game changed in play, for good
    (RULES.md 11.9.6 improvements): ``f(state) -> Iterable[AreaDef]`` returns the changed areas
    as they are now, read from ``state`` (e.g. ``state.ext``). After changing them a plugin
    calls ``westeros.engine.board.refresh_areas(state)``; ``state.rules`` then holds them for
    every rule (income, supply, mustering, victory, combat), and decoding a saved state or a
    seat's public state does the same.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_left_out(options: Mapping[str, Any]) -> LeftOut | None:
    """Leave a house out of a rule point (RULES.md 11.10.1, vassals):
    ``f(state, house, point) -> bool``, True to leave ``house`` out at ``point``, one of
    ``westeros.engine.content.LEFT_OUT_POINTS``: ``"orders"`` (it is not asked for orders in
    the Planning phase, 4.1), ``"wildling_bid"`` (it neither bids against a wildling attack nor
    suffers or gains from it, 7.2), ``"dominance"`` (it never holds a dominance token: the
    highest house on the track not left out does, 1.6.2), ``"victory"`` (it cannot win, 9) and
    ``"power"`` (it gains no power tokens, 1.5.2) and ``"muster_away_from_home"`` (a Mustering
    card lets it muster only in its home area, 3.4.4). Read-only and cheap: asked very often.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_planning_steps(options: Mapping[str, Any]) -> PlanningSteps | None:
    """Steps run at the start of every Planning phase, before orders are placed (RULES.md 4,
    11.10.3 claiming vassals): ``f(state) -> list[Step]``; the steps (``Step`` or
    ``Decision``) run in the given order, each plugin's after the previous plugin's.

    :param options: the game's options.
    :return: the step factory, or None when inactive.
    """


@hookspec
def rule_answering_house(options: Mapping[str, Any]) -> AnsweringHouse | None:
    """Who answers for a house that has no player of its own (RULES.md 11.10.8, a commander
    for its vassal): ``f(state, house) -> house or None``. The prompts of ``house`` stay
    addressed to ``house``; ``westeros.engine.flow.answering_house`` tells hosts whose player
    answers them (the first plugin naming a house wins; None: ``house`` itself).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_house_orders(options: Mapping[str, Any]) -> HouseOrdersRule | None:
    """How a house places orders when not in the usual way (RULES.md 11.10.4, a vassal's four
    tokens, at most 2 orders): ``f(state, house) -> HouseOrders or None``, the ids of the order
    tokens ``house`` owns, its most orders, whether every area must be filled (4.2), its star
    limit and whether it places only after every other house committed (``after_others``).
    The Planning prompt, its checks and the Messenger Raven (4.4) follow it; the first plugin
    answering for a house wins, None: every token, the usual limits.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_off_limits(options: Mapping[str, Any]) -> OffLimits | None:
    """Areas a house may not act against (RULES.md 11.10.6, a vassal family):
    ``f(state, house, area, kind) -> bool``, True when ``house`` may not march into ``area``
    (``kind`` "march", 5.3.2; also asked for a plugin's extra march reach), retreat into it
    (``kind`` "retreat", 5.4.10, 6.3.5) or raid the order in it (``kind`` "raid", 5.2.1). Read-only;
    asked for every candidate, so keep it cheap.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_support_options(options: Mapping[str, Any]) -> SupportOptions | None:
    """Whom a house may support in a combat (RULES.md 5.4.1; 11.10.6, a vassal always supports
    a family member): ``f(state, combat, house) -> declarations or None``, a subset of
    ``("attacker", "defender", "none")``; with a single one left the house is not asked and
    its support goes there. The first plugin answering wins; None: all three.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_order_loop_start(options: Mapping[str, Any]) -> OrderLoopStart | None:
    """Runs once when the Action phase's loop of one order type begins (RULES.md 5.1: Raid,
    then March, then Consolidate Power): ``f(state, order_type) -> None``, before the first
    order of that type is resolved; it may change orders on the board (11.10.5, a vassal's
    Defense +1/Muster becomes a muster order for the Consolidate Power step).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_combat_start(options: Mapping[str, Any]) -> CombatHook | None:
    """Runs when a combat begins (RULES.md 5.4), once ``state.combat`` is set and before
    support is called: ``f(state, combat) -> None``; it may change hands (11.10.8, a vassal's
    commander draws 3 cards of the shared vassal deck for the combat).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_combat_end(options: Mapping[str, Any]) -> CombatHook | None:
    """Runs when a combat ends (RULES.md 5.4.11), after the clean-up and the after-combat
    window, before ``state.combat`` is cleared and the consequence checks run:
    ``f(state, combat) -> None`` (11.10.8, a vassal's drawn cards return to the shared deck).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_hand_viewers(options: Mapping[str, Any]) -> HandViewers | None:
    """Who may see a house's hand (house cards are open information, RULES.md 8.1; 11.10.8,
    a vassal's drawn cards are seen by its commander alone): ``f(state, house) -> houses or
    None``; ``player_view`` shows the hand of ``house`` only to those houses (the first plugin
    naming viewers wins; None: everyone sees it).

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_victory_points(options: Mapping[str, Any]) -> VictoryPoints | None:
    """A house's victory-track score in place of its castle-area count (RULES.md 1.9.1, 9.1,
    9.2; e.g. a house that scores another way): ``f(state, house) -> int | None``, None to keep
    the count. The first non-None answer is used by the instant-win check (7 or more wins) and
    by the end-of-game ranking. It runs after every resolution: keep it cheap.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


@hookspec
def rule_bids_revealed(options: Mapping[str, Any]) -> BidsRevealed | None:
    """After the bids for an influence track are revealed and paid (RULES.md 3.6.2), before
    the track is rebuilt: ``f(state, track, bids) -> Step | None``. A returned step (e.g. a
    decision letting a house move its bid onto others) runs instead of the rebuild and must
    end by calling ``westeros.engine.bidding.build_track(state, track, new_bids)``; None lets
    the next hook, then the engine, build the track from ``bids``. The first step returned wins.

    :param options: the game's options.
    :return: the callable, or None when inactive.
    """


# ---------------------------------------------------------------------------------- AI


@hookspec
def register_ai_personalities() -> list[AIPersonality]:
    """AI personalities offered for AI seats, collected in ``LoadedPlugins.ai_personalities``:
    weights that colour every decision and, in ``decisions``, the plugin's own decision code
    for the prompt kinds (or reasons) it cares about (``westeros.ai.personality``). Kept only
    while the plugin is part of the game (``plugin_in_game``).

    :return: ``westeros.ai.personality.AIPersonality`` objects with a unique ``id``.
    """


@hookspec
def register_ai_answers() -> list[AiAnswer]:
    """How the game's AIs answer the plugin's prompt kinds: ``AiAnswer(kind, answer)`` where
    ``answer(view, rules, rnd) -> Action`` returns a legal action for ``view["prompt"]`` from
    the seat's view alone (DESIGN §5; never the true state). ``kind`` may also be the
    ``reason`` of a prompt the plugin's own rule or card asks with a host kind (e.g. a
    ``choose_option``): that answer then comes first (``westeros.ai.legal.plugin_answer``).
    Prompts without an answer get a legal answer built from their data
    (``westeros.ai.legal.fallback_action``).

    :return: AiAnswer objects, at most one per prompt kind across all plugins.
    """


# ---------------------------------------------------------------------------------- UI


@hookspec
def register_templates() -> list[str]:
    """Folders of jinja2 templates, collected in plugin order in ``LoadedPlugins.templates``;
    earlier plugins win on equal names.

    :return: filesystem paths.
    """


@hookspec
def register_static() -> list[tuple[str, str]]:
    """Static asset folders served under ``/static/<prefix>/``; collected in
    ``LoadedPlugins.static``.

    :return: (prefix, filesystem path) pairs.
    """


@hookspec
def register_translations() -> list[str]:
    """gettext catalog folders (``<lang>/LC_MESSAGES/westeros.po``, or a compiled ``.mo``) for
    the plugin's UI strings and content names; collected in ``LoadedPlugins.translations``.
    ``python -m westeros.server.i18n_catalog`` extracts and updates them.

    :return: filesystem paths.
    """


@hookspec
def register_client_scripts() -> list[str | tuple[str, str]]:
    """JavaScript modules the board and replay pages import when the plugin is part of the
    game (never otherwise): URLs under one of the plugin's ``register_static`` prefixes, e.g.
    ``/static/ports/ports.js``, or (URL, game option id) to import it only in games where that
    option is on. Each module calls ``registerPlugin`` of ``/static/js/registry.js`` to add
    prompt screens (by prompt kind), top-bar phase labels, option labels and map behaviour for
    its area kinds (see docs/plugins.md).

    :return: URLs starting with ``/static/``, or (URL, option id) pairs.
    """


@hookspec
def register_reference_cards() -> list[ReferenceCard]:
    """Cards the plugin brings outside the house, Westeros and wildling decks (e.g. the Tides
    of Battle deck), so that the card reference of "How to play" lists them with every other
    card of the content; collected in ``LoadedPlugins.reference_cards``. No rule reads them.

    :return: ``ReferenceCard`` objects (unique ids; names and texts are gettext messages).
    """


@hookspec
def register_help_sections() -> list[HelpSection]:
    """Sections of "How to play" for the plugin's content (``westeros.help``): topics in plain
    words under the section's own heading, and the house-card decks the card reference labels;
    collected in ``LoadedPlugins.help_sections``. The start screen's help shows every topic but
    the replacing ones; a game's board shows those of its options and houses, a replacing topic
    in the place of the game's own.

    :return: ``HelpSection`` objects (unique ids; texts are gettext messages).
    """


@hookspec
def register_map_shapes() -> list[MapShapes]:
    """Geometry for the generated SVG map (``python -m westeros.mapgen``), in the layout-file
    format ``westeros.mapgen`` documents: seeds or badges for the plugin's areas, ``replace``
    for earlier areas it redraws (a sea a new sea cuts in two), and ``optional`` plus ``extend``
    for a side board drawn (and the canvas grown) only in games that have all its areas. Read
    only by the map generator, for the plugins that are part of a game; a ``data/layout.json``
    beside the plugin module is read the same way.

    :return: ``MapShapes`` objects, each one layout file's data.
    """
