"""One test per hook (``test_hook_<name>``, checked by test_meta.py): a small plugin implements
the hook, and the real engine shows what a player would notice. Plugins are loaded through the
``westeros_ruleset`` fixture of ``westeros.testing`` (strict: a plugin problem fails the test)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.builders import act, blank, prompt, put, run
from westeros import hookimpl
from westeros.ai import BaselineBot
from westeros.ai.personality import AIPersonality
from westeros.base.westeros_cards import game_of_thrones
from westeros.engine import board, power, tracks, victory
from westeros.engine.actions import Action, Choose
from westeros.engine.combat import start_combat
from westeros.engine.combat.context import Combat
from westeros.engine.content import (
    LAND,
    AiAnswer,
    AreaDef,
    AreaKind,
    AreaRules,
    EventText,
    GameOption,
    HouseCard,
    HouseDef,
    OrderToken,
    Ruleset,
    Setup,
    StartingUnit,
    UnitType,
    WesterosCard,
    WildlingCard,
    Words,
)
from westeros.engine.errors import MalformedAction
from westeros.engine.flow import Decision, Prompt, Step, advance, apply, pending, random_action
from westeros.engine.mustering import MusterIn
from westeros.engine.raid import targets as raid_targets
from westeros.engine.round import CleanUp
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State, Unit
from westeros.engine.view import event_view, player_view
from westeros.engine.westeros_phase import ResolveWesterosCard
from westeros.engine.wildlings import RevealWildlingCard
from westeros.plugins import load
from westeros.server.narrate import Narrator

Factory = Callable[..., Ruleset]
Rule = Callable[..., Any] | None
STARTING_POWER = 5  # RULES.md 1.5.4


def twins_battle(rules: Ruleset) -> State:
    """Three Lannister footmen (Ser Jaime: 2, 1 sword) attack three Stark footmen (Greatjon
    Umber: 2, 1 sword) in The Twins from The Fingers with March +0: 5 against 5, a tie that
    Stark wins on the Fiefdoms track (5.4.8). Returns the state after both cards are chosen."""
    s = blank(rules)
    put(s, "the-twins", "stark", "footman", "footman", "footman")
    army = (Unit("lannister", "footman"),) * 3
    start_combat(s, "lannister", "the-fingers", "the-twins", army, "march+0")
    advance(s)
    s = act(s, "lannister", Choose("ser-jaime-lannister"))
    return act(s, "stark", Choose("greatjon-umber"))


def finish(state: State) -> State:
    """Answer what is left of the combat with legal choices."""
    rnd = random.Random(0)
    while state.combat is not None and pending(state):
        house = sorted(pending(state))[0]
        state, _ = apply(state, house, random_action(state, house, rnd))
    return state


def footmen(state: State, house: str) -> int:
    return board.units_of(state, house)["footman"]


# ---------------------------------------------------------------------------------- content


class Swamp(AreaRules):
    """Nobody may enter the swamp."""

    __slots__ = ()

    def may_enter(self, state: State, house: str, area: str) -> bool:
        return False


class SwampPlugin:
    NAME = "swamps"

    @hookimpl
    def register_area_kinds(self) -> list[AreaKind]:
        swamp = Swamp()
        return [AreaKind("swamp", LAND, frozenset({LAND}), frozenset({LAND}), rules=swamp)]

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [AreaDef("the-neck", "The Neck", "swamp")]

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return [("moat-cailin", "the-neck")]


def test_hook_register_area_kinds(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(SwampPlugin()))
    put(s, "moat-cailin", "stark", "footman")
    reach = board.reachable(s, "stark", "moat-cailin", LAND)
    assert "the-twins" in reach
    assert "the-neck" not in reach


class IslePlugin:
    NAME = "isle-of-faces"

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [AreaDef("the-isle-of-faces", "The Isle of Faces", LAND, castle=1, barrels=1)]


def test_hook_register_areas(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(IslePlugin()))
    before = (board.castle_count(s, "tyrell"), board.barrels(s, "tyrell"))
    put(s, "the-isle-of-faces", "tyrell", "footman")
    assert (board.castle_count(s, "tyrell"), board.barrels(s, "tyrell")) == (
        before[0] + 1,
        before[1] + 1,
    )


class KingsRoad:
    NAME = "kings-road"

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return [("winterfell", "kings-landing")]


def test_hook_register_adjacency(westeros_ruleset: Factory, rules: Ruleset) -> None:
    for ruleset, reached in ((westeros_ruleset(KingsRoad()), True), (rules, False)):
        s = blank(ruleset)
        put(s, "winterfell", "stark", "footman")
        assert ("kings-landing" in board.reachable(s, "stark", "winterfell", LAND)) is reached


class Elephants:
    NAME = "war-elephants"

    @hookimpl
    def register_unit_types(self) -> list[UnitType]:
        return [UnitType("war_elephant", "War elephant", LAND, strength=3, muster_cost=3)]


def test_hook_register_unit_types(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Elephants()))
    assert board.unit_strength(s, Unit("martell", "war_elephant"), False) == 3
    assert board.unit_strength(s, Unit("martell", "war_elephant", routed=True), False) == 0


class ForcedMarch:
    NAME = "forced-march"

    @hookimpl
    def register_order_tokens(self) -> list[OrderToken]:
        return [OrderToken("march+2*", "march", 2, True)]


def test_hook_register_order_tokens(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(ForcedMarch()), 3, 1)
    house = tracks.turn_order(s)[0]
    tokens = {t["id"]: t for t in prompt(s, house).data["tokens"]}
    assert tokens["march+2*"]["bonus"] == 2


NORTH = ("stark", "bolton")


class TheNorth:
    NAME = "the-north"

    @hookimpl
    def register_houses(self) -> list[HouseDef]:
        return [HouseDef("bolton", "Bolton", "karhold", {"footman": 8, "knight": 4})]

    @hookimpl
    def register_setups(self) -> list[Setup]:
        row = tuple(tuple(r) for r in ((2, 2), (3, 2), (3, 2, 2), (3, 2, 2, 2)))
        return [
            Setup(
                player_count=2,
                houses=NORTH,
                tracks={t: NORTH for t in ("iron_throne", "fiefdoms", "kings_court")},
                neutral_forces={},
                blocked_areas=frozenset(),
                units_not_placed_in=frozenset(),
                supply_table=row,
                star_limits=(3, 2),
            )
        ]

    @hookimpl
    def register_starting_units(self) -> list[StartingUnit]:
        return [StartingUnit("bolton", "karhold", "knight", 2)]


def test_hook_register_houses(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(TheNorth()), 2, 1)
    assert "bolton" in s.houses
    assert s.power["bolton"] == STARTING_POWER
    assert board.available(s, "bolton", "footman") == 8


def test_hook_register_setups(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(TheNorth()), 2, 1)
    assert s.houses == NORTH
    assert tracks.turn_order(s) == NORTH
    assert tracks.star_limit(s, "bolton") == 2


class OldNan:
    NAME = "old-nan"

    @hookimpl
    def register_house_cards(self) -> list[HouseCard]:
        return [HouseCard("old-nan", "stark", "Old Nan", 0, fortifications=2)]


def test_hook_register_house_cards(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(OldNan()), 6, 1)
    assert "old-nan" in s.hands["stark"]
    assert "old-nan" in player_view(s, "greyjoy")["hands"]["stark"]


class Bannermen:
    NAME = "bannermen"

    @hookimpl
    def register_starting_units(self) -> list[StartingUnit]:
        return [StartingUnit("stark", "white-harbor", "knight")]


def test_hook_register_starting_units(westeros_ruleset: Factory, rules: Ruleset) -> None:
    with_plugin = new_game(westeros_ruleset(Bannermen()), 6, 1).units.get("white-harbor", ())
    without = new_game(rules, 6, 1).units.get("white-harbor", ())
    assert Counter(with_plugin) - Counter(without) == Counter([Unit("stark", "knight")])


def feast(state: State) -> None:
    for house in tracks.turn_order(state):
        power.gain(state, house, 2)


class Feast:
    NAME = "feast"

    @hookimpl
    def register_westeros_cards(self) -> list[WesterosCard]:
        return [WesterosCard("feast-of-the-realm", "Feast of the Realm", 1, 1, False, feast)]


def test_hook_register_westeros_cards(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Feast()))
    assert "feast-of-the-realm" in s.westeros_decks[0]
    s.revealed = ("feast-of-the-realm",)
    run(s, ResolveWesterosCard(0))
    assert s.power == {h: STARTING_POWER + 2 for h in s.houses}


def reward(state: State, house: str) -> None:
    power.gain(state, house, 3)


def nothing(state: State, house: str) -> None:
    """No effect."""


class Giants:
    NAME = "giants"

    @hookimpl
    def register_wildling_cards(self) -> list[WildlingCard]:
        return [WildlingCard("giants-gold", "Giants' Gold", reward, nothing, nothing)]


def test_hook_register_wildling_cards(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Giants()))
    assert "giants-gold" in s.wildling_deck
    s.wildling_deck = ("giants-gold", *(c for c in s.wildling_deck if c != "giants-gold"))
    run(s, RevealWildlingCard(True, "stark", (("stark", 2),)))
    assert s.power["stark"] == STARTING_POWER + 3
    assert s.threat == 0


class FogOfWar:
    NAME = "fog-of-war"

    @hookimpl
    def register_game_options(self) -> list[GameOption]:
        return [GameOption("fog_of_war", "Fog of war", False, "Hide the other houses' units.")]


def test_hook_register_game_options(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(FogOfWar())
    assert rules.options["fog_of_war"].name == "Fog of war"
    assert new_game(rules, 3, 1).options["fog_of_war"] is False
    assert new_game(rules, 3, 1, {"fog_of_war": True}).options["fog_of_war"] is True


# ---------------------------------------------------------------------------------- rules


def lannister_reserves(state: State, combat: Combat, side: str) -> int:
    return 2 if combat.side(side).house == "lannister" else 0


class LannisterReserves:
    NAME = "lannister-reserves"

    @hookimpl
    def rule_strength_modifier(self, options: Mapping[str, Any]) -> Rule:
        return lannister_reserves


def test_hook_rule_strength_modifier(westeros_ruleset: Factory, rules: Ruleset) -> None:
    # 5 + 2 = 7 beats Stark's 5: Lannister takes The Twins, which it loses on a tie without.
    assert finish(twins_battle(rules)).units["the-twins"][0].house == "stark"
    s = finish(twins_battle(westeros_ruleset(LannisterReserves())))
    assert s.units["the-twins"][0].house == "lannister"


def lannister_steel(state: State, combat: Combat, side: str) -> tuple[int, int]:
    return (2, 0) if combat.side(side).house == "lannister" else (0, 0)


class LannisterSteel:
    NAME = "lannister-steel"

    @hookimpl
    def rule_icon_modifier(self, options: Mapping[str, Any]) -> Rule:
        return lannister_steel


def test_hook_rule_icon_modifier(westeros_ruleset: Factory) -> None:
    # Lannister 7 beats Stark 5; casualties = swords - fortifications (5.4.9): Jaime's 1 sword
    # costs Stark 1 footman, with 2 more swords all 3.
    s = finish(twins_battle(westeros_ruleset(LannisterReserves())))
    assert footmen(s, "stark") == 2
    s = finish(twins_battle(westeros_ruleset(LannisterReserves(), LannisterSteel())))
    assert footmen(s, "stark") == 0


@dataclasses.dataclass(frozen=True, slots=True)
class WarChest(Step):
    """Both combatants gain 1 power before the Blade step."""

    def run(self, state: State) -> None:
        for which in ("attacker", "defender"):
            power.gain(state, state.combat.side(which).house, 1)


def war_chest(state: State, combat: Combat) -> list[Step]:
    return [WarChest()]


class WarChestPlugin:
    NAME = "war-chest"

    @hookimpl
    def rule_combat_step(self, options: Mapping[str, Any]) -> Rule:
        return war_chest


def test_hook_rule_combat_step(westeros_ruleset: Factory) -> None:
    s = finish(twins_battle(westeros_ruleset(WarChestPlugin())))
    assert (s.power["lannister"], s.power["stark"]) == (STARTING_POWER + 1, STARTING_POWER + 1)
    assert s.power["greyjoy"] == STARTING_POWER


def ransom(state: State, combat: Combat) -> None:
    power.lose(state, combat.side(combat.other(combat.winner)).house, 2)


class Ransom:
    NAME = "ransom"

    @hookimpl
    def rule_after_casualties(self, options: Mapping[str, Any]) -> Rule:
        return ransom


def test_hook_rule_after_casualties(westeros_ruleset: Factory) -> None:
    s = finish(twins_battle(westeros_ruleset(Ransom())))
    assert (s.power["lannister"], s.power["stark"]) == (STARTING_POWER - 2, STARTING_POWER)


def toll(state: State) -> None:
    state.ext["toll"] = board.controller(state, "the-twins")


class Toll:
    NAME = "toll"

    @hookimpl
    def rule_after_resolution(self, options: Mapping[str, Any]) -> Rule:
        return toll


def test_hook_rule_after_resolution(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Toll()))
    put(s, "the-twins", "stark", "footman")
    victory.consequences(s)
    assert player_view(s, "lannister")["ext"]["toll"] == "stark"


def tithe(state: State) -> None:
    for house in tracks.turn_order(state):
        power.gain(state, house, 1)


class Tithe:
    NAME = "tithe"

    @hookimpl
    def rule_round_start(self, options: Mapping[str, Any]) -> Rule:
        return tithe


def test_hook_rule_round_start(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(Tithe()), 4, 1)
    assert s.round == 1
    assert s.power == {h: STARTING_POWER + 1 for h in s.houses}


def count_seasons(state: State) -> None:
    state.ext["seasons"] = state.ext.get("seasons", 0) + 1


class Seasons:
    NAME = "seasons"

    @hookimpl
    def rule_round_end(self, options: Mapping[str, Any]) -> Rule:
        return count_seasons


def test_hook_rule_round_end(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Seasons()))
    run(s, CleanUp())
    assert s.round == 2
    assert player_view(s, None)["ext"]["seasons"] == 1


def eyrie_wins(state: State) -> str | None:
    return board.controller(state, "the-eyrie")


class EyrieVictory:
    NAME = "eyrie-victory"

    @hookimpl
    def rule_victory_check(self, options: Mapping[str, Any]) -> Rule:
        return eyrie_wins


def test_hook_rule_victory_check(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(EyrieVictory()))
    assert not victory.consequences(s)
    put(s, "the-eyrie", "baratheon", "footman")
    assert victory.consequences(s)
    assert s.winner == "baratheon"


def throne_income(state: State, house: str) -> int:
    return 2 if house == tracks.holder(state, tracks.IRON_THRONE) else 0


class ThroneIncome:
    NAME = "throne-income"

    @hookimpl
    def rule_power_income(self, options: Mapping[str, Any]) -> Rule:
        return throne_income


def test_hook_rule_power_income(westeros_ruleset: Factory, rules: Ruleset) -> None:
    gains = []
    for ruleset in (rules, westeros_ruleset(ThroneIncome())):
        s = blank(ruleset)
        s.power = dict.fromkeys(s.houses, 0)
        game_of_thrones(s)
        gains.append(s.power)
    holder = tracks.holder(blank(rules), tracks.IRON_THRONE)
    assert {h: gains[1][h] - gains[0][h] for h in gains[0]} == {
        h: 2 if h == holder else 0 for h in gains[0]
    }


def levy(state: State, area: str, house: str, unit_type: str) -> list[str]:
    if state.rules.unit_types[unit_type].domain != LAND:
        return []
    return [a for a in board.neighbours(state, area) if board.occupant(state, a) == house]


class Levy:
    NAME = "levy"

    @hookimpl
    def rule_muster_targets(self, options: Mapping[str, Any]) -> Rule:
        return levy


def test_hook_rule_muster_targets(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Levy()))
    put(s, "winterfell", "stark", "footman")
    put(s, "castle-black", "stark", "footman")
    run(s, MusterIn("stark", "winterfell"))
    recruits = {r["unit"]: r["areas"] for r in prompt(s, "stark").data["recruits"]}
    assert recruits["footman"] == ["castle-black", "winterfell"]


def nights_watch_token(state: State) -> None:
    state.power_tokens["castle-black"] = "stark"


class NightsWatch:
    NAME = "nights-watch"

    @hookimpl
    def rule_setup(self, options: Mapping[str, Any]) -> Rule:
        return nights_watch_token if options.get("nights_watch", True) else None


def test_hook_rule_setup(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(NightsWatch()), 3, 1)
    assert board.controller(s, "castle-black") == "stark"
    off = new_game(westeros_ruleset(NightsWatch(), options={"nights_watch": False}), 3, 1)
    assert board.controller(off, "castle-black") is None


# ---------------------------------------------------------------------------------- AI and UI


class Bots:
    NAME = "bots"

    @hookimpl
    def register_ai_personalities(self) -> list[Any]:
        return [AIPersonality("cautious-maester", "The Cautious Maester")]


def test_hook_register_ai_personalities() -> None:
    loaded = load(extra=[Bots()])
    assert [p.id for p in loaded.ai_personalities][-1] == "cautious-maester"
    bundled = load()
    assert "cautious-maester" not in [p.id for p in bundled.ai_personalities]

    class Copycat(Bots):
        NAME = "copycat"

    loaded = load(extra=[Bots(), Copycat()])
    assert [e.plugin for e in loaded.errors] == ["copycat"]
    assert "'bots'" in loaded.errors[0].message


def ui_plugin(name: str, folder: Path) -> Any:
    class UI:
        NAME = name

        @hookimpl
        def register_templates(self) -> list[str]:
            return [str(folder / "templates")]

        @hookimpl
        def register_static(self) -> list[tuple[str, str]]:
            return [(name, str(folder / "static"))]

        @hookimpl
        def register_translations(self) -> list[str]:
            return [str(folder / "locale")]

    return UI()


@pytest.fixture
def two_skins(tmp_path: Path) -> tuple[Any, Any]:
    return ui_plugin("dark-skin", tmp_path / "dark"), ui_plugin("light-skin", tmp_path / "light")


def test_hook_register_templates(two_skins: tuple[Any, Any], tmp_path: Path) -> None:
    loaded = load(extra=two_skins)
    # earlier plugins first: their templates win on equal names
    assert loaded.templates == (str(tmp_path / "dark/templates"), str(tmp_path / "light/templates"))


def test_hook_register_static(two_skins: tuple[Any, Any], tmp_path: Path) -> None:
    # after the bundled plugins' folders (ports and Tides bring their client scripts)
    assert load(extra=two_skins).static[-2:] == (
        ("dark-skin", str(tmp_path / "dark/static")),
        ("light-skin", str(tmp_path / "light/static")),
    )


def test_hook_register_translations(two_skins: tuple[Any, Any], tmp_path: Path) -> None:
    found = load(extra=two_skins).translations
    mine = [folder for folder in found if folder.startswith(str(tmp_path))]
    assert mine == [str(tmp_path / "dark/locale"), str(tmp_path / "light/locale")]


# ---------------------------------------------------------------------------------- log, actions


@dataclasses.dataclass(frozen=True, slots=True)
class Pray(Action):
    """A plugin's own decision: how many septons pray (``count``, so that an AI without the
    plugin's answer can still build one from a min/max prompt)."""

    kind: ClassVar[str] = "pray"
    count: int


class Septons:
    NAME = "septons"

    @hookimpl
    def register_action_kinds(self) -> list[type[Action]]:
        return [Pray]


class OtherSeptons:
    NAME = "other-septons"

    @hookimpl
    def register_action_kinds(self) -> list[type[Action]]:
        return [Pray]


def test_hook_register_action_kinds(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Septons())
    assert Action.from_json({"kind": "pray", "count": 2}, rules.action_kinds) == Pray(2)
    # a game without the plugin does not know the kind
    with pytest.raises(MalformedAction, match="unknown action kind 'pray'"):
        Action.from_json({"kind": "pray", "count": 2}, load().ruleset.action_kinds)
    # a second plugin registering the same kind is refused, naming both
    loaded = load(extra=[Septons(), OtherSeptons()])
    assert [e.plugin for e in loaded.errors] == ["other-septons"]
    assert "'septons'" in loaded.errors[0].message and "'pray'" in loaded.errors[0].message
    assert "pray" in loaded.ruleset.action_kinds


class Omens:
    NAME = "omens"

    @hookimpl
    def rule_round_start(self, options: Mapping[str, Any]) -> Rule:
        def omen(state: State) -> None:
            state.emit("omen", house="stark", area=state.rules.home_of["stark"])

        return omen

    @hookimpl
    def register_event_texts(self) -> list[EventText]:
        def describe(w: Words, e: Mapping[str, Any]) -> str:
            return w._("A red comet is seen over {area}; {house} takes heart.").format(
                area=w.area(e["area"]), house=w.house(e["house"])
            )

        return [EventText("omen", describe)]


def test_hook_register_event_texts(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Omens())
    state = new_game(rules, 3, 1)
    omens = [event_view(e) for e in state.events if e.kind == "omen"]
    assert len(omens) == 1
    assert Narrator(rules)(omens[0]) == "A red comet is seen over Winterfell; Stark takes heart."
    # without the plugin the same event still reads, plainly
    assert Narrator(load().ruleset)(omens[0]) == "Stark: omen"


@dataclasses.dataclass(frozen=True, slots=True)
class Vigil(Decision):
    """A house decides how many septons pray (a plugin's own prompt)."""

    house: str

    def prompts(self, state: State) -> dict[str, Prompt]:
        data = {"min": 0, "max": 3}
        return {self.house: Prompt(self.house, "vigil", (Pray.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Pray)
        state.pop()
        state.emit("prayed", house=house, septons=action.count)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Pray(rnd.randint(0, 3))


class Devout:
    NAME = "devout"

    @hookimpl
    def register_action_kinds(self) -> list[type[Action]]:
        return [Pray]

    @hookimpl
    def register_ai_answers(self) -> list[AiAnswer]:
        def all_pray(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
            return Pray(view["prompt"]["data"]["max"])

        return [AiAnswer("vigil", all_pray)]


def test_hook_register_ai_answers(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Devout())
    state = new_game(rules, 3, 2)
    house = state.houses[0]
    state.push(Vigil(house))
    assert prompt(state, house).kind == "vigil"
    view = player_view(state, house)
    # the game's AI answers the plugin's prompt the plugin's way, from the view alone
    assert BaselineBot(seed=1).decide(view, rules, 1.0) == Pray(3)
    # without an answer it still answers legally, from the prompt's data
    plain = westeros_ruleset(Septons())
    state = new_game(plain, 3, 2)
    state.push(Vigil(house))
    answer = BaselineBot(seed=1).decide(player_view(state, house), plain, 1.0)
    assert isinstance(answer, Pray) and 0 <= answer.count <= 3


class Banners:
    NAME = "banners"

    @hookimpl
    def register_static(self) -> list[tuple[str, str]]:
        return [("banners", "/nowhere")]

    @hookimpl
    def register_client_scripts(self) -> list[str | tuple[str, str]]:
        return ["/static/banners/banners.js", ("/static/banners/tides.js", "tides_of_battle")]


class BadScript:
    NAME = "bad-script"

    @hookimpl
    def register_client_scripts(self) -> list[str | tuple[str, str]]:
        return ["https://example.com/steal.js"]


def test_hook_register_client_scripts() -> None:
    loaded = load(extra=[Banners(), BadScript()])
    rules = loaded.ruleset
    assert [e.plugin for e in loaded.errors] == ["bad-script"]
    assert "not a URL under /static/" in loaded.errors[0].message
    mine = [url for url in loaded.scripts_for(rules, {}) if "banners" in url]
    assert mine == ["/static/banners/banners.js"]
    on = [url for url in loaded.scripts_for(rules, {"tides_of_battle": True}) if "banners" in url]
    assert on == ["/static/banners/banners.js", "/static/banners/tides.js"]
    # a game made without the plugin gets none of its scripts
    without = load(disable=["banners"]).ruleset
    assert not [url for url in loaded.scripts_for(without, {}) if "banners" in url]


class Marsh:
    """A newer area kind that declares who may raid it; the older kinds name nothing new."""

    NAME = "marsh"

    @hookimpl
    def register_area_kinds(self) -> list[AreaKind]:
        return [
            AreaKind(
                "marsh",
                LAND,
                supports=frozenset(),
                raids=frozenset(),
                raided_by=frozenset({LAND}),
                supported_from=frozenset({LAND}),
            )
        ]

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [AreaDef("the-neck", "The Neck", "marsh")]

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return [("moat-cailin", "the-neck")]


def test_a_new_area_kind_declares_who_may_raid_and_support_it(westeros_ruleset: Factory) -> None:
    """RULES.md 5.2.1, 5.4.1: a land Raid or Support next to the marsh may target it, though
    the base game's land kind (registered first) never names the marsh; the sea still may not."""
    rules = westeros_ruleset(Marsh())
    assert "marsh" in rules.area_kinds[LAND].raids
    assert "marsh" in rules.area_kinds[LAND].supports
    assert "marsh" not in rules.area_kinds["sea"].raids
    s = blank(rules)
    put(s, "moat-cailin", "stark", "footman")
    put(s, "the-neck", "greyjoy", "footman")
    s.orders["moat-cailin"] = Order("stark", "raid+0")
    s.orders["the-neck"] = Order("greyjoy", "support+0")
    assert raid_targets(s, "moat-cailin") == ["the-neck"]
