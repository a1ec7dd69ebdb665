"""The AI's board in a vassal game (issue 35 finding 1, found while fixing it): a Mother of
Dragons game of 3-6 players is played on the 7-player board (RULES.md 11.2.5), so every AI,
which decides from the public state of its seat's view only (DESIGN §2), must rebuild the
game's own setup from the view: the same vassals (11.10.1), the same commanders (11.10.3) and
the same order tokens for each house (11.10.4) as the true game. Its decisions then stand when
they are applied to the true game."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from westeros.ai import BALANCED, EASY, BaselineBot, Player, RandomBot, StrongBot, play_game
from westeros.ai.seats import seat_ai
from westeros.ai.standard import StandardBot
from westeros.engine import planning
from westeros.engine.content import Ruleset
from westeros.engine.flow import answering_house, apply, pending, random_action
from westeros.engine.public import UnreadableView, public_state
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_views
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import GameSession
from westeros.store import GameStore
from westeros_mother_of_dragons.vassals import vassals

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
SEVEN = {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn"}
VASSALS_OF = {3: ("greyjoy", "tyrell", "martell", "arryn"), 4: ("tyrell", "martell", "arryn")}
"""Who is a vassal at each player count (11.2.5: every 7-player house no player takes)."""
VASSAL_TOKENS = [
    "vassal-defense+1-muster",
    "vassal-defense+3",
    "vassal-march+0",
    "vassal-raid-support+1",
]
"""A vassal's four order tokens (11.10.4), sorted."""
CI = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # a random game does not shrink usefully
    suppress_health_check=(HealthCheck.too_slow,),
)
GAME_SEED = 5
"""A game in which, at 3 and at 4 players, the random AI marched a vassal's ships into a port
(11.10.6) while its public state was that of the 7-player game."""
BOTS: dict[str, Callable[[int], Player]] = {
    "random": lambda seed: RandomBot(seed=seed),
    "baseline": lambda seed: BaselineBot(seed=seed),
    "standard": lambda seed: StandardBot(seed=seed),
    "easy": lambda seed: StrongBot(seed=seed, level=EASY),
}


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS, strict=True)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    """A fresh SQLite game store."""
    opened = open_store(f"sqlite:///{tmp_path / 'vassals.db'}")
    yield opened
    opened.close()


def random_points(
    rules: Ruleset, players: int, seed: int, every: int, limit: int
) -> Iterator[State]:
    """The states of a random vassal game every ``every`` decisions, ``limit`` decisions in all
    (the engine's random legal answers, the house to answer drawn too)."""
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, VASSALS)
    for n in range(limit):
        if n % every == 0:
            yield state
        waiting = pending(state)
        if not waiting:
            return
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))


def what_a_seat_plays_with(state: State, house: str) -> dict[str, object]:
    """What the AI's decisions for ``house`` rest on: the setup, the vassals and who answers
    for them, and the order tokens ``house`` owns with its star limit."""
    return {
        "setup": state.setup,
        "vassals": vassals(state),
        "answering": {h: answering_house(state, h) for h in state.houses},
        "tokens": planning.house_token_data(state, house),
        "star_limit": planning.star_limit(state, house),
    }


@CI
@given(players=st.sampled_from((3, 4)), seed=st.integers(0, 10_000), every=st.integers(5, 25))
@example(players=4, seed=35, every=10)
def test_issue35_f1_every_seat_rebuilds_the_vassal_games_own_setup_from_its_view(
    rules: Ruleset, players: int, seed: int, every: int
) -> None:
    """Issue 35 finding 1 (the AI's public state): at many points of a random vassal game at 3
    and 4 players, the public state each seat (and a spectator) rebuilds from its view has the
    game's setup, its vassals with their commanders, and for every house the order tokens and
    star limit the true game gives it (11.2.5, 11.10.1, 11.10.3, 11.10.4)."""
    points = 0
    for state in random_points(rules, players, seed, every, limit=240):
        seats: list[str | None] = [None, *state.houses]
        for seat, view in player_views(state, seats).items():
            public = public_state(view, rules)
            for house in state.houses:
                assert what_a_seat_plays_with(public, house) == what_a_seat_plays_with(
                    state, house
                ), f"round {state.round}, seat {seat}, {house}"
        points += 1
    print(f"vassals {players}p seed {seed}: {points} points checked, every {every} decisions")
    assert points >= 240 // every


@pytest.mark.parametrize("players", [3, 4])
def test_issue35_f1_a_vassal_owns_the_four_vassal_tokens_in_its_seats_public_state(
    rules: Ruleset, players: int
) -> None:
    """Issue 35 finding 1 (the AI's public state): in the first Planning phase, the public
    state of every seat knows the 7-player board's houses, which of them are vassals at this
    player count, and that a vassal owns only the four vassal tokens, none starred (11.2.5,
    11.10.1, 11.10.4); every view, a spectator's too, names the player count (it is public)."""
    state = new_game(rules, players, 1, VASSALS)
    for seat, view in player_views(state, [None, *state.houses]).items():
        public = public_state(view, rules)
        assert set(public.houses) == SEVEN, seat
        assert vassals(public) == VASSALS_OF[players], seat
        for vassal in VASSALS_OF[players]:
            owned = sorted(t["id"] for t in planning.house_token_data(public, vassal))
            assert owned == VASSAL_TOKENS, (seat, vassal)
            assert planning.star_limit(public, vassal) == 0, (seat, vassal)
        assert view["players"] == players, seat


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_issue35_f1_the_ais_vassal_game_decisions_stand_in_the_true_game(
    rules: Ruleset, players: int, bot: str
) -> None:
    """Issue 35 finding 1 (the AI's public state): the random, baseline, Standard and Easy
    (search) AIs play the first rounds of a vassal game, for their own houses and for the
    vassals they command (11.10.8), and the referee refuses none of their answers (a refused
    answer is recorded as a fault and replaced by a fallback move)."""
    seats = [BOTS[bot](seat) for seat in range(players)]
    record = play_game(rules, seats, seed=GAME_SEED, options=VASSALS, max_decisions=250)
    print(f"{bot} {players}p: round {record.rounds}, {record.decisions} decisions")
    assert [f"{f.house} {f.prompt}: {f.detail}" for f in record.faults] == []
    assert record.rounds >= 3


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("level", ["baseline", "standard"])
def test_issue35_f1_ai_seats_play_three_vassal_rounds_without_a_replaced_answer(
    rules: Ruleset, store: GameStore, caplog: pytest.LogCaptureFixture, players: int, level: str
) -> None:
    """Issue 35 finding 1 (the AI's public state): through the game session, every seat an AI
    of the level (the seats' own ``seat_ai``) plays three rounds of a vassal game, answering
    for its house and the vassals it commands from the views the session gives it; the
    session never logs an AI answer replaced by a random move (11.10.3, 11.10.8)."""
    houses = rules.setups[players].seated_houses()
    seats = {h: seat_ai(level, BALANCED, seed) for seed, h in enumerate(houses)}
    session = GameSession.create(store, rules, players, seats, GAME_SEED, VASSALS)
    caplog.set_level(logging.ERROR, logger="westeros.session")
    decisions = 0
    while session.state.round <= 3 and not session.over and decisions < 1_500:
        assert session.play_ai(session.ai_pending()[0]) is not None
        decisions += 1
    print(f"{level} {players}p: round {session.state.round}, {decisions} decisions")
    assert [r.getMessage() for r in caplog.records] == []
    assert session.state.round == 4 or session.over


def test_issue35_f1_a_view_without_its_player_count_or_of_other_houses_is_refused(
    rules: Ruleset,
) -> None:
    """Issue 35 finding 1 (the AI's public state): a view that does not name its player count
    (one made before the count was in the view), or names a setup of other houses, gets a
    clear UnreadableView instead of a state on the wrong board."""
    view = player_views(new_game(rules, 4, 2, VASSALS), ["stark"])["stark"]
    older = {k: v for k, v in view.items() if k != "players"}
    with pytest.raises(UnreadableView, match="does not name its game's player count"):
        public_state(older, rules)
    base = build_ruleset({}, strict=True)
    three = player_views(new_game(base, 3, 2), ["stark"])["stark"]
    wrong = {**three, "players": 4}
    with pytest.raises(UnreadableView, match="not those of the 4-player setup"):
        public_state(wrong, base)
    with pytest.raises(UnreadableView, match=r"setups for \[3, 4, 5, 6\]"):
        public_state({**three, "players": 9}, base)
