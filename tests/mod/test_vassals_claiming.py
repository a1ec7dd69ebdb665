"""Claiming vassals (RULES.md 11.10.3): at the start of every Planning phase the links are
cleared and the players, in turn order, claim vassals: floor(V/P) each, one more for the first
V mod P players, plus what earlier players left unclaimed; the last player takes the rest. The
claimer is the vassal's commander and answers for it (11.10.8)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import westeros
from westeros.ai import BaselineBot, legal
from westeros.ai.difficulty import LEVELS
from westeros.ai.strong import StrongBot
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import advance, answering_house, apply, pending
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset, load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator
from westeros_mother_of_dragons.vassals import ClaimVassalsAction, StartClaiming

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


def claim(state: State, house: str, *vassals: str) -> State:
    new, _ = apply(state, house, ClaimVassalsAction(vassals))
    return new


def claim_prompt(state: State) -> tuple[str, int, list[str]]:
    """(claiming house, most it may claim, vassals offered)."""
    [(house, p)] = pending(state).items()
    assert p.kind == "claim_vassals"
    return house, p.data["max"], p.data["vassals"]


def commanders(state: State) -> dict[str, str]:
    return dict(player_view(state, None)["ext"]["vassal_commanders"])


def test_11_10_3_three_players_four_vassals_pass_on_and_the_last_takes_the_rest(
    rules: Ruleset,
) -> None:
    s = new_game(rules, 3, 1, VASSALS)
    # Iron Throne: Baratheon, Lannister, Stark. V=4, P=3: allowances 2, 1, 1.
    assert claim_prompt(s) == ("baratheon", 2, ["greyjoy", "tyrell", "martell", "arryn"])
    s = claim(s, "baratheon", "tyrell")
    # Lannister's own 1 plus the 1 Baratheon left.
    assert claim_prompt(s) == ("lannister", 2, ["greyjoy", "martell", "arryn"])
    s = claim(s, "lannister")
    # Stark is last: it takes every remaining vassal without being asked.
    assert {p.kind for p in pending(s).values()} == {"place_orders"}
    assert set(pending(s)) == {"baratheon", "lannister", "stark"}  # vassals place after them
    assert commanders(s) == {
        "tyrell": "baratheon",
        "greyjoy": "stark",
        "martell": "stark",
        "arryn": "stark",
    }


def test_11_10_3_four_players_three_vassals_one_each_for_the_first_three(rules: Ruleset) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    assert claim_prompt(s)[:2] == ("baratheon", 1)
    s = claim(s, "baratheon", "arryn")
    assert claim_prompt(s)[:2] == ("lannister", 1)
    s = claim(s, "lannister", "martell")
    assert claim_prompt(s) == ("stark", 1, ["tyrell"])
    s = claim(s, "stark")
    # Greyjoy's own allowance is 0, but it is last: it takes Tyrell.
    assert commanders(s) == {"arryn": "baratheon", "martell": "lannister", "tyrell": "greyjoy"}


def test_11_10_3_six_players_one_vassal_passes_down_to_the_last_player(rules: Ruleset) -> None:
    s = new_game(rules, 6, 1, VASSALS)
    order = [h for h in s.tracks["iron_throne"] if h != "arryn"]
    for house in order[:-1]:
        assert claim_prompt(s) == (house, 1, ["arryn"])
        s = claim(s, house)
    assert commanders(s) == {"arryn": order[-1]}


def test_11_10_3_claiming_more_than_allowed_or_a_non_vassal_is_refused(rules: Ruleset) -> None:
    s = new_game(rules, 3, 1, VASSALS)
    with pytest.raises(IllegalChoice, match="at most 2"):
        claim(s, "baratheon", "greyjoy", "tyrell", "martell")
    with pytest.raises(IllegalChoice, match="only among"):
        claim(s, "baratheon", "stark")
    with pytest.raises(IllegalChoice):
        claim(s, "baratheon", "tyrell", "tyrell")


def test_11_10_3_links_are_cleared_at_the_start_of_every_planning_phase(rules: Ruleset) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    s = claim(s, "baratheon", "arryn")
    s = claim(s, "lannister", "martell")
    s = claim(s, "stark", "tyrell")
    assert commanders(s) == {"arryn": "baratheon", "martell": "lannister", "tyrell": "stark"}
    s = s.copy()
    s.stack = ()
    s.push(StartClaiming())
    advance(s)
    assert commanders(s) == {}
    assert claim_prompt(s) == ("baratheon", 1, ["tyrell", "martell", "arryn"])


def test_11_10_8_the_commander_answers_for_its_vassal(rules: Ruleset) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    s = claim(s, "baratheon", "arryn")
    s = claim(s, "lannister", "martell")
    s = claim(s, "stark")
    assert answering_house(s, "arryn") == "baratheon"
    assert answering_house(s, "martell") == "lannister"
    assert answering_house(s, "tyrell") == "greyjoy"
    assert answering_house(s, "stark") == "stark"


def test_11_10_3_the_claims_are_in_the_log(rules: Ruleset) -> None:
    s = new_game(rules, 4, 1, VASSALS)
    _, events = apply(s, "baratheon", ClaimVassalsAction(("arryn",)))
    claimed = [e.data for e in events if e.kind == "vassals_claimed"]
    assert claimed == [{"house": "baratheon", "vassals": ["arryn"]}]


@pytest.mark.parametrize("level", ["baseline", *LEVELS])
def test_11_10_3_every_ai_level_claims_legally(rules: Ruleset, level: str) -> None:
    s = new_game(rules, 3, 1, VASSALS)
    bot = BaselineBot() if level == "baseline" else StrongBot(1, LEVELS[level])
    action = bot.decide(player_view(s, "baratheon"), rules, 1.0)
    assert isinstance(action, ClaimVassalsAction)
    assert 1 <= len(action.vassals) <= 2  # a claim, within Baratheon's allowance of 2
    apply(s, "baratheon", action)
    blunder = legal.random_action(player_view(s, "baratheon"), rules, random.Random(level))
    apply(s, "baratheon", blunder)


@pytest.fixture(scope="module")
def narrators() -> dict[str, Narrator]:
    loaded = load(VASSALS)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    return {lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def test_11_10_3_claims_read_as_sentences_in_english_and_chinese(
    narrators: dict[str, Narrator],
) -> None:
    claimed = {"kind": "vassals_claimed", "house": "stark", "vassals": ["tyrell", "arryn"]}
    none = {"kind": "vassals_claimed", "house": "lannister", "vassals": []}
    assert narrators["en"](claimed) == "Stark commands Tyrell, Arryn this round."
    assert narrators["en"](none) == "Lannister claims no vassal this round."
    assert narrators["zh_CN"](claimed) == "史塔克本轮统领提利尔、艾林。"  # the Chinese list comma
    assert narrators["zh_CN"](none) == "兰尼斯特本轮未认领附庸。"


def test_11_10_7_the_commander_s_reward_reads_as_a_sentence(narrators: dict[str, Narrator]) -> None:
    won = {"kind": "vassal_won", "house": "baratheon", "vassal": "arryn"}
    assert (
        narrators["en"](won) == "Arryn won the combat: its commander Baratheon gains 1 power token."
    )
    assert narrators["zh_CN"](won) == "艾林赢得战斗：其宗主拜拉席恩获得1个权力标记。"


def test_11_10_7_the_free_power_token_reads_as_a_sentence(narrators: dict[str, Narrator]) -> None:
    token = {"kind": "vassal_power_token", "house": "arryn", "area": "the-vale-of-arryn"}
    assert narrators["en"](token) == "Arryn holds The Vale of Arryn with a free power token."
    assert "艾林" in narrators["zh_CN"](token) and "the-vale" not in narrators["zh_CN"](token)
