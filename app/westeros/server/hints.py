"""Combat-strength hints for a draft decision (the ``hint`` message), from public information only.

Nothing here is a rule of its own: the numbers come from the engine's own functions
(``march.check``, ``combat.strength``), applied to a hypothetical combat built from what every
seat may see — the board, declared support, the opponent's hand (house cards in hand are public,
0.4.4) — and the draft. Secret commitments (an opponent's chosen card inside the simultaneous
step, Tides of Battle cards, deck orders) are never read.

Two drafts get a hint:

- ``resolve_march`` answering a ``march`` prompt: for a march into a house's area, both sides'
  strength before house cards (5.4.2: units, order bonus, the combatants' own support, the
  garrison) and what each other house's eligible support would add to either side (5.4.1); for
  a neutral force, the attacking strength against the token (5.5.1).
- ``choose`` answering a ``choose_house_card`` prompt: for the candidate card against each card
  the opponent may still play, both final strengths (5.4.7; constant card modifiers included),
  the victor (5.4.8) and the casualties it would inflict (5.4.9).

Not included (the engine cannot know them in advance): card abilities that act in a timing
window (Tyrion's cancel, Doran's track move, Mace's kill, Queen of Thorns' order removal,
...), the Valyrian Steel Blade (reported as available only), Tides of Battle draws, and support
not yet declared when house cards are chosen (it is all declared by then, 5.4.1)."""

from __future__ import annotations

import dataclasses
from typing import Any

from westeros.engine import Action, Choose, State, board, pending, tracks
from westeros.engine.combat import ATTACKER, DEFENDER, Combat, Side, defender_of
from westeros.engine.combat.strength import icons, initial_strength, support_strength, totals
from westeros.engine.combat.strength import victor as combat_victor
from westeros.engine.combat.support import with_own_support
from westeros.engine.errors import IllegalChoice
from westeros.engine.march import HOUSE, NEUTRAL, ResolveMarch, check
from westeros.engine.march import support_strength as own_support_strength
from westeros.engine.state import Unit

from ..session import MalformedMessage

HINT_PROMPTS = ("march", "choose_house_card")


def hint(state: State, house: str, action: Action) -> dict[str, Any]:
    """The hint for ``house``'s draft ``action`` (``house`` is pending)."""
    prompt = pending(state)[house]
    if prompt.kind == "march" and isinstance(action, ResolveMarch):
        return march_hint(state, house, action)
    if prompt.kind == "choose_house_card" and isinstance(action, Choose):
        return card_hint(state, house, action)
    raise MalformedMessage(
        "hints are given for a march (resolve_march) and a house-card choice (choose), "
        f"not for {action.kind!r} answering {prompt.kind!r}"
    )


def blade_side(state: State, combat: Combat) -> str | None:
    """The side whose Valyrian Steel Blade is still usable in this combat (5.4.6), if any."""
    if state.blade_used:
        return None
    return combat.side_of(tracks.holder(state, tracks.FIEFDOMS))


def march_hint(state: State, house: str, action: ResolveMarch) -> dict[str, Any]:
    """Strengths before house cards for the combat the draft march would start (5.4.2)."""
    plan = check(state, house, action)  # raises the IllegalAction naming the rule
    if plan.combat is None:
        return {"kind": "march", "combat": None}
    area = action.area
    dst, types = plan.combat
    rules = state.rules
    token = state.orders[area].token
    if plan.combat_kind == NEUTRAL:
        castle = rules.areas[dst].castle > 0
        strength = sum(board.unit_strength(state, Unit(house, t), castle) for t in types)
        strength += rules.order_tokens[token].bonus
        strength += own_support_strength(state, house, dst, dict(plan.moves))
        return {
            "kind": "march",
            "combat": NEUTRAL,
            "area": dst,
            "attacker": strength,
            "neutral_force": state.neutral[dst],
            "enough": strength >= state.neutral[dst],
        }
    assert plan.combat_kind == HOUSE
    draft = state.copy()  # a scratch copy: the hypothetical moves never touch the game
    del draft.orders[area]
    for move_to, moved in plan.moves:
        board.remove_units(draft, area, [Unit(house, t) for t in moved])
        board.add_units(draft, move_to, house, moved)
    attackers = tuple(Unit(house, t) for t in types)
    board.remove_units(draft, area, attackers)
    defender = defender_of(draft, house, dst)
    combat = Combat(
        area=dst,
        origin=area,
        march_token=token,
        attacker=Side(house, attackers),
        defender=Side(defender, draft.units.get(dst, ())),
    )
    combat, others = with_own_support(draft, combat)
    possible = []
    for other, areas in sorted(others.items()):
        entry: dict[str, Any] = {"house": other, "areas": areas}
        for which in (ATTACKER, DEFENDER):
            side = combat.side(which)
            trial = combat.with_side(which, dataclasses.replace(side, support=tuple(areas)))
            entry[which] = support_strength(draft, trial, which, [])
        possible.append(entry)
    return {
        "kind": "march",
        "combat": HOUSE,
        "area": dst,
        "attacker": {"house": house, "strength": initial_strength(draft, combat, ATTACKER)},
        "defender": {"house": defender, "strength": initial_strength(draft, combat, DEFENDER)},
        "possible_support": possible,
        "blade": blade_side(draft, combat),
    }


def card_hint(state: State, house: str, action: Choose) -> dict[str, Any]:
    """Final strengths with the candidate card against each card the opponent may play."""
    prompt = pending(state)[house]
    if action.option not in prompt.data.get("cards", ()):
        raise IllegalChoice(f"{action.option!r} is not one of your cards to play", rule="5.4.3")
    combat: Combat = state.combat
    which = combat.side_of(house)
    if which is None:
        raise MalformedMessage(f"{house} does not fight in this combat")
    other = combat.other(which)
    mine = dataclasses.replace(combat.side(which), card=action.option)
    theirs = combat.side(other)
    if theirs.card is not None:
        candidates: list[str | None] = [theirs.card]
    else:
        candidates = list(state.hands[theirs.house]) or [None]
    rows = []
    for card in candidates:
        trial = combat.with_side(which, mine).with_side(
            other, dataclasses.replace(theirs, card=card)
        )
        attacker, defender = totals(state, trial, combat.get("blade"))
        strength = (attacker, defender) if which == ATTACKER else (defender, attacker)
        winner = combat_victor(state, trial, attacker, defender)
        swords = icons(state, trial, winner)[0]
        forts = icons(state, trial, trial.other(winner))[1]
        rows.append(
            {
                "opponent_card": card,
                "strength": strength[0],
                "opponent_strength": strength[1],
                "wins": winner == which,
                "casualties": max(0, swords - forts),
            }
        )
    return {
        "kind": "house_card",
        "card": action.option,
        "side": which,
        "opponent": theirs.house,
        "against": rows,
        "blade": blade_side(state, combat),
    }
