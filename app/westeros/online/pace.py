"""Two paces per game (issue 40; docs/online-pace.md): *live*, as online games always were (a
turn clock, a grace period before the AI takes a dropped seat), and *by turns*, played over
days: each decision of a person's seat has a deadline, stored with the seat
(``online_seat_paces``), so every worker and a restart agree on it.

By turns, whether a person has a page open does not matter (no grace period, no time bank).
When the deadline of a decision passes, the AI decides that one decision for the seat, at the
game's level and personality, and the seat stays the person's: their next decision is theirs
again, with a fresh deadline. A decision made in time resets the seat's missed deadlines in a
row; after the host's ``max_missed`` in a row the seat is either *offered* to a new person
(it becomes open with a fresh invite, shown to everyone in the roster; the AI plays it
meanwhile) or *kept by the AI* until the person opens their board again.

Weekends (an option): the time of a deadline counts on weekdays only, Saturday 00:00 to
Monday 00:00 in the lobby's time zone (UTC unless the host names one) does not count, so a
deadline of 24 h set on Friday 20:00 falls on Monday 20:00.

Vacation (an allowance of days per person, the host's setting): a person starts and stops it
themselves; it ends by itself once the allowance is used up. While it lasts no deadline of
theirs runs: what was left of a running one is kept and runs again from the vacation's end,
and a decision asked meanwhile gets its full deadline from then. The person may still play
during a vacation."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from westeros.store.models import ActionRecord, as_utc, utcnow
from westeros.store.pace import SeatPace

from .errors import LobbyState
from .ratings import HasEngine, record_missed_deadline
from .records import LobbyInfo, SeatInfo

log = logging.getLogger("westeros.online.pace")

LIVE = "live"
BY_TURNS = "by_turns"
PACES = (LIVE, BY_TURNS)
OFFER = "offer"
KEEP_AI = "keep_ai"
AFTER_MISSED = (OFFER, KEEP_AI)
DAY = 24 * 3600
MAX_DEADLINE = 30 * DAY
MAX_VACATION_DAYS = 90
MAX_MISSED = 100
SATURDAY = 5


class PaceError(ValueError):
    """A pace setting that is wrong; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclasses.dataclass(frozen=True, slots=True)
class Pace:
    """A lobby's pace and, by turns, its settings (stored as ``settings["pace"]``)."""

    mode: str = LIVE
    deadline_seconds: int = DAY
    skip_weekends: bool = False
    time_zone: str = "UTC"
    vacation_days: int = 0
    max_missed: int = 3
    after_missed: str = OFFER

    def __post_init__(self) -> None:
        if self.mode not in PACES:
            raise PaceError("pace", f"'pace' is one of {', '.join(PACES)}, not {self.mode!r}")
        if not 1 <= self.deadline_seconds <= MAX_DEADLINE:
            raise PaceError(
                "deadline_seconds",
                f"'deadline_seconds' is 1 to {MAX_DEADLINE} ({MAX_DEADLINE // DAY} days)",
            )
        if not 0 <= self.vacation_days <= MAX_VACATION_DAYS:
            raise PaceError("vacation_days", f"'vacation_days' is 0 to {MAX_VACATION_DAYS}")
        if not 1 <= self.max_missed <= MAX_MISSED:
            raise PaceError("max_missed", f"'max_missed' is 1 to {MAX_MISSED}")
        if self.after_missed not in AFTER_MISSED:
            raise PaceError("after_missed", f"'after_missed' is one of {', '.join(AFTER_MISSED)}")
        zone(self.time_zone)  # PaceError for a zone not known here

    @property
    def by_turns(self) -> bool:
        """Is the game played by turns (deadlines per decision)?"""
        return self.mode == BY_TURNS

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Pace:
        """The pace a lobby's ``settings`` hold (a lobby without one is live)."""
        stored = settings.get("pace")
        return cls(**stored) if isinstance(stored, dict) else cls()

    def settings(self) -> dict[str, Any]:
        """This pace as a lobby's settings keep it (and the API shows it)."""
        return dataclasses.asdict(self)

    def deadline(self, start: datetime, seconds: float | None = None) -> datetime:
        """The deadline of a decision asked at ``start`` (``seconds`` of counted time: the
        pace's deadline unless given)."""
        given = self.deadline_seconds if seconds is None else seconds
        if not self.skip_weekends:
            return start + timedelta(seconds=given)
        return weekday_deadline(start, given, zone(self.time_zone))

    def counted(self, start: datetime, end: datetime) -> float:
        """The seconds of deadline time from ``start`` to ``end`` (weekends left out when the
        pace skips them; 0 when ``end`` is not later)."""
        if end <= start:
            return 0.0
        if not self.skip_weekends:
            return (end - start).total_seconds()
        return weekday_seconds(start, end, zone(self.time_zone))

    @property
    def vacation_seconds(self) -> float:
        """A person's whole vacation allowance, in seconds."""
        return float(self.vacation_days * DAY)


def zone(name: str) -> tzinfo:
    """The time zone ``name`` (an IANA name such as ``Europe/Paris``; PaceError otherwise)."""
    if name == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise PaceError(
            "time_zone", f"'time_zone' is an IANA time zone such as Europe/Paris, not {name!r}"
        ) from exc


def _span(moment: datetime, where: tzinfo) -> tuple[bool, datetime]:
    """Whether ``moment`` is in a weekend (Saturday and Sunday, local time in ``where``), and
    when that weekend ends (Monday 00:00) or, on a weekday, the next one starts (Saturday
    00:00), in UTC."""
    local = moment.astimezone(where)
    day = local.weekday()
    if day >= SATURDAY:
        boundary = local.date() + timedelta(days=7 - day)
    else:
        boundary = local.date() + timedelta(days=SATURDAY - day)
    return day >= SATURDAY, datetime.combine(boundary, time(0), tzinfo=where).astimezone(UTC)


def weekday_deadline(start: datetime, seconds: float, where: tzinfo) -> datetime:
    """``seconds`` of weekday time after ``start``: weekends (in ``where``) do not count."""
    moment, left = start.astimezone(UTC), seconds
    while True:
        weekend, until = _span(moment, where)
        if not weekend:
            room = (until - moment).total_seconds()
            if left <= room:
                return moment + timedelta(seconds=left)
            left -= room
        moment = until


def weekday_seconds(start: datetime, end: datetime, where: tzinfo) -> float:
    """The weekday seconds (weekends in ``where`` left out) from ``start`` to ``end``."""
    moment, end, counted = start.astimezone(UTC), end.astimezone(UTC), 0.0
    while moment < end:
        weekend, until = _span(moment, where)
        if not weekend:
            counted += (min(until, end) - moment).total_seconds()
        moment = until
    return counted


# ---------------------------------------------------------------------------------- records


@dataclasses.dataclass(frozen=True, slots=True)
class SeatDeadline:
    """One person's seat in a game by turns, as stored (``SeatPace``)."""

    house: str
    player_id: str | None
    asked_serial: int | None
    deadline_at: datetime | None
    lapsed: bool
    missed: int
    away: bool
    offer_token: str | None
    vacation_left: float
    vacation_since: datetime | None
    paused_left: float | None

    @classmethod
    def of(cls, row: SeatPace) -> SeatDeadline:
        """The record of the stored ``row`` (its times in UTC)."""
        return cls(
            house=row.house,
            player_id=row.player_id,
            asked_serial=row.asked_serial,
            deadline_at=as_utc(row.deadline_at) if row.deadline_at else None,
            lapsed=row.lapsed,
            missed=row.missed,
            away=row.away,
            offer_token=row.offer_token,
            vacation_left=row.vacation_left,
            vacation_since=as_utc(row.vacation_since) if row.vacation_since else None,
            paused_left=row.paused_left,
        )

    @property
    def vacation_ends(self) -> datetime | None:
        """When the vacation running now ends at the latest (its allowance used up)."""
        if self.vacation_since is None:
            return None
        return self.vacation_since + timedelta(seconds=self.vacation_left)

    def roster(self, seat: SeatInfo) -> dict[str, Any]:
        """What the roster message shows of this row's ``seat`` (public to every client):
        the deadlines and vacation only while the row's person holds it."""
        held = seat.player_id is not None and seat.player_id == self.player_id
        offered = seat.player_id is None and seat.open and self.offer_token
        running = held and self.asked_serial is not None and not self.lapsed
        ends = self.vacation_ends
        return {
            "deadline_at": self.deadline_at.isoformat() if running and self.deadline_at else None,
            "missed": self.missed if held else 0,
            "kept_by_ai": held and self.away,
            "vacation_until": ends.isoformat() if held and ends else None,
            "vacation_left": round(self.vacation_left) if held else None,
            "offer": f"/join#invite={self.offer_token}" if offered else None,
        }


UNSEEN: dict[str, Any] = {
    "deadline_at": None,
    "missed": 0,
    "kept_by_ai": False,
    "vacation_until": None,
    "vacation_left": None,
    "offer": None,
}
"""The roster's by-turns fields of a seat never asked yet."""


@dataclasses.dataclass(frozen=True, slots=True)
class MissedDeadline:
    """A deadline that passed: the person of ``house`` did not decide in time (the AI did),
    ``in_a_row`` deadlines now."""

    lobby_id: str
    game_id: str
    house: str
    player_id: str
    in_a_row: int
    at: datetime


MISSED_DEADLINE: list[Callable[[MissedDeadline], None]] = []
"""Called with every missed deadline, on the worker that runs the game, after it is on the
player's reliability record. A hook that fails is logged; the game goes on."""


def missed(event: MissedDeadline, store: HasEngine) -> None:
    """Put ``event`` on its player's reliability record (``ratings.record_missed_deadline``,
    in the database of ``store``) and tell every ``MISSED_DEADLINE`` hook; a failure is
    logged, the game goes on."""
    try:
        record_missed_deadline(store, event.lobby_id, event.player_id)
    except Exception:
        log.exception("the missed deadline of %s could not be recorded", event.player_id)
    for hook in list(MISSED_DEADLINE):
        try:
            hook(event)
        except Exception:
            log.exception("a missed-deadline hook failed for %s of %s", event.house, event.lobby_id)


# ---------------------------------------------------------------------------------- store


class PaceStore:
    """The ``online_seat_paces`` rows: each method one committed transaction; the changes the
    seat thread makes are conditional ``UPDATE``s (the decision still the one it read, no
    vacation started meanwhile on another worker), so they never undo a person's change."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def seats(self, lobby_id: str) -> dict[str, SeatDeadline]:
        """Every stored seat row of ``lobby_id``, by house."""
        with self._session() as session:
            rows = session.exec(select(SeatPace).where(SeatPace.lobby_id == lobby_id)).all()
            return {row.house: SeatDeadline.of(row) for row in rows}

    def _row(self, session: Session, lobby_id: str, house: str) -> SeatPace | None:
        query = select(SeatPace).where(SeatPace.lobby_id == lobby_id, SeatPace.house == house)
        return session.exec(query.with_for_update()).first()

    def fresh(self, lobby_id: str, house: str, player_id: str, pace: Pace) -> SeatDeadline:
        """The row of ``house`` for ``player_id``: a new one (no decision open, no miss, the
        whole vacation allowance) unless it already counts for that person."""
        try:
            return self._fresh(lobby_id, house, player_id, pace)
        except IntegrityError:  # made at the same time by another worker: it is there now
            return self._fresh(lobby_id, house, player_id, pace)

    def _fresh(self, lobby_id: str, house: str, player_id: str, pace: Pace) -> SeatDeadline:
        with self._session() as session, session.begin():
            row = self._row(session, lobby_id, house)
            if row is None:
                row = SeatPace(lobby_id=lobby_id, house=house)
                session.add(row)
            if row.player_id != player_id:
                row.player_id, row.asked_serial, row.deadline_at = player_id, None, None
                row.lapsed, row.missed, row.away, row.offer_token = False, 0, False, None
                row.vacation_left, row.vacation_since = pace.vacation_seconds, None
                row.paused_left = None
            session.flush()
            return SeatDeadline.of(row)

    def _update(self, lobby_id: str, house: str, *where: Any, **values: Any) -> bool:
        with self._session() as session, session.begin():
            result = session.execute(
                update(SeatPace)
                .where(col(SeatPace.lobby_id) == lobby_id, col(SeatPace.house) == house, *where)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def open_decision(self, lobby_id: str, house: str, serial: int, deadline: datetime) -> bool:
        """A decision of ``house`` is asked at state ``serial``, due at ``deadline`` (not if a
        vacation started meanwhile)."""
        return self._update(
            lobby_id,
            house,
            col(SeatPace.vacation_since).is_(None),
            asked_serial=serial,
            deadline_at=deadline,
            lapsed=False,
            paused_left=None,
        )

    def close_decision(self, lobby_id: str, house: str, serial: int, *, in_time: bool) -> None:
        """The decision asked at ``serial`` is made (``in_time``: by the person before its
        deadline, which ends the missed deadlines in a row) or no longer asked."""
        values: dict[str, Any] = {
            "asked_serial": None,
            "deadline_at": None,
            "lapsed": False,
            "paused_left": None,
        }
        if in_time:
            values["missed"] = 0
        self._update(lobby_id, house, col(SeatPace.asked_serial) == serial, **values)

    def lapse(self, lobby_id: str, house: str, serial: int, pace: Pace) -> int | None:
        """The deadline of the decision asked at ``serial`` passed: the AI decides it. The
        missed deadlines in a row now (None: nothing lapsed, the row changed meanwhile); with
        ``keep_ai`` reached, the AI keeps the seat (``away``)."""
        with self._session() as session, session.begin():
            row = self._row(session, lobby_id, house)
            if (
                row is None
                or row.asked_serial != serial
                or row.lapsed
                or row.vacation_since is not None
            ):
                return None
            row.lapsed, row.missed = True, row.missed + 1
            if row.missed >= pace.max_missed and pace.after_missed == KEEP_AI:
                row.away = True
            return row.missed

    def come_back(self, lobby_id: str, house: str, player_id: str) -> bool:
        """``player_id``, whose seat the AI kept, is back: the seat is theirs again (did it
        change?)."""
        return self._update(
            lobby_id,
            house,
            col(SeatPace.player_id) == player_id,
            col(SeatPace.away).is_(True),
            away=False,
            missed=0,
        )

    def offered(self, lobby_id: str, house: str, token: str) -> None:
        """The seat is offered to a new person with the invite ``token``."""
        self._update(lobby_id, house, offer_token=token)

    def start_vacation(
        self, lobby_id: str, house: str, player_id: str, pace: Pace, now: datetime
    ) -> SeatDeadline:
        """``player_id`` in ``house`` starts a vacation (LobbyState when none is left or one
        runs already): a running deadline pauses, what was left of it kept."""
        self.fresh(lobby_id, house, player_id, pace)
        with self._session() as session, session.begin():
            row = self._row(session, lobby_id, house)
            assert row is not None
            if row.vacation_since is not None:
                raise LobbyState("your vacation has already started")
            if row.vacation_left <= 0:
                raise LobbyState("no vacation is left for you in this game")
            row.vacation_since = now
            if row.asked_serial is not None and not row.lapsed and row.deadline_at is not None:
                row.paused_left = pace.counted(now, as_utc(row.deadline_at))
                row.deadline_at = None
            session.flush()
            return SeatDeadline.of(row)

    def end_vacation(self, lobby_id: str, house: str, pace: Pace, now: datetime) -> SeatDeadline:
        """The vacation of ``house`` ends at ``now`` (or when its allowance ran out, if that is
        earlier): the time is taken off the allowance; a paused deadline runs again with what
        was left of it. LobbyState when no vacation runs."""
        with self._session() as session, session.begin():
            row = self._row(session, lobby_id, house)
            if row is None or row.vacation_since is None:
                raise LobbyState("you are not on vacation")
            since = as_utc(row.vacation_since)
            end = min(now, since + timedelta(seconds=row.vacation_left))
            row.vacation_left = max(0.0, row.vacation_left - (end - since).total_seconds())
            row.vacation_since = None
            if row.paused_left is not None and row.asked_serial is not None:
                row.deadline_at = pace.deadline(end, row.paused_left)
            row.paused_left = None
            session.flush()
            return SeatDeadline.of(row)

    def acted_since(self, game_id: str, serial: int) -> list[tuple[int, str]]:
        """The actions of ``game_id`` stored after state ``serial``: (seq, house)."""
        with self._session() as session:
            rows = session.exec(
                select(ActionRecord.seq, ActionRecord.house).where(
                    ActionRecord.game_id == game_id, col(ActionRecord.seq) > serial
                )
            ).all()
            return [(seq, house) for seq, house in rows]


# ---------------------------------------------------------------------------------- turns


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """Who decides a person's seat's pending decision now (``ai``), and what happened to it
    in this pass: ``missed`` deadlines in a row when its deadline has just passed (0:
    none), ``offer`` when that made the seat offered to a new person."""

    ai: bool
    missed: int = 0
    offer: bool = False


class Turns:
    """The deadlines of the games by turns a worker runs (the seat thread's ``verdicts``,
    every pass) and the vacations people start and stop. ``clock``: the current time, UTC
    (tests inject one)."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] = utcnow) -> None:
        self.store = PaceStore(engine)
        self.clock = clock

    def verdicts(
        self,
        lobby: LobbyInfo,
        pace: Pace,
        game_id: str,
        serial: int,
        asked: Mapping[str, SeatInfo],
        seat_of: Callable[[str], str],
    ) -> tuple[dict[str, Verdict], bool]:
        """For each person's seat in ``asked`` (house: seat, asked to decide at state
        ``serial``): who decides now. Closes the decisions made since the last pass, opens
        new ones with their deadline, lets the AI decide those whose deadline passed and
        ends vacations whose allowance ran out. Also whether what the roster shows changed."""
        now = self.clock()
        rows = self.store.seats(lobby.id)
        changed = self._close(lobby.id, game_id, rows, asked, seat_of)
        verdicts: dict[str, Verdict] = {}
        for house, seat in asked.items():
            assert seat.player_id is not None
            row = rows.get(house)
            if row is None or row.player_id != seat.player_id:
                row = self.store.fresh(lobby.id, house, seat.player_id, pace)
                changed = True
            if row.away:
                verdicts[house] = Verdict(ai=True)
                continue
            ends = row.vacation_ends
            if ends is not None:
                if now < ends:
                    verdicts[house] = Verdict(ai=False)
                    continue
                row = self.store.end_vacation(lobby.id, house, pace, now)
                changed = True
            if row.asked_serial is None or row.deadline_at is None:
                self.store.open_decision(lobby.id, house, serial, pace.deadline(now))
                changed = True
                verdicts[house] = Verdict(ai=False)
            elif row.lapsed:
                verdicts[house] = Verdict(ai=True)
            elif now >= row.deadline_at:
                count = self.store.lapse(lobby.id, house, row.asked_serial, pace)
                changed = True
                if count is None:
                    verdicts[house] = Verdict(ai=False)
                    continue
                offer = count >= pace.max_missed and pace.after_missed == OFFER
                verdicts[house] = Verdict(ai=True, missed=count, offer=offer)
            else:
                verdicts[house] = Verdict(ai=False)
        return verdicts, changed

    def _close(
        self,
        lobby_id: str,
        game_id: str,
        rows: dict[str, SeatDeadline],
        asked: Mapping[str, SeatInfo],
        seat_of: Callable[[str], str],
    ) -> bool:
        """Close every open decision that its seat made (an action of the seat stored after
        it was asked) or that is no longer asked; ``rows`` follow. Did any close?"""
        open_rows = [r for r in rows.values() if r.asked_serial is not None]
        if not open_rows:
            return False
        first = min(r.asked_serial or 0 for r in open_rows)
        actions = self.store.acted_since(game_id, first)
        closed = False
        for row in open_rows:
            serial = row.asked_serial or 0
            acted = any(seq > serial and seat_of(h) == row.house for seq, h in actions)
            if acted or row.house not in asked:
                self.store.close_decision(
                    lobby_id, row.house, serial, in_time=acted and not row.lapsed
                )
                rows[row.house] = dataclasses.replace(
                    row,
                    asked_serial=None,
                    deadline_at=None,
                    lapsed=False,
                    paused_left=None,
                    missed=0 if acted and not row.lapsed else row.missed,
                )
                closed = True
        return closed

    def missed(self, event: MissedDeadline) -> None:
        """A deadline passed (``missed``: the record and the hooks)."""
        missed(event, self.store)

    def roster(self, lobby: LobbyInfo) -> dict[str, dict[str, Any]]:
        """What the roster shows of each seat of a game by turns (by house)."""
        rows = self.store.seats(lobby.id)
        return {
            s.house: rows[s.house].roster(s) if s.house in rows else dict(UNSEEN)
            for s in lobby.seats
        }

    def vacation(self, lobby: LobbyInfo, player_id: str, on: bool) -> SeatDeadline:
        """``player_id`` starts (``on``) or ends their vacation in ``lobby`` (LobbyState when
        the game is not by turns, allows no vacation, or they hold no seat in it)."""
        pace = Pace.of(lobby.settings)
        if not pace.by_turns:
            raise LobbyState("vacations are for games played by turns")
        if not pace.vacation_days:
            raise LobbyState("the host allows no vacation in this game")
        seat = lobby.seat_of(player_id)
        if seat is None:
            raise LobbyState("take a house first")
        now = self.clock()
        if on:
            return self.store.start_vacation(lobby.id, seat.house, player_id, pace, now)
        return self.store.end_vacation(lobby.id, seat.house, pace, now)
