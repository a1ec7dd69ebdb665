"""An AI that reads its opponents over the game (Hard, issue 15) keeps that reading when it
takes a seat mid-game, a resumed game ("Continue") or a seat the computer takes over: before
its first decision the session shows it its seat's own views of the earlier Plannings (4) and
reveals (4.1), rebuilt from the log (``session.memory``), and nothing else."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.server.conftest import baseline_bots
from westeros.ai import BaselineBot
from westeros.ai.difficulty import HARD
from westeros.ai.strong import StrongBot
from westeros.engine import Action, Ruleset
from westeros.saves import open_store
from westeros.session import AiPlayer, GameSession
from westeros.store import GameStore, SeatSpec, StoreError

ROUNDS = 4
PLAYERS = 6
View = Mapping[str, Any]


@pytest.fixture
def store(store_url: str) -> GameStore:
    return open_store(store_url)


class Recorder:
    """Stark's AI: plays like the baseline AI and keeps every view it is shown."""

    name = "recorder"
    remembers = True

    def __init__(self) -> None:
        self.bot = BaselineBot(3)
        self.planning: list[View] = []
        self.recalled: list[Sequence[tuple[View, View]]] = []

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        if view["prompt"]["kind"] == "place_orders":
            self.planning.append(view)
        return self.bot.decide(view, rules, budget)

    def recall(self, past: Sequence[tuple[View, View]], rules: Ruleset) -> None:
        self.recalled.append(past)


def played(store: GameStore, rules: Ruleset, stark: AiPlayer) -> GameSession:
    """A six-player game of baseline AIs (``stark`` for Stark) played up to the Planning of
    round ``ROUNDS + 1``."""
    houses = rules.setups[PLAYERS].houses
    seats = {h: BaselineBot(seed=i) for i, h in enumerate(houses)}
    session = GameSession.create(store, rules, PLAYERS, {**seats, "stark": stark}, 7)
    while session.state.round <= ROUNDS:
        session.play_ai(session.ai_pending()[0])
    return session


def hard_stark(house: str, seat: SeatSpec) -> AiPlayer:
    return StrongBot(5, HARD) if house == "stark" else baseline_bots(house, seat)


@pytest.mark.parametrize("how", ["resumed", "taken over"])
def test_4_1_hard_taking_a_seat_mid_game_reads_the_baseline_houses_from_the_earlier_rounds(
    store: GameStore, rules: Ruleset, how: str
) -> None:
    session = played(store, rules, BaselineBot(3))
    if how == "resumed":
        session = GameSession.resume(store, session.game_id, hard_stark)
    else:
        session.players["stark"] = hard_stark("stark", SeatSpec("stark", "ai"))
    hard = session.players["stark"]
    assert isinstance(hard, StrongBot) and hard.opponents is not None
    assert hard.opponents.models() == {}, "nothing read before its first decision"
    session.play_ai("stark")
    read = hard.opponents.models()
    assert set(read.values()) == {"baseline"}, read
    assert len(read) >= 4, read


def test_4_1_an_ai_taking_a_seat_is_shown_only_its_own_earlier_planning_views_once(
    store: GameStore, rules: Ruleset
) -> None:
    live = Recorder()
    session = played(store, rules, live)
    assert len(live.recalled) == 1 and live.recalled[0] == [], "a new game has no earlier rounds"
    assert len(live.planning) == ROUNDS
    stand_in = Recorder()
    resumed = GameSession.resume(
        store, session.game_id, lambda h, s: stand_in if h == "stark" else baseline_bots(h, s)
    )
    for _ in range(40):
        resumed.play_ai(resumed.ai_pending()[0])
    assert len(stand_in.recalled) == 1, "shown once, before its first decision"
    past = stand_in.recalled[0]
    assert [planning for planning, _ in past] == live.planning[:ROUNDS]
    for number, (planning, revealed) in enumerate(past, start=1):
        assert planning["round"] == revealed["round"] == number
        assert revealed["house"] == "stark"
        owners = {house for house, _ in revealed["orders"].values()}
        assert len(owners) == PLAYERS, "every house's orders are shown at the reveal"


class UnreadableLog(GameStore):
    """A store whose log can no longer be read back (a damaged database)."""

    def game_log(self, game_id: str) -> Any:
        raise StoreError("database disk image is malformed")


def test_an_ai_taking_a_seat_plays_on_when_the_earlier_log_cannot_be_read(
    store: GameStore, rules: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    session = played(store, rules, BaselineBot(3))
    stand_in = Recorder()
    session.players["stark"] = stand_in
    session.store = UnreadableLog(store.engine, rulesets=store.rulesets)
    with caplog.at_level(logging.ERROR, logger="westeros.session"):
        accepted = session.play_ai("stark")
    assert accepted is not None and accepted.house == "stark"
    assert stand_in.recalled == [], "it decided without the earlier rounds"
    assert any("could not be re-run for stark" in r.getMessage() for r in caplog.records)
