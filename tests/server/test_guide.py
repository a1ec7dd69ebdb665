"""The guided first game's script (issue 37 point 1): the prepared board, the steps the game
reaches when the person does what the guide says, and the routes that start it and answer its
steps."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from westeros.ai.bots import PassiveBot
from westeros.base.guide import GUIDE
from westeros.engine import Action, State, apply, new_game, pending
from westeros.engine.actions import Bid, Choose
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.march import ResolveMarch
from westeros.engine.mustering import MusterUnit
from westeros.engine.planning import PlaceOrders
from westeros.engine.raid import ResolveRaid
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset
from westeros.server import guide
from westeros.server.games import Games, ai_factory_for

from .conftest import BASE, COOKIE, TOKEN

PERSON = "lannister"
FOLLOWED = (
    (
        "orders",
        PlaceOrders(
            (
                ("lannisport", "march+0"),
                ("stoney-sept", "support+0"),
                ("the-golden-sound", "raid+0"),
                ("harrenhal", "consolidate_power+0"),
            )
        ),
    ),
    ("raid", ResolveRaid("the-golden-sound", "searoad-marches")),
    ("march", ResolveMarch("lannisport", (("riverrun", ("footman", "knight")),))),
    ("combat", Choose("tywin-lannister")),
    ("consolidate", ResolveConsolidate("harrenhal")),
    ("muster-harrenhal", MusterUnit("footman", "harrenhal")),
    ("muster-lannisport", MusterUnit("knight", "lannisport")),
    ("muster-done", Choose("done")),
    ("bid-iron_throne", Bid(0)),
    ("bid-fiefdoms", Bid(0)),
    ("bid-kings_court", Bid(2)),
    ("wildlings", Bid(2)),
)
"""What the guide tells the person at each step, written out by hand from its words."""
TESTID = re.compile(r'data-testid="([^"]+)"')
PREFIXES = ("area-", "target-", "origin-", "dest-")


def guided_game() -> State:
    rules = build_ruleset({GUIDE: True}, autoload=False)
    return new_game(rules, guide.PLAYERS, guide.SEED, {GUIDE: True})


def until_person(state: State) -> State:
    """Let the passive AI seats answer until the person must decide (or nobody must)."""
    bot = PassiveBot()
    while (waiting := pending(state)) and PERSON not in waiting:
        house = sorted(waiting)[0]
        state, _ = apply(state, house, bot.decide(player_view(state, house), state.rules, 0))
    return state


def play_along(
    visit: Callable[[State, guide.Step, Action], None] = lambda *_: None,
) -> State:
    """The guided game with the person doing what each step says (``visit`` sees each one)."""
    state = until_person(guided_game())
    for expected, action in FOLLOWED:
        step = guide.step_for(state, PERSON)
        assert step.id == expected, f"reached {step.id} where the guide expects {expected}"
        visit(state, step, action)
        state, _ = apply(state, PERSON, action)
        state = until_person(state)
    return state


def test_2_prepared_board_stacks_round_2_westeros_and_wildling_cards() -> None:
    """The guide's board (RULES.md 2): three houses, Stark in Riverrun to attack, Baratheon in
    the Searoad Marches to raid; round 2 reveals Mustering, Clash of Kings and Wildlings
    Attack (3.2.2) and the attack reveals Skinchanger Scout (7.3.9)."""
    state = guided_game()
    assert state.houses == ("baratheon", "lannister", "stark")
    assert [u.house for u in state.units["riverrun"]] == ["stark"]
    assert [u.house for u in state.units["searoad-marches"]] == ["baratheon"]
    assert [deck[0] for deck in state.westeros_decks] == [
        "mustering",
        "clash-of-kings",
        "wildlings-attack",
    ]
    assert state.wildling_deck[0] == "skinchanger-scout"
    plain = new_game(build_ruleset({}, autoload=False), 3, guide.SEED)
    assert "harrenhal" not in plain.units and plain.wildling_deck != state.wildling_deck


def test_following_the_guide_reaches_every_step_in_order_then_completes() -> None:
    """Doing what each step says leads through every step of the script, in order of play,
    and ends in the guide's completion at round 2's Planning: Riverrun taken (5.4), threat back
    to 0 after the Night's Watch won (7.2)."""
    reached: list[str] = []
    state = play_along(lambda _s, step, _a: reached.append(step.id))
    assert tuple(reached) == tuple(s.id for s in guide.STEPS)
    assert guide.step_for(state, PERSON) is guide.COMPLETE
    assert [u.house for u in state.units["riverrun"]] == [PERSON, PERSON]
    assert state.round == 2 and state.threat == 0


def test_each_step_points_at_what_its_prompt_offers() -> None:
    """Every area, card and order a step's buttons name is one its prompt offers now."""

    def check(state: State, step: guide.Step, _action: Action) -> None:
        offered = repr(pending(state)[PERSON].data)
        for click in step.clicks:
            for testid in TESTID.findall(click.target):
                name = testid.split("-", 1)[1] if "-" in testid else ""
                if not name or name.startswith("unit-"):  # commit, number; a unit by index
                    continue
                for known in (name, *(name.removeprefix(p) for p in PREFIXES)):
                    if known and f"'{known}'" in offered:
                        break
                else:
                    pytest.fail(f"{step.id}: {testid} is not offered by its prompt")

    play_along(check)


def test_every_topic_is_taught_in_order_of_play() -> None:
    """The clicks of the script name the ten topics of issue 37 point 1, in that order."""
    topics: list[str] = []
    for step in guide.STEPS:
        for click in step.clicks:
            if click.topic and (not topics or topics[-1] != click.topic):
                topics.append(click.topic)
    assert topics == [t for t, _ in guide.TOPICS]


@pytest.fixture
def guide_app(make_app: Callable[..., FastAPI]) -> FastAPI:
    return make_app(ai_factory=ai_factory_for())


def test_post_guide_starts_a_guided_game_whose_step_is_served_in_chinese(
    guide_app: FastAPI,
) -> None:
    """``POST /guide`` stores a guided game and opens Lannister's board; its first step is
    the orders step, in the page's language."""
    with TestClient(guide_app, base_url=BASE, follow_redirects=False) as c:
        c.cookies.set(COOKIE, TOKEN)
        answer = c.post("/guide", headers={"origin": BASE})
        assert answer.status_code == 303
        url = answer.headers["location"]
        game = re.findall(r"/games/([^/]+)/play/lannister$", url)[0]
        step = c.get(f"/games/{game}/guide/lannister?lang=zh_CN").json()
    assert step["guide"] is True and step["step"] == "orders"
    assert step["clicks"][0]["text"].startswith("欢迎来到维斯特洛")
    assert step["labels"]["leave"] == "离开引导"


def test_other_games_have_no_guide(client: TestClient, games: Games) -> None:
    """An ordinary game answers ``{"guide": false}``: its board shows no guide box."""
    session = games.create(players=3, human="stark")
    answer = client.get(f"/games/{session.game_id}/guide/stark")
    assert answer.json() == {"guide": False}
