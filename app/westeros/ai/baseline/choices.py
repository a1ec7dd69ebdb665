"""The baseline AI's answers to card and rule choices: areas and named options of house,
Westeros and wildling cards (RULES.md 3.4, 7.3, 8.2), port take-overs (6.3.1)."""

from __future__ import annotations

from collections.abc import Callable

from ...engine import board
from ...engine.actions import Action, Choose, SelectArea, SelectUnits
from ...engine.combat.context import Combat
from ...engine.planning import NOTHING
from ...engine.state import TRACKS
from .. import legal
from ..analysis import DEFENSE, Situation
from .combat import CombatPolicy
from .policy import CALM_WILDLING_CARDS, CONSOLIDATE, HOLD_OPTIONS, TRACK_WEIGHT, Data


class ChoicePolicy(CombatPolicy):
    """Areas and options asked by cards and rules (the prompt's ``reason`` says which)."""

    def choose_area(self, sit: Situation, data: Data) -> Action:
        """Area choices of cards and retreats: see the per-reason helpers."""
        areas = list(data["areas"])
        reason = data.get("reason", "")
        if reason.startswith("retreat"):
            return SelectArea(self.retreat(sit, areas))
        if reason in ("cersei-lannister", "queen-of-thorns"):
            return SelectArea(max(areas, key=lambda a: self.order_harm(sit, a)))
        combat = sit.state.combat
        if combat is not None and combat.area in areas:
            return SelectArea(combat.area)
        return SelectArea(areas[0])

    def order_harm(self, sit: Situation, area: str) -> float:
        """How much removing the enemy order in ``area`` helps me (Cersei, Queen of Thorns)."""
        order = sit.state.orders[area]
        kind = sit.rules.order_tokens[order.token].type
        near = any(sit.occupant(n) == sit.me for n in board.neighbours(sit.state, area))
        score = {"march": 1.5, "support": 1.3, CONSOLIDATE: 1.2, DEFENSE: 0.9, "raid": 0.7}.get(
            kind, 0.5
        )
        if kind == "march":
            score += 0.3 * sit.area_strength(area)
        return score + (0.8 if near else 0.0)

    def choose_option(self, sit: Situation, data: Data) -> Action:
        """Named options of cards and rules (``reason`` says which); unknown ones: a passive
        option if offered."""
        options = list(data["options"])
        reason = data.get("reason", "")
        for prefix, choose in OPTION_CHOOSERS:
            if reason.startswith(prefix):
                pick = choose(self, sit, options)
                if pick in options:
                    return Choose(pick)
        passive = [o for o in legal.PASSIVE_OPTIONS if o in options]
        return Choose(passive[0] if passive else options[0])

    def support_neutral_attack(self, sit: Situation, data: Data) -> Action:
        """A neutral-force attack asks for my support (5.5.1): help only a house that is not
        leading and holds fewer castles than I do."""
        attacker = data["attacker"]
        weaker = sit.castles.get(attacker, 0) < sit.castles.get(sit.me, 0)
        return Choose("yes" if weaker and attacker != sit.leader else "no")

    def upgrade_units(self, sit: Situation, data: Data) -> Action:
        """Crow Killers (7.3.3): upgrade as many footmen as allowed, most endangered first."""
        units = sorted(data["units"], key=lambda p: -sit.danger(p[0]) - 0.1 * sit.value(p[0]))
        return SelectUnits(tuple((a, t) for a, t in units[: data["max"]]))

    def replace_units(self, sit: Situation, data: Data) -> Action:
        """Crow Killers (7.3.3): downgrade the knights in the safest areas."""
        units = sorted(data["units"], key=lambda p: sit.danger(p[0]) + 0.1 * sit.value(p[0]))
        return SelectUnits(tuple((a, t) for a, t in units[: data["count"]]))

    def muster_area(self, sit: Situation, data: Data) -> Action:
        """The Horde Descends (7.3.8): muster in the strongest, most endangered castle."""
        areas = data["areas"]
        return SelectArea(max(areas, key=lambda a: sit.rules.areas[a].castle * (1 + sit.danger(a))))

    def destroy_area(self, sit: Situation, data: Data) -> Action:
        """The Horde Descends (7.3.8): lose the two units where it hurts least."""
        return SelectArea(min(data["areas"], key=lambda a: sit.value(a) * (0.3 + sit.danger(a))))


# ---------------------------------------------------------------------------------- options


def _position_gain(sit: Situation, track: str) -> float:
    return sit.state.tracks[track].index(sit.me) * TRACK_WEIGHT.get(track, 1.0)


def _king_beyond_the_wall(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """7.3.6: to the top of the track where I climb most; to the bottom where I lose least."""
    if "iron_throne" in options:
        return max(options, key=lambda t: _position_gain(sit, t))
    last = len(sit.state.houses) - 1
    return min(
        options,
        key=lambda t: (last - sit.state.tracks[t].index(sit.me)) * TRACK_WEIGHT.get(t, 1.0),
    )


def _doran(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Doran Martell (8.2): drop the opponent on the track where he falls furthest."""
    combat = sit.state.combat
    enemy = combat.side(combat.other(combat.side_of(sit.me) or "attacker")).house
    last = len(sit.state.houses) - 1
    return max(
        options,
        key=lambda t: (last - sit.state.tracks[t].index(enemy)) * TRACK_WEIGHT.get(t, 1.0),
    )


def _preemptive_raid(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """7.3.2: lose two units when I have plenty and hold a dominance token, else drop on the
    track. As the Iron Throne holder picking the loser's track (the prompt does not name the
    loser): the track I value least if all options are my best positions, else the one that
    hurts most."""
    if "drop_track" in options:
        units = sum(len(u) for u in sit.state.units.values() if u[0].house == sit.me)
        best = min(sit.state.tracks[t].index(sit.me) for t in TRACKS)
        return "destroy_units" if best == 0 and units >= 5 else "drop_track"
    mine = {sit.state.tracks[t].index(sit.me) for t in options}
    best = min(sit.state.tracks[t].index(sit.me) for t in TRACKS)
    if mine == {best}:
        return min(options, key=lambda t: TRACK_WEIGHT.get(t, 1.0))
    return max(options, key=lambda t: TRACK_WEIGHT.get(t, 1.0))


def _wildling_tie(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """7.2.3: the reward to myself or the weakest house, the penalty to the leader."""
    if "lowest" in sit.view["prompt"]["data"]["reason"]:
        others = [h for h in options if h != sit.me]
        return max(others, key=lambda h: (sit.castles.get(h, 0), h))
    if sit.me in options:
        return sit.me
    return min(options, key=lambda h: (sit.castles.get(h, 0), h))


def _throne_of_blades(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """3.4.5: Supply or Mustering if it helps me more than the others, else nothing."""
    s = sit.state
    houses = s.houses
    points = {
        h: sum(sit.rules.areas[a].castle for a in sit.rules.castle_areas if sit.control[a] == h)
        for h in houses
    }
    rise = {h: board.barrels(s, h) - s.supply[h] for h in houses}
    gains = {
        "mustering": 0.5 * (points[sit.me] - sum(points.values()) / len(houses)),
        "supply": rise[sit.me] - sum(rise.values()) / len(houses),
    }
    best = max(gains, key=lambda o: gains[o])
    return best if gains[best] > 0 else NOTHING


def _dark_wings(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """3.4.8: Game of Thrones if my crowns beat the average, Clash of Kings if my power does."""
    s = sit.state
    houses = s.houses
    areas = sit.rules.areas
    crowns = {h: sum(areas[a].crowns for a in areas if sit.control[a] == h) for h in houses}
    gains = {
        "game_of_thrones": crowns[sit.me] - sum(crowns.values()) / len(houses),
        "clash_of_kings": (s.power[sit.me] - sum(s.power.values()) / len(houses)) / 3,
    }
    best = max(gains, key=lambda o: gains[o])
    return best if gains[best] > 0 else NOTHING


def _put_to_the_sword(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """3.4.14: forbid March +1 when my castles are threatened, else forbid Defense."""
    mine = [a for a in sit.rules.castle_areas if sit.control[a] == sit.me]
    return "no_march+1" if any(sit.danger(a) > 0.3 for a in mine) else "no_defense"


def _combat_cards(bot: CombatPolicy, sit: Situation) -> tuple[Combat, str, str]:
    combat = sit.state.combat
    which = combat.side_of(sit.me) or "attacker"
    return combat, which, combat.other(which)


def _aeron(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Aeron Damphair (8.2): pay 2 PT only if another card turns a loss into a win."""
    combat, which, other = _combat_cards(bot, sit)
    theirs = combat.side(other).card
    if bot.wins(sit, combat, which, combat.side(which).card, theirs):
        return "no"
    hand = sit.state.hands.get(sit.me, ())
    return "yes" if any(bot.wins(sit, combat, which, c, theirs) for c in hand) else "no"


def _tyrion(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Tyrion Lannister (8.2): cancel the opponent's card only while it beats mine and a
    replacement from his hand might not."""
    combat, which, other = _combat_cards(bot, sit)
    mine, theirs = combat.side(which).card, combat.side(other).card
    if bot.wins(sit, combat, which, mine, theirs):
        return "no"
    rest = sit.state.hands.get(combat.side(other).house, ())
    return "yes" if not rest or any(bot.wins(sit, combat, which, mine, c) for c in rest) else "no"


def _strongest(sit: Situation, cards: list[str]) -> str:
    defs = sit.rules.house_cards
    real = [c for c in cards if c in defs]
    return max(real, key=lambda c: (defs[c].strength, defs[c].swords, c))


def _patchface(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Patchface (8.2): discard the opponent's strongest card."""
    return _strongest(sit, options)


def _mammoth(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Mammoth Riders (7.3.7): take back my strongest discarded card."""
    return _strongest(sit, options)


def _milkwater(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """Massing on the Milkwater (7.3.5): discard my weakest card."""
    defs = sit.rules.house_cards
    return min(options, key=lambda c: (defs[c].strength, defs[c].swords, c))


def _raven_card(bot: CombatPolicy, sit: Situation, options: list[str]) -> str:
    """4.4: keep a harmless wildling card on top, bury any other."""
    keep, bottom = HOLD_OPTIONS
    return keep if sit.view.get("wildling_top") in CALM_WILDLING_CARDS else bottom


OPTION_CHOOSERS: tuple[tuple[str, Callable[[CombatPolicy, Situation, list[str]], str]], ...] = (
    ("valyrian-steel-blade", lambda bot, sit, options: "use"),
    ("tyrion-lannister", _tyrion),
    ("aeron-damphair", _aeron),
    ("doran-martell", _doran),
    ("patchface", _patchface),
    ("A Throne of Blades", _throne_of_blades),
    ("Dark Wings", _dark_wings),
    ("Put to the Sword", _put_to_the_sword),
    ("Preemptive Raid", _preemptive_raid),
    ("A King Beyond the Wall", _king_beyond_the_wall),
    ("Mammoth Riders", _mammoth),
    ("Massing on the Milkwater", _milkwater),
    ("7.2.3", _wildling_tie),
    ("4.4", _raven_card),
)
