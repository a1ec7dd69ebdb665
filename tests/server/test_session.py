"""The GameSession (DESIGN §4-5): AI seats play whole games through it; every accepted action is
committed before it is broadcast; a game is rebuilt from the store ("Continue"); a failed save
or a misbehaving AI never changes or stalls the game."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

import pytest

from tests.server.conftest import baseline_bots
from westeros.ai import BaselineBot
from westeros.engine import Action, Bid, Ruleset, State
from westeros.engine.flow import pending, random_action
from westeros.saves import open_store
from westeros.session import GameSession, Human
from westeros.store import GameStore, SeatSpec, StoreError

MAX_DECISIONS = 5_000


def new_session(
    store: GameStore,
    rules: Ruleset,
    players: int,
    seed: int,
    seats: Mapping[str, Any] | None = None,
) -> GameSession:
    houses = rules.setups[players].houses
    chosen = dict(seats or {})
    everyone = {h: chosen.get(h) or BaselineBot(seed=seed + i) for i, h in enumerate(houses)}
    return GameSession.create(store, rules, players, everyone, seed)


def play_out(session: GameSession, limit: int = MAX_DECISIONS) -> int:
    """Let the AI seats decide until the game is over (or a person must decide)."""
    decisions = 0
    while decisions < limit:
        houses = session.ai_pending()
        if not houses:
            break
        session.play_ai(houses[0])
        decisions += 1
    return decisions


@pytest.fixture
def store(store_url: str) -> GameStore:
    return open_store(store_url)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ais_play_a_complete_game_through_the_session(
    store: GameStore, rules: Ruleset, players: int, caplog: pytest.LogCaptureFixture
) -> None:
    session = new_session(store, rules, players, seed=players)
    messages: dict[str, list[dict[str, Any]]] = {h: [] for h in session.state.houses}
    for house in session.state.houses:
        session.attach(house, messages[house].append)
    with caplog.at_level(logging.ERROR, logger="westeros.session"):
        decisions = play_out(session)
    assert session.over, f"no winner after {decisions} decisions"
    assert not caplog.records, "an AI decision had to be replaced"
    state = session.state
    assert state.winner in state.houses
    info = store.game(session.game_id)
    assert (info.status, info.winner, info.action_count) == ("finished", state.winner, decisions)
    for house, received in messages.items():
        overs = [m for m in received if m["type"] == "game_over"]
        assert overs == [received[-1]], f"{house} must be told once, at the end"
        assert overs[0]["winner"] == state.winner
        assert sorted(overs[0]["ranking"]) == sorted(state.houses)
        assert [m["state_id"] for m in received if m["type"] == "view"] == list(
            range(decisions + 1)
        )


def test_each_action_is_committed_before_it_is_broadcast(store: GameStore, rules: Ruleset) -> None:
    session = new_session(store, rules, 3, seed=11)
    seen: list[tuple[int, int]] = []

    def check(message: dict[str, Any]) -> None:
        if message["type"] == "view":
            seen.append((message["state_id"], store.game(session.game_id).action_count))

    session.attach("stark", check)
    play_out(session, limit=40)
    assert len(seen) == 41
    assert all(state_id == stored for state_id, stored in seen)


def test_a_game_is_rebuilt_from_the_store_and_plays_on(store: GameStore, rules: Ruleset) -> None:
    first = new_session(store, rules, 4, seed=5)
    play_out(first, limit=120)
    assert not first.over
    resumed = GameSession.resume(store, first.game_id, baseline_bots)
    assert resumed.state.hash() == first.state.hash()
    assert resumed.serial == first.serial == 120
    for house in first.state.houses:
        assert resumed.view_message(house) == first.view_message(house)
    assert all(resumed.is_ai(h) for h in resumed.state.houses)
    play_out(resumed)
    assert resumed.over
    assert store.game(first.game_id).action_count == resumed.serial


def test_people_keep_their_seats_when_a_game_is_rebuilt(store: GameStore, rules: Ruleset) -> None:
    session = new_session(store, rules, 3, seed=2, seats={"stark": Human("Ned")})
    play_out(session)
    assert "stark" in pending(session.state)  # the AIs wait for the person
    resumed = GameSession.resume(store, session.game_id, baseline_bots)
    assert not resumed.is_ai("stark")
    assert resumed.ai_pending() == session.ai_pending()


class BrokenDisk(GameStore):
    """A store whose log cannot be written (a full disk)."""

    def append_action(
        self,
        game_id: str,
        seq: int,
        house: str,
        action: Action,
        state: State,
        *,
        digest: str | None = None,
    ) -> None:
        raise StoreError("disk full")


def test_an_action_that_cannot_be_saved_does_not_happen(store: GameStore, rules: Ruleset) -> None:
    session = new_session(store, rules, 3, seed=4, seats={"stark": Human()})
    received: list[dict[str, Any]] = []
    session.attach("stark", received.append)
    before = session.state.hash()
    session.store = BrokenDisk(store.engine, rulesets=store.rulesets)
    action = random_action(session.state, "stark", random.Random(1))
    reply = session.handle("stark", {"type": "action", "action": action.to_json(), "state_id": 0})
    assert reply["code"] == "not-saved"
    assert session.state.hash() == before
    assert [m["type"] for m in received] == ["view"]  # only the view on attach
    session.store = store
    reply = session.handle("stark", {"type": "action", "action": action.to_json(), "state_id": 0})
    assert (reply["type"], reply["state_id"]) == ("accepted", 1)
    assert store.game(session.game_id).action_count == 1


class Cheater:
    """An AI that always bids more power than anyone has."""

    name = "cheater"

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        return Bid(99)


def test_an_ai_answering_illegally_is_replaced_by_a_legal_move(
    store: GameStore, rules: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    session = new_session(store, rules, 3, seed=8, seats={"stark": Cheater()})
    with caplog.at_level(logging.ERROR, logger="westeros.session"):
        accepted = session.play_ai("stark")
    assert accepted is not None
    assert accepted.house == "stark"
    assert accepted.action.kind == "place_orders"  # a legal answer to the Planning prompt
    assert any("AI for stark failed" in r.getMessage() for r in caplog.records)
    assert store.game(session.game_id).action_count == 1


def test_a_person_cannot_be_played_by_the_ai_runner(store: GameStore, rules: Ruleset) -> None:
    session = new_session(store, rules, 3, seed=9, seats={"stark": Human()})
    assert "stark" not in session.ai_pending()
    with pytest.raises(Exception, match="not played by the computer"):
        session.play_ai("stark")


def test_seat_spec_names_record_who_plays(store: GameStore, rules: Ruleset) -> None:
    session = new_session(store, rules, 3, seed=10, seats={"stark": Human("Ned")})
    seats = {s.house: s for s in store.game(session.game_id).setup.seats}
    assert seats["stark"] == SeatSpec("stark", "human", "Ned")
    assert (seats["lannister"].kind, seats["lannister"].name) == ("ai", "baseline")
