"""Issue 37 point 3, RULES.md 11.2.5: in a vassal game the players choose their houses among
every house of the board (today they were fixed per count); with Targaryen among them the game
is played on the 8-house board with Essos; a player left with no vassal to claim is told so;
the start screen offers only the counts vassals allow; a resumed game keeps the choice."""

from __future__ import annotations

from pathlib import Path

import pytest

import westeros
from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.engine.encoding import decode_state, encode_state, state_hash
from westeros.engine.errors import ContentError
from westeros.engine.flow import apply, pending
from westeros.engine.setup import PLAYER_HOUSES, new_game, players_with
from westeros.engine.state import State
from westeros.plugins import build_ruleset, load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator
from westeros.server.pages import playable_setups
from westeros_mother_of_dragons.vassals import VASSAL_SETUPS, ClaimVassalsAction, vassals

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"
SEVEN = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn")


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


def chosen(*houses: str) -> dict[str, object]:
    return {**VASSALS, PLAYER_HOUSES: ",".join(houses)}


def units_of(state: State, house: str) -> list[tuple[str, str]]:
    return sorted(
        (a, u.type) for a, units in state.units.items() for u in units if u.house == house
    )


def test_11_2_5_players_choose_their_houses_in_a_vassal_game(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): three players take Arryn, Martell and Greyjoy (not
    the usual Baratheon, Lannister and Stark): those three keep their own units (Arryn's as in
    a 7-player game) and power; the four others are vassals with their vassal setups, on the
    7-house board without Essos."""
    s = new_game(rules, 3, 5, chosen("arryn", "martell", "greyjoy"))
    assert s.setup.seated_houses() == ("greyjoy", "martell", "arryn")
    assert s.houses == SEVEN
    assert vassals(s) == ("stark", "lannister", "baratheon", "tyrell")
    assert "pentos" in s.blocked
    for vassal in vassals(s):
        expected = sorted((a, t) for a, t, n in VASSAL_SETUPS[vassal] for _ in range(n))
        assert units_of(s, vassal) == expected
        assert s.power[vassal] == 0
    seven = {"mother_of_dragons": True}
    as_in_seven = new_game(build_ruleset(seven), 7, 5, seven, start=False)
    assert units_of(s, "arryn") == units_of(as_in_seven, "arryn")
    assert s.power["arryn"] == 5
    [(house, prompt)] = pending(s).items()
    assert prompt.kind == "claim_vassals"
    assert house in {"arryn", "martell", "greyjoy"}
    assert sorted(prompt.data["vassals"]) == ["baratheon", "lannister", "stark", "tyrell"]


def test_11_2_5_targaryen_may_be_chosen_on_the_8_house_board(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5, 11.2.2, 11.2.3): four players with Targaryen play on
    the 8-house board: Essos open, Braavos neutral, Targaryen's dragons on the board, the
    loyalty token on King's Landing, deck IV in play, and Targaryen last on every track though
    the vassals go to the bottom; the other four houses are vassals."""
    s = new_game(rules, 4, 5, chosen("targaryen", "stark", "lannister", "tyrell"))
    assert s.setup.seated_houses() == ("stark", "lannister", "tyrell", "targaryen")
    assert vassals(s) == ("greyjoy", "baratheon", "martell", "arryn")
    assert not s.blocked & {"pentos", "braavos", "norvos"}
    assert s.neutral == {"kings-landing": 5, "braavos": 5}
    assert sorted(a for a, t in units_of(s, "targaryen") if t == "dragon") == [
        "norvos",
        "the-rhoyne",
        "the-rhoyne",
    ]
    assert dict(s.ext["loyalty_tokens"]) == {"kings-landing": 1}
    assert len(s.westeros_decks) == 4
    for order in s.tracks.values():
        assert order[-1] == "targaryen"
        players = [h for h in order if h not in vassals(s)]
        assert order[: len(players) - 1] == tuple(players[:-1])  # vassals below the players


def test_11_2_5_the_person_s_house_takes_the_last_usual_seat(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): on the start screen a person picks a house and the
    AIs keep the count's usual houses: Arryn in a 3-player game replaces Stark, the last of
    Baratheon, Lannister, Stark; a usual house changes nothing."""
    assert players_with(rules, 3, "arryn") == ("arryn", "baratheon", "lannister")
    assert players_with(rules, 3, "stark") == ("baratheon", "lannister", "stark")
    assert players_with(rules, 6, "targaryen") == (
        "targaryen", "stark", "greyjoy", "lannister", "baratheon", "tyrell",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("players", "houses", "message"),
    [
        (3, ("arryn", "martell"), "choose 3 different houses"),
        (3, ("arryn", "arryn", "stark"), "choose 3 different houses"),
        (3, ("arryn", "stark", "dorne"), "choose among"),
    ],
)
def test_11_2_5_a_choice_the_count_does_not_allow_is_refused(
    rules: Ruleset, players: int, houses: tuple[str, ...], message: str
) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): a wrong number of houses, a house twice or a house
    not on the board is refused with the reason."""
    with pytest.raises(ContentError, match=message):
        new_game(rules, players, 1, chosen(*houses))


def test_11_2_5_seven_players_seat_every_house_and_choose_nothing() -> None:
    """Issue 37 point 3 (RULES.md 11.2.1): a 7-player game has no vassal: its houses are not
    chosen."""
    seven = {"mother_of_dragons": True}
    with pytest.raises(ContentError, match="every house"):
        new_game(build_ruleset(seven), 7, 1, {**seven, PLAYER_HOUSES: ",".join(SEVEN)})


def test_11_2_5_a_resumed_game_keeps_the_chosen_houses(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): the encoded state of a game with Targaryen chosen
    decodes to the same 8-house vassal setup and the same state hash."""
    s = new_game(rules, 3, 9, chosen("targaryen", "arryn", "stark"))
    back = decode_state(encode_state(s), rules, 3)
    assert back.setup == s.setup
    assert back.setup.seated_houses() == ("stark", "arryn", "targaryen")
    assert state_hash(back) == state_hash(s)


def test_11_10_3_a_player_left_with_no_vassal_to_claim_is_told_so(rules: Ruleset) -> None:
    """Issue 37 point 3 (RULES.md 11.10.3): six players, one vassal (Tyrell, as the players
    took Arryn): the first player in turn order claims it, and every other player is told in
    the log, in English and Chinese, that no vassal is left for it this round."""
    s = new_game(
        rules, 6, 3, chosen("stark", "greyjoy", "lannister", "baratheon", "martell", "arryn")
    )
    assert vassals(s) == ("tyrell",)
    [first] = pending(s)
    order = [h for h in s.tracks["iron_throne"] if h != "tyrell"]
    assert first == order[0]
    new, events = apply(s, first, ClaimVassalsAction(("tyrell",)))
    told = [e.data["house"] for e in events if e.data.get("none_left")]
    assert told == order[1:]
    assert pending(new) and all(p.kind == "place_orders" for p in pending(new).values())
    loaded = load(VASSALS)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    words = {
        lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")
    }
    event = {"kind": "vassals_claimed", "house": "arryn", "vassals": [], "none_left": True}
    assert words["en"](event) == "No vassal is left for Arryn to claim this round."
    assert words["zh_CN"](event) == "本轮已没有可供艾林认领的附庸。"


def test_11_2_5_the_start_screen_offers_only_the_counts_vassals_allow() -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): with Vassals ticked the start screen offers 3 to 6
    players (7 and 8 have no vassal), each with every house of the board, Targaryen included;
    without it, Mother of Dragons offers 7 and 8 and the base game its own houses per count."""
    every = {*SEVEN, "targaryen"}
    offered = playable_setups(VASSALS)
    assert sorted(offered) == [3, 4, 5, 6]
    assert all(set(houses) == every for houses in offered.values())
    assert sorted(playable_setups({"mother_of_dragons": True})) == [7, 8]
    assert playable_setups({})[3] == ["baratheon", "lannister", "stark"]


@pytest.mark.parametrize(
    ("players", "houses", "seed"),
    [(3, "targaryen,arryn,greyjoy", 1), (4, "arryn,martell,tyrell,greyjoy", 3)],
)
def test_11_2_5_random_games_with_chosen_houses_keep_every_invariant(
    rules: Ruleset, players: int, houses: str, seed: int
) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5, 11.10): whole games with random legal decisions, the
    players' houses chosen (Targaryen on the 8-house board, or none of the usual houses), end
    with a winner and break no invariant; the end state survives encoding."""
    playout = random_game(rules, players, seed, {**VASSALS, PLAYER_HOUSES: houses})
    print(f"injected: {players} players {houses} seed {seed}: {playout.decisions} decisions")
    assert playout.problems == []
    assert playout.state.winner in houses.split(",")
    back = decode_state(encode_state(playout.state), rules, players)
    assert state_hash(back) == state_hash(playout.state)
