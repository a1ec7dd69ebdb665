"""One notice per decision (issue 40; docs/online-notices.md): the same pending decision seen
by two workers and by a rescan sends one e-mail; of claims made at once exactly one wins, on
SQLite and PostgreSQL; the server's keys are one pair for every worker."""

from __future__ import annotations

import functools
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.store.helpers import three_player_setup
from westeros.online.notices import TurnNotices
from westeros.online.notices.push import new_vapid_pem
from westeros.online.notices.records import NoticeStore
from westeros.saves import open_store

from .helpers import rules, start_game
from .notices_helpers import (
    Mailbox,
    mailbox,
    next_announced,
    notice_server,
    people,
    verify,
)

T = TypeVar("T")


@pytest.fixture
def box() -> Iterator[Mailbox]:
    with mailbox() as found:
        yield found


@pytest.fixture
def app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: Mailbox, database: str
) -> Iterator[Any]:
    with notice_server(tmp_path, monkeypatch, box.env(), database) as found:
        yield found


def _worker(app: Any) -> TurnNotices:
    """Another worker's turn notices on the same database (started: its own sender)."""
    mine = app.state.notices
    other = TurnNotices(NoticeStore(mine.store.engine), mine.config, mine.catalogs, {})
    other.start()
    return other


def test_a_decision_seen_by_two_workers_and_a_rescan_is_sent_once(app: Any, box: Mailbox) -> None:
    alice = people(app)("Alice")
    verify(alice, box, "alice@example.org")
    lobby = start_game(alice, [], grace_seconds=3600)
    game_id = lobby["game_id"]
    next_announced(app, game_id, "stark", None)  # this worker announced it
    session, found = app.state.online.hub.session(game_id)
    workers = [_worker(app), _worker(app)]
    try:
        for worker in workers:  # another worker, then one that forgot (a restart, a rescan)
            worker.decisions(session, found, set())
            worker.decisions(session, found, set())
        for worker in workers:
            assert worker.wait_idle(30)
    finally:
        for worker in workers:
            worker.close()
    assert app.state.notices.wait_idle(30)
    print("e-mails to Alice:", [m["Subject"] for m in box.to("alice@example.org")])
    assert len(box.to("alice@example.org")) == 2  # the link, and one notice


def test_of_claims_made_at_once_exactly_one_wins(app: Any) -> None:
    alice = people(app)("Alice")
    game_id = start_game(alice, [], grace_seconds=3600)["game_id"]
    store = NoticeStore(app.state.notices.store.engine)
    for digest in ("first", "second", "first"):
        won = _at_once(8, functools.partial(store.claim, game_id, "someone", digest))
        assert sorted(won) == [False] * 7 + [True], digest


def test_every_worker_reads_the_same_keys_made_once(app: Any) -> None:
    engine = app.state.notices.store.engine
    name = f"test-{uuid.uuid4().hex[:8]}"
    keys = _at_once(6, lambda: NoticeStore(engine).key(name, new_vapid_pem))
    assert len(keys) == 6 and len(set(keys)) == 1


def _at_once(count: int, call: Callable[[], T]) -> list[T]:
    """What ``call`` returns, called by ``count`` threads released together."""
    start = threading.Barrier(count)
    results: list[T] = []

    def run() -> None:
        start.wait()
        results.append(call())

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[NoticeStore, str]]:
    """A store with one stored game to claim decisions of (SQLite)."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('claims') / 'claims.db'}")
    game_id = store.create_game(three_player_setup(rules())).info.id
    yield NoticeStore(store.engine), game_id
    store.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from("abc")), max_size=12))
def test_a_claim_wins_exactly_when_the_decision_changed(
    claims: tuple[NoticeStore, str], steps: list[tuple[int, str]]
) -> None:
    """Workers (0 to 2) claim decisions in any order: each change of the decision announced is
    won once, by whoever claims it first; the same decision again is never won."""
    store, game_id = claims
    house = uuid.uuid4().hex[:12]
    last: str | None = None
    for _, decision in steps:
        assert store.claim(game_id, house, decision) is (decision != last)
        last = decision
