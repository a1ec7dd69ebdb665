"""Deadlines of games by turns (issue 40, docs/online-pace.md) on an injected clock, never by
waiting: weekends do not count (a 24 h deadline set on Friday 20:00 falls on Monday 20:00,
in UTC or the lobby's time zone), a vacation pauses a person's deadlines and its allowance
runs out, the AI keeps a seat after the host's missed deadlines in a row until its person
opens their board again, and the settings are checked when a lobby is created."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import Session, col, func, select

from westeros.online import ratings
from westeros.online.bus import LocalBus
from westeros.online.errors import LobbyState
from westeros.online.hub import OnlineHub
from westeros.online.pace import MISSED_DEADLINE, MissedDeadline, Pace
from westeros.online.records import PlayerInfo
from westeros.online.store import OnlineStore
from westeros.store import GameStore
from westeros.store.models import ActionRecord

from .helpers import Player, wait_for
from .seat_helpers import race_store

FRIDAY_EVENING = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
MONDAY_EVENING = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
TUESDAY_MORNING = datetime(2026, 12, 8, 10, 0, tzinfo=UTC)
HOUR = 3600
DAY = 24 * HOUR


# ---------------------------------------------------------------------------------- weekends


def test_a_24_hour_deadline_set_on_friday_evening_falls_on_monday_evening() -> None:
    weekends = Pace(mode="by_turns", deadline_seconds=DAY, skip_weekends=True)
    assert FRIDAY_EVENING.weekday() == 4
    assert weekends.deadline(FRIDAY_EVENING) == MONDAY_EVENING
    assert weekends.counted(FRIDAY_EVENING, MONDAY_EVENING) == DAY
    every_day = Pace(mode="by_turns", deadline_seconds=DAY)
    assert every_day.deadline(FRIDAY_EVENING) == FRIDAY_EVENING + timedelta(days=1)


def test_a_decision_asked_on_a_weekend_counts_from_monday() -> None:
    weekends = Pace(mode="by_turns", deadline_seconds=2 * HOUR, skip_weekends=True)
    saturday_noon = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    assert weekends.deadline(saturday_noon) == datetime(2026, 12, 7, 2, 0, tzinfo=UTC)
    assert weekends.deadline(TUESDAY_MORNING) == TUESDAY_MORNING + timedelta(hours=2)


def test_the_weekend_is_the_lobby_s_time_zone_s_across_a_clock_change() -> None:
    """New York's clocks go forward on Sunday 8 March 2026: Friday 18:00 there plus 24 h of
    weekdays is Monday 18:00 there. Counted with UTC's weekend (Friday 23:00 UTC is an hour
    before it) the same deadline would fall on Monday 23:00 UTC, 19:00 in New York."""
    new_york = ZoneInfo("America/New_York")
    pace = Pace(
        mode="by_turns", deadline_seconds=DAY, skip_weekends=True, time_zone="America/New_York"
    )
    friday = datetime(2026, 3, 6, 18, 0, tzinfo=new_york)
    assert pace.deadline(friday) == datetime(2026, 3, 9, 18, 0, tzinfo=new_york)
    in_utc = Pace(mode="by_turns", deadline_seconds=DAY, skip_weekends=True)
    assert in_utc.deadline(friday) == datetime(2026, 3, 9, 23, 0, tzinfo=UTC)


@settings(max_examples=200, deadline=None)
@given(
    start=st.datetimes(
        min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)
    ),
    seconds=st.integers(min_value=1, max_value=30 * DAY),
    zone=st.sampled_from(["UTC", "Europe/Paris", "Asia/Shanghai", "America/Los_Angeles"]),
)
def test_a_deadline_counts_exactly_its_seconds_of_weekdays(
    start: datetime, seconds: int, zone: str
) -> None:
    pace = Pace(mode="by_turns", deadline_seconds=seconds, skip_weekends=True, time_zone=zone)
    due = pace.deadline(start)
    assert due >= start + timedelta(seconds=seconds)
    assert pace.counted(start, due) == pytest.approx(seconds, abs=1e-3)
    local = due.astimezone(ZoneInfo(zone))
    saturday_midnight = (local.weekday(), local.time()) == (5, time(0))
    assert local.weekday() < 5 or saturday_midnight, f"{due} falls in a weekend in {zone}"


# ---------------------------------------------------------------------------------- a table


class Clock:
    """The time the seat thread reads (moved by the test), counting its reads."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.reads = 0
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            self.reads += 1
            return self.now

    def set(self, now: datetime) -> None:
        self.now = now

    def passes(self, count: int = 5) -> None:
        """Wait until the seat thread has read the time ``count`` more times (passes at the
        time now set)."""
        seen = self.reads
        wait_for(lambda: self.reads >= seen + count)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    with race_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def hub(store: GameStore) -> Iterator[OnlineHub]:
    with ThreadPoolExecutor(2) as pool:
        made = OnlineHub(
            store, OnlineStore(store.engine), LocalBus(), pool, ai_budget=0.05, tick=0.05, scan=0.1
        )
        try:
            yield made
        finally:
            made.close()


def _table(hub: OnlineHub, clock: Clock, **pace: Any) -> tuple[str, str, PlayerInfo]:
    """A started 3-player game by turns: Hal in Stark (who never plays here), the AI in the
    other seats; the seat thread on ``clock``. Returns the lobby, game and Hal."""
    hub.turns.clock = clock
    hal = hub.online.register("Hal")[0]
    lobby, _ = hub.create_lobby(
        hal,
        name="By turns",
        players=3,
        host_house="stark",
        ai_level="baseline",
        pace={"mode": "by_turns", **pace},
    )
    started = hub.start_game(lobby.id, hal)
    assert started.game_id is not None
    hub.start()
    return lobby.id, started.game_id, hal


def _stark(hub: OnlineHub, lobby_id: str) -> dict[str, Any]:
    return next(s for s in hub.roster(lobby_id)["seats"] if s["house"] == "stark")


def _decided(hub: OnlineHub, game_id: str) -> int:
    """Stark's decisions stored so far (all the AI's: Hal never plays)."""
    with Session(hub.store.engine) as db:
        query = select(func.count()).where(
            col(ActionRecord.game_id) == game_id, col(ActionRecord.house) == "stark"
        )
        return int(db.exec(query).one())


def _decided_at_least(hub: OnlineHub, game_id: str, count: int) -> bool:
    return _decided(hub, game_id) >= count


def _deadline(hub: OnlineHub, lobby_id: str) -> datetime | None:
    shown = _stark(hub, lobby_id)["deadline_at"]
    return datetime.fromisoformat(shown) if shown else None


@pytest.fixture
def misses() -> Iterator[list[MissedDeadline]]:
    """The missed deadlines the public hook reports."""
    seen: list[MissedDeadline] = []
    MISSED_DEADLINE.append(seen.append)
    yield seen
    MISSED_DEADLINE.remove(seen.append)


def test_the_weekend_does_not_count_in_a_running_game(
    hub: OnlineHub, misses: list[MissedDeadline]
) -> None:
    clock = Clock(FRIDAY_EVENING)
    lobby_id, game_id, hal = _table(hub, clock, deadline_seconds=DAY, skip_weekends=True)
    assert wait_for(lambda: _deadline(hub, lobby_id)) == MONDAY_EVENING
    clock.set(MONDAY_EVENING - timedelta(seconds=1))  # Sunday night is long gone: not yet
    clock.passes()
    assert (_decided(hub, game_id), _stark(hub, lobby_id)["missed"], misses) == (0, 0, [])

    clock.set(MONDAY_EVENING)
    wait_for(lambda: _decided(hub, game_id) >= 1)
    assert [(m.house, m.player_id, m.in_a_row, m.at) for m in misses] == [
        ("stark", hal.id, 1, MONDAY_EVENING)
    ]
    seat = _stark(hub, lobby_id)
    assert (seat["player"], seat["missed"]) == ("Hal", 1)  # the seat stays Hal's
    # Hal's next decision is his again, due 24 h of weekdays later: Tuesday 20:00.
    due = wait_for(lambda: _deadline(hub, lobby_id))
    assert due == MONDAY_EVENING + timedelta(days=1)
    assert not hub.session(game_id)[0].is_ai("stark")


def test_a_vacation_pauses_the_deadline_and_its_allowance_runs_out(
    hub: OnlineHub, misses: list[MissedDeadline]
) -> None:
    clock = Clock(TUESDAY_MORNING)
    lobby_id, game_id, hal = _table(hub, clock, deadline_seconds=DAY, vacation_days=2)
    due = TUESDAY_MORNING + timedelta(days=1)
    assert wait_for(lambda: _deadline(hub, lobby_id)) == due

    # Six hours later Hal leaves for a vacation: his deadline stops, 18 h of it kept.
    left_at = TUESDAY_MORNING + timedelta(hours=6)
    clock.set(left_at)
    hub.vacation(lobby_id, hal, True)
    seat = _stark(hub, lobby_id)
    assert seat["deadline_at"] is None
    assert seat["vacation_until"] == (left_at + timedelta(days=2)).isoformat()
    with pytest.raises(LobbyState, match="already started"):
        hub.vacation(lobby_id, hal, True)
    clock.set(due + timedelta(hours=12))  # long past the deadline he had
    clock.passes()
    assert (_decided(hub, game_id), misses) == (0, [])

    # Back after 30 hours: what was left of the deadline runs from now; 18 h of vacation left.
    back_at = left_at + timedelta(hours=30)
    clock.set(back_at)
    hub.vacation(lobby_id, hal, False)
    seat = _stark(hub, lobby_id)
    assert seat["deadline_at"] == (back_at + timedelta(hours=18)).isoformat()
    assert (seat["vacation_until"], seat["vacation_left"]) == (None, 18 * HOUR)

    clock.set(back_at + timedelta(hours=18))
    wait_for(lambda: _decided(hub, game_id) >= 1)
    assert [m.in_a_row for m in misses] == [1]

    # A second vacation ends by itself when the 18 hours are used up.
    asked = wait_for(lambda: _deadline(hub, lobby_id))
    second = clock.now + timedelta(hours=1)
    clock.set(second)
    hub.vacation(lobby_id, hal, True)
    clock.set(second + timedelta(hours=20))
    wait_for(lambda: _stark(hub, lobby_id)["vacation_until"] is None)
    seat = _stark(hub, lobby_id)
    assert seat["vacation_left"] == 0
    kept = asked - second  # what was left of that deadline when the vacation began
    assert seat["deadline_at"] == (second + timedelta(hours=18) + kept).isoformat()
    with pytest.raises(LobbyState, match="no vacation is left"):
        hub.vacation(lobby_id, hal, True)


def test_after_the_missed_deadlines_in_a_row_the_ai_keeps_the_seat_until_its_person_returns(
    hub: OnlineHub, misses: list[MissedDeadline]
) -> None:
    clock = Clock(TUESDAY_MORNING)
    lobby_id, game_id, hal = _table(
        hub, clock, deadline_seconds=HOUR, max_missed=2, after_missed="keep_ai"
    )
    for count in (1, 2):
        due = wait_for(lambda: _deadline(hub, lobby_id))
        clock.set(due)
        wait_for(functools.partial(_decided_at_least, hub, game_id, count))
    seat = wait_for(lambda: (s := _stark(hub, lobby_id))["kept_by_ai"] and s)
    assert (seat["player"], seat["missed"], seat["deadline_at"], seat["offer"]) == (
        "Hal",
        2,
        None,
        None,
    )
    # The AI plays on for Hal without any deadline running: the clock stands still.
    decided = _decided(hub, game_id)
    wait_for(lambda: _decided(hub, game_id) > decided, timeout=60)
    assert [m.in_a_row for m in misses] == [1, 2]
    assert ratings.profile(hub.online, hal.id).reliability.missed_deadlines == 2  # his record

    hub.open_seat(game_id, "stark", hal)  # Hal opens his board again
    seat = _stark(hub, lobby_id)
    assert (seat["kept_by_ai"], seat["missed"]) == (False, 0)
    assert wait_for(lambda: _deadline(hub, lobby_id)) == clock.now + timedelta(hours=1)


# ---------------------------------------------------------------------------------- settings


def _refused(person: Player, body: dict[str, Any], field: str) -> None:
    reply = person.post("/api/lobbies", {"players": 3, "pace": "by_turns", **body})
    assert (reply.status_code, reply.json()["code"]) == (422, "online/bad-setting"), reply.text
    assert field in reply.json()["message"], reply.text


def test_the_pace_settings_are_checked_with_clear_errors(online_app: Any, player: Any) -> None:
    alice = player("Alice")
    _refused(alice, {"pace": "slowly"}, "'pace'")
    _refused(alice, {"deadline_seconds": 0}, "'deadline_seconds'")
    _refused(alice, {"deadline_seconds": "a day"}, "'deadline_seconds'")
    _refused(alice, {"time_zone": "Mars/Olympus_Mons"}, "'time_zone'")
    _refused(alice, {"vacation_days": 365}, "'vacation_days'")
    _refused(alice, {"max_missed": 0}, "'max_missed'")
    _refused(alice, {"after_missed": "kick"}, "'after_missed'")
    _refused(alice, {"skip_weekends": "yes"}, "'skip_weekends'")
    _refused(alice, {"clock_seconds": 600}, "'clock_seconds'")

    made = alice.post(
        "/api/lobbies",
        {
            "players": 3,
            "pace": "by_turns",
            "deadline_seconds": 86400,
            "skip_weekends": True,
            "time_zone": "Asia/Shanghai",
            "vacation_days": 7,
            "max_missed": 2,
            "after_missed": "keep_ai",
        },
    )
    assert made.status_code == 200, made.text
    lobby = made.json()["lobby"]
    assert lobby["settings"]["pace"] == {
        "mode": "by_turns",
        "deadline_seconds": 86400,
        "skip_weekends": True,
        "time_zone": "Asia/Shanghai",
        "vacation_days": 7,
        "max_missed": 2,
        "after_missed": "keep_ai",
    }
    live = alice.post("/api/lobbies", {"players": 3}).json()["lobby"]
    assert live["settings"]["pace"]["mode"] == "live"
    refused = alice.post(f"/api/lobbies/{live['id']}/vacation", {"on": True})
    assert (refused.status_code, refused.json()["code"]) == (409, "online/lobby-state")
    assert "played by turns" in refused.json()["message"]
