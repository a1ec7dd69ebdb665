"""The one hidden-information filter (DESIGN §2, RULES.md 0.4.4).

``player_view(state, house)`` is all a seat (or an AI) may know: the board, public hands and
discard piles, revealed orders, deck sizes, its own prompt. Unrevealed orders, bids and house
cards live inside decision steps and never appear here: a house sees only its own, in
``take_back``, while it may still change it, and every house sees who has ``committed``. Deck
orders stay hidden except the top wildling card for a house that looked at it with the
Messenger Raven (4.4)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import controller, unit_strength
from .combat.strength import totals
from .flow import Prompt, answering_house, commitment, committed, open_commitment, pending
from .round import LAST_ROUND
from .state import Event, State, Unit
from .victory import track_view
from .westeros_phase import MAX_THREAT


def visible(event: Event, house: str | None) -> bool:
    """May ``house`` (None: a spectator) see ``event``?"""
    return event.to is None or (house is not None and house in event.to)


def event_view(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data."""
    return {"kind": event.kind, **event.data}


def combat_view(state: State, house: str | None) -> dict[str, Any] | None:
    """The combat in progress as ``house`` may see it; once house cards are revealed and until
    the victor is known, ``data.strength`` holds both totals as they stand (5.4.7: cards,
    abilities and revealed plugin cards counted; the final totals replace them, 5.4.8)."""
    combat = state.combat
    if combat is None:
        return None
    out = combat.view(house)
    if combat.winner is None and (combat.attacker.card or combat.defender.card):
        out["data"]["strength"] = list(totals(state, combat, combat.get("blade")))
    return out


def sees_hand(state: State, viewer: str | None, house: str) -> bool:
    """May ``viewer`` (None: a spectator) see ``house``'s hand (8.1; ``rule_hand_viewers``)?"""
    for hook in state.rules.hooks.hand_viewers:
        viewers = hook(state, house)
        if viewers is not None:
            return viewer in viewers
    return True


def hands_view(state: State, viewer: str | None) -> dict[str, list[str]]:
    """Every house's hand as ``viewer`` (None: a spectator) may see it (``sees_hand``)."""
    return {h: list(c) if sees_hand(state, viewer, h) else [] for h, c in state.hands.items()}


def changed_facts(state: State) -> dict[str, Any]:
    """What the game's rules make of the printed content, for the board to draw:
    ``unit_strength``, every unit type's strength now, in games with ``rule_unit_strength`` hooks
    (e.g. a strength growing with the rounds), and ``changed_areas``, the crowns, barrels and
    castle of each area improved or degraded in play (``rule_area_changes``). Keys only when
    non-empty."""
    rules = state.rules
    strengths = (
        {t: unit_strength(state, Unit("", t), False) for t in sorted(rules.unit_types)}
        if rules.hooks.unit_strength
        else {}
    )
    areas = {
        a.id: {"crowns": a.crowns, "barrels": a.barrels, "castle": a.castle}
        for a in sorted(rules.areas.values(), key=lambda a: a.id)
        if a is not rules.base.areas.get(a.id)
    }
    out: dict[str, Any] = {}
    if strengths:
        out["unit_strength"] = strengths
    if areas:
        out["changed_areas"] = areas
    return out


def player_view(state: State, house: str | None) -> dict[str, Any]:
    """What ``house`` may see (None: what every spectator may see)."""
    return _seat_view(state, house, _public_part(state))


def player_views(state: State, houses: Iterable[str | None]) -> dict[str | None, dict[str, Any]]:
    """``player_view(state, house)`` of each of ``houses``, the part every house sees the same
    computed once: the views share those values, so treat them as read-only."""
    public = _public_part(state)
    return {house: _seat_view(state, house, public) for house in houses}


_Public = tuple[dict[str, Any], dict[str, Any]]


def _public_part(state: State) -> _Public:
    """The entries of ``player_view`` that are the same for every house: those before the
    combat and those after it, each in view order. ``players`` is the game's player count, which
    names its setup: a plugin may seat fewer players than there are houses (a vassal game of 3-6
    players is played on the 7-player board, RULES.md 11.2.5), so ``houses`` alone does not tell
    it."""
    head = {
        "round": state.round,
        "options": dict(sorted(state.options.items())),
        "houses": list(state.houses),
        "players": state.setup.player_count,
        "tracks": {t: list(order) for t, order in state.tracks.items()},
        "units": {
            a: [[u.house, u.type, u.routed] for u in units]
            for a, units in sorted(state.units.items())
        },
        "orders": {a: [o.house, o.token] for a, o in sorted(state.orders.items())},
        "control": {a: h for a in sorted(state.rules.areas) if (h := controller(state, a))},
        "power_tokens": dict(sorted(state.power_tokens.items())),
        "power": dict(state.power),
        "garrisons": dict(sorted(state.garrisons.items())),
        "neutral_forces": dict(sorted(state.neutral.items())),
        "blocked": sorted(state.blocked),
        "supply": dict(state.supply),
        "victory": track_view(state),
        "limits": {
            "last_round": LAST_ROUND,
            "max_threat": MAX_THREAT,
            "max_supply": len(state.setup.supply_table) - 1,
        },
        "hands": hands_view(state, None),
        "discards": {h: list(c) for h, c in state.discards.items()},
        "westeros_deck_sizes": [len(d) for d in state.westeros_decks],
        "revealed_westeros": list(state.revealed),
        "wildling_deck_size": len(state.wildling_deck),
        "threat": state.threat,
        "restrictions": sorted(state.restrictions),
        "blade_used": state.blade_used,
        "raven_used": state.raven_used,
    }
    tail = {
        "waiting_for": sorted(pending(state)),
        "committed": committed(state),
        "prompt": None,
        "winner": state.winner,
        "ext": {k: v for k, v in sorted(state.ext.items()) if not k.startswith("_")},
        **changed_facts(state),
    }
    return head, tail


def _seat_view(state: State, house: str | None, public: _Public) -> dict[str, Any]:
    """``player_view(state, house)`` from ``_public_part(state)``: what only ``house`` may see
    (the combat as it may see it, its prompt, the wildling card it looked at, its take-back)."""
    head, tail = public
    view: dict[str, Any] = {"house": house, **head, "combat": combat_view(state, house), **tail}
    if house is not None and state.rules.hooks.hand_viewers:
        view["hands"] = hands_view(state, house)
    if house is not None and house in state.wildling_seen and state.wildling_deck:
        view["wildling_top"] = state.wildling_deck[0]
    prompts = pending(state)
    if house is not None and house in prompts:
        p = prompts[house]
        view["prompt"] = {"kind": p.kind, "actions": list(p.actions), "data": p.data}
    view["take_back"] = take_back_view(state, house)
    if house is not None and state.rules.hooks.answering_house:
        view["answering_for"] = answering_for_view(state, house, prompts)
    return view


def answering_for_view(state: State, house: str, prompts: dict[str, Prompt]) -> dict[str, Any]:
    """The houses ``house`` answers for (``rule_answering_house``; a commander's vassals,
    11.10.8): each one's prompt and its own hidden commitment, shown to ``house`` alone."""
    out: dict[str, Any] = {}
    for other in state.houses:
        if other == house or answering_house(state, other) != house:
            continue
        p = prompts.get(other)
        out[other] = {
            "prompt": None
            if p is None
            else {"kind": p.kind, "actions": list(p.actions), "data": p.data},
            "take_back": take_back_view(state, other),
        }
    return out


def take_back_view(state: State, house: str | None) -> dict[str, Any] | None:
    """For a house that committed to the open simultaneous decision: the question it may
    answer again until the reveal and its own current commitment (4.1, 3.6.2, 7.2.1, 5.4.3);
    never another house's. None otherwise."""
    step = open_commitment(state, house) if house is not None else None
    own = commitment(state, house) if house is not None else None
    if step is None or own is None or house is None:
        return None
    p = step.prompt_for(state, house)
    return {
        "kind": p.kind,
        "actions": list(p.actions),
        "data": p.data,
        "commitment": own.to_json(),
    }
