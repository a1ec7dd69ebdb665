"""Combat strength and icons (5.4.2, 5.4.7, 5.4.9) and the victor (5.4.8).

Everything is computed from the state at the moment it is asked, so constant card modifiers and
support see every earlier effect (8.3.4): a Support order removed by the Queen of Thorns no
longer counts, Doran's track change is already in force, and so on."""

from __future__ import annotations

from .. import board, tracks
from ..state import State, Unit
from .abilities import CardAbility, ability_of
from .context import ATTACKER, DEFENDER, Combat

SUPPORT = "support"
DEFENSE = "defense"

Abilities = list[tuple[str, CardAbility]]


def turn_sides(state: State, combat: Combat) -> tuple[str, str]:
    """Both sides, the one higher on the Iron Throne track first (5.4.4)."""
    order = state.tracks[tracks.IRON_THRONE]
    if order.index(combat.attacker.house) < order.index(combat.defender.house):
        return (ATTACKER, DEFENDER)
    return (DEFENDER, ATTACKER)


def played(state: State, combat: Combat) -> Abilities:
    """The abilities of both played cards as (side, ability), in turn order."""
    out = []
    for which in turn_sides(state, combat):
        card = combat.side(which).card
        if card is not None:
            out.append((which, ability_of(state, card)))
    return out


def counted_support(state: State, combat: Combat, which: str) -> tuple[str, ...]:
    """Areas whose support still counts for ``which``: declared for it, and still holding a
    Support order and units (8.3.4: a removed order no longer supports)."""
    tokens = state.rules.order_tokens
    out = []
    for area in combat.side(which).support:
        order = state.orders.get(area)
        if order is not None and tokens[order.token].type == SUPPORT and area in state.units:
            out.append(area)
    return tuple(out)


def is_supported(state: State, combat: Combat, which: str) -> bool:
    """Is any support counted for ``which`` (Asha Greyjoy, Salladhor Saan; 8.3.4)?"""
    return bool(counted_support(state, combat, which))


def units_value(
    state: State,
    combat: Combat,
    for_side: str,
    units: tuple[Unit, ...],
    supporting: bool,
    abilities: Abilities,
) -> int:
    """Strength of ``units`` fighting or supporting for ``for_side`` (1.2.1 with card
    modifiers): siege engines count their castle value only on the attacker's side. Only the
    abilities that change a unit's strength are asked (the others' no-op methods give back
    what they are given)."""
    castle = for_side == ATTACKER and state.rules.areas[combat.area].castle > 0
    strengthen = [(w, a) for w, a in abilities if _changes_units(type(a))[0]]
    nullify = [(w, a) for w, a in abilities if _changes_units(type(a))[1]]
    total = 0
    for unit in units:
        value = board.unit_strength(state, unit, castle)
        for which, ability in strengthen:
            value = ability.unit_strength(state, combat, which, for_side, unit, supporting, value)
        if not any(a.nullifies_unit(state, combat, w, for_side, unit) for w, a in nullify):
            total += max(0, value)
    return total


_CHANGES_UNITS: dict[type[CardAbility], tuple[bool, bool]] = {}


def _changes_units(ability: type[CardAbility]) -> tuple[bool, bool]:
    """Does an ability of this class change ``CardAbility``'s no-op ``unit_strength``, and its
    ``nullifies_unit``? (Read once per class.)"""
    found = _CHANGES_UNITS.get(ability)
    if found is None:
        found = _CHANGES_UNITS[ability] = (
            ability.unit_strength is not CardAbility.unit_strength,
            ability.nullifies_unit is not CardAbility.nullifies_unit,
        )
    return found


def army_strength(state: State, combat: Combat, which: str, abilities: Abilities) -> int:
    """Strength of ``which``'s participating units (5.4.2)."""
    return units_value(state, combat, which, combat.side(which).units, False, abilities)


def order_bonus(state: State, combat: Combat, which: str, abilities: Abilities) -> int:
    """The attacker's March modifier, or the defender's Defense bonus in the area (5.4.2)."""
    tokens = state.rules.order_tokens
    if which == ATTACKER:
        bonus = tokens[combat.march_token].bonus
    else:
        order = state.orders.get(combat.area)
        defends = (
            order is not None
            and order.house == combat.defender.house
            and tokens[order.token].type == DEFENSE
        )
        bonus = tokens[order.token].bonus if defends and order is not None else 0
    for side, ability in abilities:
        bonus = ability.order_bonus(state, combat, side, which, bonus)
    return bonus


def support_strength(state: State, combat: Combat, which: str, abilities: Abilities) -> int:
    """Supporting units plus Support order bonuses counted for ``which`` (5.4.2)."""
    tokens = state.rules.order_tokens
    total = 0
    for area in counted_support(state, combat, which):
        total += tokens[state.orders[area].token].bonus
        total += units_value(state, combat, which, state.units[area], True, abilities)
    return total


def garrison(state: State, combat: Combat, which: str) -> int:
    """The defender's garrison in its home area (1.10.1); 0 for the attacker."""
    if which != DEFENDER or state.rules.areas[combat.area].home_of != combat.defender.house:
        return 0
    return state.garrisons.get(combat.area, 0)


def card_strength(state: State, combat: Combat, which: str) -> int:
    """The house card's strength: printed value (0 under Balon Greyjoy) plus its own ability's
    bonus, never below 0 (5.4.7); 0 without a card."""
    card = combat.side(which).card
    if card is None:
        return 0
    base = state.rules.house_cards[card].strength
    other = combat.other(which)
    opposing = combat.side(other).card
    if opposing is not None and ability_of(state, opposing).zeroes_opponent_card(
        state, combat, other
    ):
        base = 0
    return max(0, base + ability_of(state, card).strength_bonus(state, combat, which))


def initial_strength(state: State, combat: Combat, which: str) -> int:
    """Units, order bonus, support and garrison (5.4.2), with the cards in play if any."""
    abilities = played(state, combat)
    return (
        army_strength(state, combat, which, abilities)
        + order_bonus(state, combat, which, abilities)
        + support_strength(state, combat, which, abilities)
        + garrison(state, combat, which)
    )


def total(state: State, combat: Combat, which: str, blade: str | None) -> int:
    """Final combat strength (5.4.7): initial strength, house card, plugin modifiers
    (``strength_modifiers``) and +1 if ``blade`` (the side using the Valyrian Steel Blade) is
    this side. The attacker's total is never below 0."""
    value = initial_strength(state, combat, which) + card_strength(state, combat, which)
    for modifier in state.rules.hooks.strength_modifiers:
        value += modifier(state, combat, which)
    if blade == which:
        value += 1
    return max(0, value) if which == ATTACKER else value


def totals(state: State, combat: Combat, blade: str | None) -> tuple[int, int]:
    """(attacker total, defender total) with the Blade used by ``blade`` (or nobody)."""
    return total(state, combat, ATTACKER, blade), total(state, combat, DEFENDER, blade)


def icons(state: State, combat: Combat, which: str) -> tuple[int, int]:
    """(swords, fortifications) of ``which``: its card's icons, its own ability's bonus and the
    plugins' ``icon_modifiers`` (5.4.9)."""
    swords = forts = 0
    card = combat.side(which).card
    if card is not None:
        definition = state.rules.house_cards[card]
        extra = ability_of(state, card).icon_bonus(state, combat, which)
        swords = definition.swords + extra[0]
        forts = definition.fortifications + extra[1]
    for modifier in state.rules.hooks.icon_modifiers:
        s, f = modifier(state, combat, which)
        swords += s
        forts += f
    return swords, forts


def victor(state: State, combat: Combat, attacker: int, defender: int) -> str:
    """Higher total wins; a tie goes to the combatant higher on the Fiefdoms track (5.4.8)."""
    if attacker != defender:
        return ATTACKER if attacker > defender else DEFENDER
    fiefdoms = state.tracks[tracks.FIEFDOMS]
    if fiefdoms.index(combat.attacker.house) < fiefdoms.index(combat.defender.house):
        return ATTACKER
    return DEFENDER
