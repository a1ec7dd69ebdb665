"""Combat previews (RULES.md 5.4, 5.5): what a draft would give, worked out by the engine's own
combat steps on a scratch copy of the state it is given — callers pass a seat's public state
(``public.public_state``), so a preview never reads a secret.

- ``march_preview``: the combat a draft march starts. Against a neutral force (5.5.1): the
  attacking strength and the support other houses may add if they agree. Against a house: the
  march is carried out on the scratch state up to the call for support (5.4.1) — the same
  consequence checks and support rules as the game — giving both strengths before house cards
  (5.4.2) and what each house still to declare would add to either side.
- ``card_preview``: for a candidate house card, one row per card the opponent may play: the
  cards are revealed on the scratch state and the ability windows (5.4.4), the victor (5.4.8)
  and its after-winner window run as in the game; the row gives both final strengths (5.4.7),
  the victor and the loser's losses (5.4.9: routed units, siege engines, sword casualties, The
  Blackfish). A choice an ability asks for on the way is answered passively (``assumed_answer``)
  and listed in the row's ``choices``.

Both previews name what is still to come and not counted: the combat steps plugins add
(``still_to_come``, e.g. Tides of Battle, 5.4.5) and the Valyrian Steel Blade (``blade``: the
side that may still use it, 5.4.6)."""

from __future__ import annotations

import dataclasses
from typing import Any

from . import march, tracks
from .actions import Action, Choose, SelectArea, SelectUnits
from .combat import AFTER_WINNER, BEFORE_COMBAT, CANCEL, IMMEDIATELY, Combat, InitialStrength
from .combat.cards import ChooseHouseCards, Window
from .combat.context import ATTACKER, DEFENDER
from .combat.resolution import DetermineWinner, losses
from .combat.strength import initial_strength, support_strength, totals, victor
from .combat.support import DeclareSupport
from .flow import Decision, Prompt, Step, advance, pending
from .state import State

PASSIVE = ("no", "pass", "keep", "none", "nothing")
MAX_CHOICES = 20


def assumed_answer(prompt: Prompt) -> Action:
    """The answer a preview assumes for a choice an ability asks during the combat: a passive
    option if offered (not cancelling, not paying, not replacing), no area if allowed, else
    the first option, area or units offered."""
    data = prompt.data
    if "options" in data:
        passive = [o for o in PASSIVE if o in data["options"]]
        return Choose(passive[0] if passive else data["options"][0])
    if "cards" in data:
        return Choose(data["cards"][0])
    if "areas" in data:
        return SelectArea(None if data.get("optional") else data["areas"][0])
    count = data.get("count", data.get("min", 0))
    return SelectUnits(tuple((a, t) for a, t in list(data["units"])[:count]))


def still_to_come(state: State, combat: Combat) -> list[dict[str, str]]:
    """The combat steps plugins will add to ``combat`` (5.4.5), e.g. the Tides of Battle draw,
    whose effect a preview does not count: each step's name and its ``preview_note``."""
    return [
        {"step": type(step).__name__, "note": step.preview_note}
        for hook in state.rules.hooks.combat_steps
        for step in hook(state, combat)
    ]


def blade_side(state: State, combat: Combat) -> str | None:
    """The side whose Valyrian Steel Blade is still usable in ``combat`` (5.4.6), if any."""
    if state.blade_used:
        return None
    return combat.side_of(tracks.holder(state, tracks.FIEFDOMS))


# ---------------------------------------------------------------------------------- march


def march_preview(
    state: State, house: str, action: march.ResolveMarch, declined: march.Declined = ()
) -> dict[str, Any]:
    """The combat ``house``'s draft march would start (see the module docstring); raises the
    IllegalAction of ``march.check`` for an illegal draft. ``state`` is unchanged."""
    plan = march.check(state, house, action, declined)
    if plan.combat is None:
        return {"combat": None}
    dst, types = plan.combat
    if plan.combat_kind == march.NEUTRAL:
        token = state.orders[action.area].token
        strength = march.marching_strength(state, house, token, dst, types)
        strength += march.support_by_house(state, house, dst, dict(plan.moves)).get(house, 0)
        others = march.possible_support(state, house, dst, dict(plan.moves), declined)
        return {
            "combat": march.NEUTRAL,
            "area": dst,
            "attacker": strength,
            "neutral_force": state.neutral[dst],
            "possible_support": [{"house": h, "attacker": v} for h, v in others.items()],
            "enough": strength >= state.neutral[dst],
        }
    draft = state.copy()
    draft.stack = ()
    march.resolve(draft, house, action, plan)
    while draft.stack and not isinstance(draft.stack[-1], (Decision, InitialStrength)):
        draft.pop().run(draft)  # the march's Attack, then the call for support (5.4.1)
    combat: Combat | None = draft.combat
    if combat is None:  # the march's own consequences ended the game (9.1)
        return {"combat": None, "winner": draft.winner}
    possible = []
    steps: tuple[Step, ...] = draft.stack
    for step in steps:
        if isinstance(step, DeclareSupport):
            entry: dict[str, Any] = {"house": step.house, "areas": list(step.areas)}
            for which in (ATTACKER, DEFENDER):
                side = combat.side(which)
                trial = combat.with_side(which, dataclasses.replace(side, support=step.areas))
                entry[which] = support_strength(draft, trial, which, [])
            possible.append(entry)
    return {
        "combat": march.HOUSE,
        "area": dst,
        "attacker": {"house": house, "strength": initial_strength(draft, combat, ATTACKER)},
        "defender": {
            "house": combat.defender.house,
            "strength": initial_strength(draft, combat, DEFENDER),
        },
        "possible_support": sorted(possible, key=lambda e: e["house"]),
        "blade": blade_side(draft, combat),
        "still_to_come": still_to_come(draft, combat),
    }


# ---------------------------------------------------------------------------------- cards


def card_preview(state: State, house: str, card: str) -> dict[str, Any]:
    """``house`` plays ``card`` in the combat in progress: one row per card the opponent may
    play (see the module docstring). ``state`` is unchanged."""
    combat: Combat = state.combat
    which = combat.side_of(house)
    assert which is not None, f"{house} does not fight in this combat"
    rows = [_row(state, which, card, opponent) for opponent in opponent_cards(state, house)]
    return {
        "card": card,
        "side": which,
        "opponent": combat.side(combat.other(which)).house,
        "against": rows,
        "blade": blade_side(state, combat),
        "still_to_come": still_to_come(state, combat),
    }


def opponent_cards(state: State, house: str) -> list[str | None]:
    """The cards ``house``'s opponent in the combat in progress may play (5.4.3): its revealed
    card, else every card in its hand (None: it has none, §12.28)."""
    combat: Combat = state.combat
    which = combat.side_of(house)
    assert which is not None, f"{house} does not fight in this combat"
    theirs = combat.side(combat.other(which))
    if theirs.card is not None:
        return [theirs.card]
    return list(state.hands[theirs.house]) or [None]


def _row(state: State, which: str, card: str, opponent: str | None) -> dict[str, Any]:
    """Play ``card`` for ``which`` against ``opponent`` on a scratch copy of ``state``."""
    trial = state.copy()
    trial.stack = ()
    combat: Combat = trial.combat
    other = combat.other(which)
    commits: dict[str, Action] = {combat.side(which).house: Choose(card)}
    if opponent is not None:
        commits[combat.side(other).house] = Choose(opponent)
    ChooseHouseCards(()).resolve(trial, commits)
    played = trial.combat
    choices = _run(
        trial,
        Window(CANCEL),
        Window(IMMEDIATELY),
        Window(BEFORE_COMBAT),
    )
    fought: Combat = trial.combat
    blade = blade_side(trial, fought)
    before = victor(trial, fought, *totals(trial, fought, None))
    flips = blade is not None and victor(trial, fought, *totals(trial, fought, blade)) != before
    choices += _run(trial, DetermineWinner(), Window(AFTER_WINNER))
    decided: Combat = trial.combat
    assert decided.winner is not None
    strength = decided.get("strength")
    loser = decided.other(decided.winner)
    lost = losses(trial, decided, loser)
    replaced = (
        decided.side(which).card != played.side(which).card
        or decided.side(other).card != played.side(other).card
    )
    return {
        "opponent_card": opponent,
        "strength": strength[0] if which == ATTACKER else strength[1],
        "opponent_strength": strength[1] if which == ATTACKER else strength[0],
        "wins": decided.winner == which,
        "casualties": lost.units_lost(len(decided.side(loser).units)),
        "losses": {
            "side": loser,
            "routed_and_siege": len(lost.doomed),
            "swords": lost.casualties,
            "prevented": lost.prevented,
            "garrison": lost.garrison,
        },
        "blade_changes_victor": flips,
        "cards_replaced": replaced,
        "choices": choices,
    }


def _run(state: State, *steps: Any) -> list[dict[str, Any]]:
    """Run ``steps`` on the scratch ``state``, answering every decision on the way with
    ``assumed_answer``; returns those choices (house, reason, assumed answer)."""
    state.push(*steps)
    advance(state)
    made: list[dict[str, Any]] = []
    while state.stack and len(made) < MAX_CHOICES:
        top = state.stack[-1]
        asked = pending(state)
        if not isinstance(top, Decision) or not asked:
            break
        house, prompt = sorted(asked.items())[0]
        answer = assumed_answer(prompt)
        made.append(
            {"house": house, "reason": prompt.data.get("reason"), "assumed": answer.to_json()}
        )
        state.cache = None  # the scratch state changes in place: forget what it waited with
        top.act(state, house, answer)
        advance(state)
    return made
