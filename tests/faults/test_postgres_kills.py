"""Database faults (issue 35, finding 9 and acceptance 3).

In one process (SQLite, the store's append failing as a killed connection makes it fail):
an AI decision that meets a database error is stored once the database answers again,
never replaced by a random legal move, and a person's action is answered ``not-saved``.
Against a real ``westeros server`` with two workers on PostgreSQL: the server's connections
are killed again and again (``pg_terminate_backend``) while people and the AI play and chat."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from westeros.ai import BaselineBot
from westeros.engine import Action, Ruleset, pending
from westeros.online import session as online_session
from westeros.online.bus import LocalBus
from westeros.online.session import OnlineSession
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import Human, NotSaved

from .live import (
    FaultServer,
    application_name,
    check_nothing_lost,
    check_views,
    rss_mb,
    seat_table,
)

HOUSES = ("stark", "lannister", "baratheon")


class Decider:
    """An AI seat that remembers every decision it made (the baseline AI's)."""

    name = "baseline"

    def __init__(self, seed: int) -> None:
        self.bot = BaselineBot(seed=seed)
        self.decisions: list[Action] = []

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        action = self.bot.decide(view, rules, budget)
        self.decisions.append(action)
        return action


class Outage:
    """``store.append_action`` failing as a killed PostgreSQL connection makes it fail, for
    the next ``times`` calls (or until ``end``), each failure counted and printed."""

    def __init__(self, append: Callable[..., None], times: int) -> None:
        self.append = append
        self.left = times
        self.failed = 0

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        if self.left > 0:
            self.left -= 1
            self.failed += 1
            print(f"injected: append_action failure {self.failed} (connection terminated)")
            raise OperationalError(
                "INSERT INTO actions …",
                {},
                Exception("terminating connection due to administrator command"),
            )
        self.append(*args, **kwargs)

    def end(self) -> None:
        self.left = 0


def _session(tmp_path: Path, seats: Mapping[str, Any]) -> OnlineSession:
    store = open_store(f"sqlite:///{tmp_path / 'game.db'}")
    session = OnlineSession.create(store, build_ruleset({}), 3, dict(seats), seed=11)
    assert isinstance(session, OnlineSession)
    session.share(LocalBus())
    return session


def _stored(session: OnlineSession) -> list[tuple[str, dict[str, Any]]]:
    _, entries = session.store.game_log(session.game_id)
    return [(e.house, dict(e.action)) for e in entries]


def test_an_ai_decision_hit_by_a_database_error_is_stored_as_decided_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 9 (M6), AI side: the append fails once (a killed connection; the
    pool's next one works). The AI's own decision is stored, not a random legal move put in
    its place, and the AI was asked once."""
    ai = Decider(seed=5)
    session = _session(tmp_path, {h: ai if h == "stark" else Decider(seed=9) for h in HOUSES})
    outage = Outage(session.store.append_action, times=1)
    monkeypatch.setattr(session.store, "append_action", outage)

    accepted = session.play_ai("stark")

    assert outage.failed == 1
    assert accepted is not None
    assert len(ai.decisions) == 1
    assert accepted.action == ai.decisions[0]
    assert _stored(session) == [("stark", ai.decisions[0].to_json())]


def test_an_ai_decision_during_a_long_outage_waits_and_nothing_random_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 9 (M6), AI side: while the database stays down longer than the AI's
    retries, nothing at all is stored (no random move stands in); once it is back, the next
    turn of the seat runner stores the AI's decision."""
    monkeypatch.setattr(online_session, "STORE_RETRY_FOR", 0.4, raising=False)
    ai = Decider(seed=5)
    session = _session(tmp_path, {h: ai if h == "stark" else Decider(seed=9) for h in HOUSES})
    outage = Outage(session.store.append_action, times=10_000)
    monkeypatch.setattr(session.store, "append_action", outage)

    with pytest.raises(NotSaved):
        session.play_ai("stark")
    assert _stored(session) == []
    assert session.serial == 0
    assert "stark" in pending(session.state)

    outage.end()
    accepted = session.play_ai("stark")
    assert accepted is not None
    assert _stored(session) == [("stark", ai.decisions[-1].to_json())]


def test_a_persons_action_hit_by_a_database_error_is_answered_not_saved_then_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 9 (M6): a person's action that the database does not take is
    answered with an ``error`` of code ``not-saved`` (not an exception that drops the
    socket), nothing changes, and the same action sent again is accepted."""
    session = _session(
        tmp_path,
        {"stark": Human("Alys", credential="alys"), **{h: Decider(9) for h in HOUSES[1:]}},
    )
    outage = Outage(session.store.append_action, times=1)
    monkeypatch.setattr(session.store, "append_action", outage)
    view = session.hub.view("stark")
    action = BaselineBot(seed=3).decide(view, session.state.rules, 0.05).to_json()
    message = json.dumps({"type": "action", "action": action, "state_id": 0, "id": 1})

    reply = session.handle("stark", message, "alys")

    assert reply["type"] == "error" and reply["code"] == "not-saved", reply
    assert session.serial == 0 and _stored(session) == []
    again = session.handle("stark", message, "alys")
    assert again["type"] == "accepted", again
    assert _stored(session) == [("stark", action)]


class Killer:
    """Kills every PostgreSQL connection of the server (by its ``application_name``) every
    ``every`` seconds, printing how many each round killed."""

    def __init__(self, reader: str, server_url: str, every: float) -> None:
        self.reader = reader
        self.name = application_name(server_url)
        self.every = every
        self.rounds: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        engine = sa.create_engine(self.reader.replace("postgresql://", "postgresql+psycopg://"))
        try:
            while not self._stop.wait(self.every):
                with engine.begin() as db:
                    killed = db.execute(
                        sa.text(
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND application_name = :name "
                            "AND pid <> pg_backend_pid()"
                        ),
                        {"name": self.name},
                    ).scalar_one()
                self.rounds.append(int(killed))
                print(f"injected: round {len(self.rounds)}: {killed} server connection(s) killed")
        finally:
            engine.dispose()

    def __enter__(self) -> Killer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(10)


def test_a_two_worker_server_loses_nothing_while_its_database_connections_are_killed(
    database: tuple[str, str], services: tuple[str, str], fault_server: Any
) -> None:
    """Issue 35 acceptance 3 (finding 9): PostgreSQL connections of a 2-worker server killed
    every 0.7 s for 12 s while two people and the AI play and chat: every accepted action
    and every acknowledged chat line is stored, the log has no gap, no socket was dropped
    (a database error is answered ``not-saved``), the game goes on after, every socket shows
    its seat's view of the stored game, and the workers' memory stays bounded."""
    server_url, reader = database
    server: FaultServer = fault_server(server_url, services[1], workers=2)
    table = seat_table(server, reader)
    try:
        table.play(actions=4)
        before = {w: rss_mb(w) for w in server.workers()}
        stark, lannister = table.answering
        with Killer(reader, server_url, every=0.7) as killer:
            deadline = time.monotonic() + 12
            while time.monotonic() < deadline:
                stark.say()
                lannister.say(to="stark")
                table.pump(1.0)
        killed = sum(killer.rounds)
        print(f"injected: {len(killer.rounds)} rounds, {killed} connections killed in all")
        assert killed > 0, "no connection of the server was killed: the test proved nothing"
        after_fault = table.play(actions=6)
        print(f"the game went on to action {after_fault}")
        stark.say()
        state = table.settle()
        check_nothing_lost(table)
        check_views(table, state)
        assert stark.acknowledged() and lannister.acknowledged()
        drops = [(c.path, c.drops) for c in table.clients if c.drops]
        print(f"sockets dropped and opened again: {drops or 'none'}")
        assert not drops, "a database error dropped a socket instead of answering not-saved"
        for worker, rss in before.items():
            print(f"worker {worker}: {rss:.0f} MB before, {rss_mb(worker):.0f} MB after")
            assert rss_mb(worker) < rss + 150
    finally:
        table.close()
