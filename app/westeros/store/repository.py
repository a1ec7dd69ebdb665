"""The repository the game session calls (DESIGN §5): create a game, append each accepted action
in its own committed transaction, write snapshots, load a game from its latest snapshot and the
rest of its log, list, delete, export and import games, and keep player profiles and settings.

Snapshots are taken at the start of every round (and when the game ends), in the same
transaction as the action that led there, so a crash never leaves one without the other. A
snapshot records the state hash, round, public view (``player_view(state, None)``) and the
whole state in the engine's versioned encoding (``westeros.engine.encoding``), under
``SNAPSHOT_SCHEMA_VERSION``. Never a pickle nor a class path: that would tie saves to the
engine's class layout, and unpickling could run arbitrary code.

Loading resumes from the latest snapshot whose hash is the one the log recorded at that point
and whose state decodes to that very hash, then replays the rest of the log, checking the
recorded hash after every action. A snapshot that this engine cannot read (another version)
is skipped for an older one, down to the first state; a snapshot whose hash contradicts the
log makes the game corrupt. Export replays the whole log from the first state. A game stored
before the state encoding (hash format 1) is upgraded the first time it is read
(``legacy``).

The store never loads plugins: ``rulesets`` (``westeros.saves.ruleset_for``) is passed in and
each game's Ruleset is built once per set of plugins and options (``RULESET_CACHE``)."""

from __future__ import annotations

import functools
import json
import logging
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, insert, text, update
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

import westeros
from westeros.engine import Action, Ruleset, State, encoding, player_view

from . import archive, db, legacy, listing
from .errors import (
    CorruptGame,
    DuplicateAction,
    GameNotFound,
    InvalidSetup,
    NameTaken,
    OutOfSequence,
    ProfileNotFound,
    StoreError,
)
from .models import (
    ACTIVE,
    FINISHED,
    HASH_FORMAT,
    SEAT_KINDS,
    ActionRecord,
    DealBookRecord,
    Game,
    GamePlugin,
    Profile,
    Seat,
    Setting,
    Snapshot,
    as_utc,
    utcnow,
)
from .records import DamagedGame, GameInfo, GameSetup, LoadedGame, ProfileInfo, SeatSpec
from .replay import LogEntry, Rulesets, replay, start

logger = logging.getLogger("westeros.store")

SNAPSHOT_SCHEMA_VERSION = 3
"""3: the state in ``westeros.engine.encoding``; 2 (class paths) and 1 (no state) are ignored."""
RULESET_CACHE = 8
DAMAGED_KEY = "damaged:"
"""Settings key (``damaged:<game id>``) holding why a game did not load (CorruptGame): the
game is listed as damaged and not with the games to continue, until it loads again or is
deleted (issue 35 finding 1)."""


class SnapshotMark(NamedTuple):
    """Where a snapshot was taken and the state hash it recorded."""

    seq: int
    state_hash: str


def _info(game: Game, plugins: Sequence[GamePlugin], seats: Sequence[Seat]) -> GameInfo:
    setup = GameSetup(
        players=game.players,
        seats=tuple(
            SeatSpec(s.house, s.kind, s.name, s.profile_id, s.personality)
            for s in sorted(seats, key=lambda s: s.position)
        ),
        seed=game.seed,
        plugins=tuple((p.name, p.version) for p in sorted(plugins, key=lambda p: p.position)),
        options=dict(game.options),
        name=game.name,
    )
    return GameInfo(
        id=game.id,
        setup=setup,
        status=game.status,
        round=game.round,
        winner=game.winner,
        action_count=game.action_count,
        engine_version=game.engine_version,
        created_at=as_utc(game.created_at),
        updated_at=as_utc(game.updated_at),
    )


def _profile(profile: Profile) -> ProfileInfo:
    assert profile.id is not None
    return ProfileInfo(
        id=profile.id,
        name=profile.name,
        settings=dict(profile.settings),
        created_at=as_utc(profile.created_at),
        updated_at=as_utc(profile.updated_at),
    )


def _check_setup(setup: GameSetup) -> None:
    if isinstance(setup.seed, bool) or not isinstance(setup.seed, int | str):
        raise InvalidSetup("the seed must be a whole number or a text")
    if len(setup.seats) != setup.players:
        raise InvalidSetup(f"{setup.players} players need {setup.players} seats")
    houses = [s.house for s in setup.seats]
    if len(set(houses)) != len(houses):
        raise InvalidSetup("two seats play the same house")
    for seat in setup.seats:
        if seat.kind not in SEAT_KINDS:
            raise InvalidSetup(f"seat {seat.house}: kind must be one of {', '.join(SEAT_KINDS)}")
    if not setup.plugins:
        raise InvalidSetup("a game needs at least one plugin (the base game)")


def _summarise(game: Game, state: State) -> None:
    game.round = state.round
    game.winner = state.winner
    game.status = FINISHED if state.winner is not None else ACTIVE
    game.updated_at = utcnow()


def _versions_hint(info: GameInfo, rules: Ruleset) -> str:
    """What changed since the game was saved (the likeliest reason it no longer replays)."""
    changes = []
    if info.engine_version != westeros.__version__:
        changes.append(f"Westeros {info.engine_version} -> {westeros.__version__}")
    now = dict(rules.plugins)
    changes += [
        f"{name} {version} -> {now[name]}"
        for name, version in info.setup.plugins
        if name in now and now[name] != version
    ]
    return f" (saved with other versions: {', '.join(changes)})" if changes else ""


def _cannot_load_prefix(game_id: str) -> str:
    """How the reason a game cannot be loaded begins."""
    return f"game {game_id!r} cannot be loaded: "


def _cannot_load(game_id: str, info: GameInfo, rules: Ruleset, exc: CorruptGame) -> CorruptGame:
    """``exc`` as the reason ``game_id`` cannot be loaded, with what changed since it was
    saved."""
    prefix = _cannot_load_prefix(game_id)
    return CorruptGame(f"{prefix}{str(exc).removeprefix(prefix)}{_versions_hint(info, rules)}")


def _snapshot(game_id: str, seq: int, state: State) -> Snapshot:
    try:
        encoded: dict[str, Any] | None = encoding.encode_state(state)
    except encoding.EncodingError as exc:
        logger.warning("game %s: snapshot %s holds no state (%s)", game_id, seq, exc)
        encoded = None
    return Snapshot(
        game_id=game_id,
        seq=seq,
        schema_version=SNAPSHOT_SCHEMA_VERSION,
        state_hash=state.hash(),
        round=state.round,
        view=player_view(state, None),
        state=encoded,
    )


def _round_starts(game: Game, state: State) -> bool:
    """Does ``state`` (about to be recorded for ``game``) start a round or end the game?"""
    return state.round != game.round or (state.winner is not None and game.winner is None)


class GameStore:
    """Games, their logs, snapshots, profiles and settings in one database.

    Every method runs in its own transaction, committed before it returns; on any error the
    transaction is rolled back. ``rulesets(plugins, options)`` builds a game's Ruleset
    (``westeros.saves.ruleset_for`` refuses games whose plugins are missing); each is built
    once and kept for the next game with the same plugins and options."""

    def __init__(self, engine: Engine, *, rulesets: Rulesets) -> None:
        self.engine = engine
        self.rulesets = rulesets
        self._rulesets: dict[str, Ruleset] = {}

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        schema: str | None = None,
        migrate: bool = True,
        rulesets: Rulesets,
    ) -> GameStore:
        """Open the database ``url`` (default: ``WESTEROS_DATABASE_URL`` or the SQLite file in
        the user data folder), upgrading its schema to the latest migration."""
        engine = db.create_db_engine(url, schema=schema)
        if migrate:
            db.migrate(engine)
        return cls(engine, rulesets=rulesets)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def ruleset(self, setup: GameSetup) -> Ruleset:
        """The Ruleset of a game with ``setup``'s plugins and options (built once, then kept)."""
        key = json.dumps([setup.plugins, dict(setup.options)], sort_keys=True, default=str)
        rules = self._rulesets.get(key)
        if rules is None:
            rules = self.rulesets(setup.plugins, setup.options)
            if len(self._rulesets) >= RULESET_CACHE:
                self._rulesets.pop(next(iter(self._rulesets)))
            self._rulesets[key] = rules
        return rules

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    # ------------------------------------------------------------------ games
    def create_game(self, setup: GameSetup) -> LoadedGame:
        """Store a new game and return it with its first state.

        The setup is checked by the engine itself (the plugins must load, the seats must be the
        houses of a game for that many players); snapshot 0 records the first state."""
        _check_setup(setup)
        rules = self.ruleset(setup)
        state = start(rules, setup.players, setup.seed, setup.options, InvalidSetup)
        if sorted(s.house for s in setup.seats) != sorted(state.setup.seated_houses()):
            raise InvalidSetup(
                f"the seats must be the houses of a {setup.players}-player game: "
                f"{', '.join(state.setup.seated_houses())}"
            )
        game_id = str(uuid.uuid4())
        try:
            with self._transaction() as session:
                game = self._insert_game(session, game_id, setup, westeros.__version__)
                _summarise(game, state)
                session.add(_snapshot(game_id, 0, state))
                session.flush()
                info = self._info(session, game)
        except IntegrityError as exc:
            raise InvalidSetup(f"the game could not be stored: {exc.orig}") from exc
        return LoadedGame(info, state)

    @staticmethod
    def _insert_game(session: Session, game_id: str, setup: GameSetup, engine_version: str) -> Game:
        game = Game(
            id=game_id,
            name=setup.name,
            players=setup.players,
            seed=setup.seed,
            options=dict(setup.options),
            engine_version=engine_version,
        )
        session.add(game)
        session.flush()
        session.add_all(
            GamePlugin(game_id=game_id, position=i, name=name, version=version)
            for i, (name, version) in enumerate(setup.plugins)
        )
        session.add_all(
            Seat(
                game_id=game_id,
                position=i,
                house=s.house,
                kind=s.kind,
                name=s.name,
                profile_id=s.profile_id,
                personality=s.personality,
            )
            for i, s in enumerate(setup.seats)
        )
        return game

    @staticmethod
    def _game(session: Session, game_id: str, *, lock: bool = False) -> Game:
        query = select(Game).where(Game.id == game_id)
        try:
            game = session.exec(query.with_for_update() if lock else query).first()
        except (ValueError, TypeError) as exc:
            raise CorruptGame(
                f"game {game_id!r} is damaged: {listing.damage(session, game_id)}"
            ) from exc
        if game is None:
            raise GameNotFound(f"no game {game_id!r}")
        return game

    @staticmethod
    def _info(session: Session, game: Game) -> GameInfo:
        plugins = session.exec(select(GamePlugin).where(GamePlugin.game_id == game.id)).all()
        seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
        return _info(game, plugins, seats)

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
        """Append action number ``seq`` (from 1, no gaps) that ``house`` sent and that led to
        ``state``, and commit it, with a snapshot when ``state`` starts a round or ends the
        game. The log is append-only: a number already used raises DuplicateAction, a gap
        OutOfSequence. ``digest`` is ``state.hash()`` when the caller has it already."""
        digest = state.hash() if digest is None else digest
        if self._append_in_one_statement(game_id, seq, house, action, state, digest):
            return
        try:
            with self._transaction() as session:
                game = self._game(session, game_id, lock=True)
                if game.hash_format != HASH_FORMAT:
                    raise OutOfSequence(
                        f"game {game_id!r} is stored in an older format; load it (which "
                        "upgrades it) before appending actions"
                    )
                if seq <= game.action_count:
                    raise DuplicateAction(
                        f"game {game_id!r} already has action {seq}; the log is append-only"
                    )
                if seq != game.action_count + 1:
                    raise OutOfSequence(
                        f"game {game_id!r}: the next action is {game.action_count + 1}, not {seq}"
                    )
                session.add(
                    ActionRecord(
                        game_id=game_id,
                        seq=seq,
                        house=house,
                        action=action.to_json(),
                        state_hash=digest,
                    )
                )
                if _round_starts(game, state):
                    session.add(_snapshot(game_id, seq, state))
                game.action_count = seq
                _summarise(game, state)
        except IntegrityError as exc:
            raise DuplicateAction(
                f"game {game_id!r}: action {seq} was stored by someone else first"
            ) from exc

    def _append_in_one_statement(
        self, game_id: str, seq: int, house: str, action: Action, state: State, digest: str
    ) -> bool:
        """``append_action`` in one statement committed on its own (PostgreSQL): the game row
        moves to ``seq`` and the action is inserted only if ``seq`` is the next action, the
        game is in the current hash format and ``state`` starts no round and ends no game (no
        snapshot is due). False when any of that does not hold, and then nothing changed: the
        caller takes the general path, which writes the snapshot or raises the right error.
        One round trip instead of five (begin, lock, insert, update, commit) per action."""
        if self.engine.dialect.name != "postgresql" or state.winner is not None:
            return False
        values = {
            "a_game_id": game_id,
            "a_previous": seq - 1,
            "a_seq": seq,
            "a_hash_format": HASH_FORMAT,
            "a_round": state.round,
            "a_status": ACTIVE,
            "a_house": house,
            "a_action": action.to_json(),
            "a_digest": digest,
            "a_now": utcnow(),
        }
        try:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as db:
                return db.execute(_append_statement(), values).first() is not None
        except IntegrityError as exc:
            raise DuplicateAction(
                f"game {game_id!r}: action {seq} was stored by someone else first"
            ) from exc

    def write_snapshot(self, game_id: str, seq: int, state: State) -> None:
        """Record ``state`` (reached after ``seq`` actions) as a replay point. It must be the
        state the log recorded there (OutOfSequence otherwise); a snapshot already taken at
        ``seq`` is replaced."""
        digest = state.hash()
        with self._transaction() as session:
            game = self._game(session, game_id)
            if not 0 <= seq <= game.action_count:
                raise OutOfSequence(
                    f"game {game_id!r} has {game.action_count} actions; no snapshot at {seq}"
                )
            if seq > 0:
                record = session.get(ActionRecord, (game_id, seq))
                expected = record.state_hash if record is not None else None
            else:
                first = session.get(Snapshot, (game_id, 0))
                expected = first.state_hash if first is not None else digest
            if expected != digest:
                raise OutOfSequence(
                    f"game {game_id!r}: the state is not the one the log reached after {seq} "
                    "actions"
                )
            session.merge(_snapshot(game_id, seq, state))

    def game(self, game_id: str) -> GameInfo:
        """The stored record of a game (no replay)."""
        with self._transaction() as session:
            return self._info(session, self._game(session, game_id))

    @contextmanager
    def _consistent_read(self) -> Iterator[Session]:
        """A transaction whose reads all see the database as of one moment, whatever other
        threads or processes commit meanwhile: REPEATABLE READ on PostgreSQL; on SQLite an
        explicit BEGIN (pysqlite would run each SELECT as a transaction of its own)."""
        with self._transaction() as session:
            backend = self.engine.dialect.name
            if backend == "postgresql":
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            elif backend == "sqlite":
                raw = session.connection().connection.dbapi_connection
                if raw is not None and not raw.in_transaction:  # (a shared in-memory one may be)
                    session.execute(text("BEGIN"))
            yield session

    @contextmanager
    def _reading(
        self, game_id: str
    ) -> Iterator[tuple[Session, GameInfo, tuple[LogEntry, ...], list[SnapshotMark]]]:
        """One consistent read (``_consistent_read``) of the game's record, log and current
        snapshot marks (without their states, which ``_snapshot_state`` reads in the same
        session); a game of hash format 1 is upgraded first."""
        while True:
            with self._consistent_read() as session:
                game = self._game(session, game_id)
                info = self._info(session, game)
                log = listing.read_log(session, game_id)
                if [e.seq for e in log] != list(range(1, info.action_count + 1)):
                    raise CorruptGame(f"game {game_id!r}: the action log has gaps")
                if game.hash_format == HASH_FORMAT:
                    marks = session.exec(
                        select(Snapshot.seq, Snapshot.state_hash)
                        .where(
                            Snapshot.game_id == game_id,
                            Snapshot.schema_version == SNAPSHOT_SCHEMA_VERSION,
                        )
                        .order_by(col(Snapshot.seq))
                    ).all()
                    yield session, info, log, [SnapshotMark(seq, digest) for seq, digest in marks]
                    return
                old_format = game.hash_format
                legacy_snapshots = session.exec(
                    select(Snapshot).where(Snapshot.game_id == game_id)
                ).all()
            self._upgrade(info, log, old_format, legacy_snapshots)

    @staticmethod
    def _snapshot_state(session: Session, game_id: str, seq: int) -> Any:
        """The encoded state of snapshot ``seq`` (read only for the snapshot resumed from)."""
        return session.exec(
            select(Snapshot.state).where(Snapshot.game_id == game_id, Snapshot.seq == seq)
        ).first()

    def _upgrade(
        self,
        info: GameInfo,
        log: tuple[LogEntry, ...],
        hash_format: int,
        snapshots: Sequence[Snapshot],
    ) -> None:
        """Rewrite a game of hash format 1 (``legacy``): replay it checking every old hash and
        snapshot, then record the new hashes and snapshots at the same points, in one
        transaction. CorruptGame when the log does not replay to its old hashes."""
        if hash_format != legacy.LEGACY_HASH_FORMAT:
            raise CorruptGame(f"game {info.id!r} records an unknown hash format {hash_format}")
        setup = info.setup
        rules = self.ruleset(setup)
        first = start(rules, setup.players, setup.seed, setup.options, CorruptGame)
        old = {s.seq: s.state_hash for s in snapshots}
        if 0 in old and legacy.hash_v1(first) != old[0]:
            raise CorruptGame(f"game {info.id!r}: its first state is not the one recorded")
        try:
            _, upgraded, kept = legacy.upgrade_log(first, log, CorruptGame, {0, *old})
        except CorruptGame as exc:
            raise CorruptGame(
                f"game {info.id!r} cannot be loaded: {exc}{_versions_hint(info, rules)}"
            ) from exc
        for seq, digest in old.items():
            if 0 < seq <= len(log) and log[seq - 1].state_hash != digest:
                raise CorruptGame(
                    f"game {info.id!r}: the snapshot after action {seq} differs from the log"
                )
        with self._transaction() as session:
            game = self._game(session, info.id, lock=True)
            if game.hash_format == HASH_FORMAT:
                return
            for entry in upgraded:
                record = session.get(ActionRecord, (info.id, entry.seq))
                assert record is not None
                record.state_hash = entry.state_hash
            session.exec(delete(Snapshot).where(col(Snapshot.game_id) == info.id))
            session.add_all(_snapshot(info.id, seq, state) for seq, state in sorted(kept.items()))
            game.hash_format = HASH_FORMAT
        logger.info("game %s: upgraded from hash format %s", info.id, hash_format)

    def _resume_point(
        self,
        session: Session,
        info: GameInfo,
        log: Sequence[LogEntry],
        snapshots: Sequence[SnapshotMark],
        rules: Ruleset,
    ) -> tuple[int, State] | None:
        """The latest snapshot to resume from: (seq, its state), or None for the first state.

        A snapshot whose hash is not the one the log recorded there is corruption (raised);
        one whose state this engine cannot read back to that hash is skipped (logged)."""
        for snap in sorted(snapshots, key=lambda s: s.seq, reverse=True):
            if snap.seq == 0 or snap.seq > len(log):
                continue
            if log[snap.seq - 1].state_hash != snap.state_hash:
                raise CorruptGame(
                    f"game {info.id!r} cannot be loaded: the snapshot after action {snap.seq} "
                    "differs from the state the log recorded there"
                )
            data = self._snapshot_state(session, info.id, snap.seq)
            if data is None:
                continue
            try:
                state = encoding.decode_state(data, rules, info.setup.players)
            except encoding.EncodingError as exc:
                logger.warning("game %s: snapshot %s skipped (%s)", info.id, snap.seq, exc)
                continue
            if state.hash() != snap.state_hash:
                logger.warning(
                    "game %s: snapshot %s reads back to another state; skipped", info.id, snap.seq
                )
                continue
            return snap.seq, state
        return None

    def _rebuild(
        self, game_id: str, *, from_snapshot: bool = False
    ) -> tuple[GameInfo, tuple[LogEntry, ...], State, int]:
        """The game's latest state: (record, log, state, seq of the snapshot resumed from or
        0 when replayed from the first state). Everything is read in one consistent read."""
        with self._reading(game_id) as (session, info, entries, snapshots):
            rules = self.ruleset(info.setup)
            try:
                point = (
                    self._resume_point(session, info, entries, snapshots, rules)
                    if from_snapshot
                    else None
                )
            except CorruptGame as exc:
                raise _cannot_load(game_id, info, rules, exc) from exc
        setup = info.setup
        checkpoints = {s.seq: s.state_hash for s in snapshots}
        try:
            if point is None:
                point = 0, start(rules, setup.players, setup.seed, setup.options, CorruptGame)
            since, state = point
            later = {seq: digest for seq, digest in checkpoints.items() if seq >= since}
            state = replay(state, entries[since:], CorruptGame, later)
        except CorruptGame as exc:
            raise _cannot_load(game_id, info, rules, exc) from exc
        return info, entries, state, since

    def load_game(self, game_id: str) -> LoadedGame:
        """Rebuild a game from its latest readable snapshot and the actions after it, checking
        the recorded hash after every action (see the module docstring). Raises
        MissingPlugins when a plugin the game needs is not installed and CorruptGame when the
        log does not replay; such a game is remembered as damaged (``DAMAGED_KEY``) until it
        loads again."""
        try:
            info, _, state, since = self._rebuild(game_id, from_snapshot=True)
        except CorruptGame as exc:
            self._remember_damage(game_id, str(exc).removeprefix(_cannot_load_prefix(game_id)))
            raise
        self._forget_damage(game_id)
        return LoadedGame(info, state, since)

    def _remember_damage(self, game_id: str, reason: str) -> None:
        """Record that ``game_id`` does not load, and why (the game lists show it as damaged,
        never to continue). A game whose record cannot be read is listed so already; a
        database that cannot take the mark is logged, not raised: the caller is already
        reporting the damage."""
        try:
            with self._transaction() as session:
                self._game(session, game_id)
                session.merge(Setting(key=DAMAGED_KEY + game_id, value=reason))
        except StoreError:
            return
        except SQLAlchemyError:
            logger.exception("game %s: could not record that it is damaged", game_id)

    def _forget_damage(self, game_id: str) -> None:
        """A game that loads is no longer damaged (its plugins were put back, say)."""
        with self._transaction() as session:
            mark = session.get(Setting, DAMAGED_KEY + game_id)
            if mark is not None:
                session.delete(mark)
                logger.info("game %s loads again; no longer listed as damaged", game_id)

    def game_log(self, game_id: str) -> tuple[GameInfo, tuple[LogEntry, ...]]:
        """A game's record and its whole action log (for replays), without replaying it (a
        game of hash format 1 is upgraded first)."""
        with self._reading(game_id) as (_, info, entries, _):
            return info, entries

    def first_state(self, info: GameInfo) -> State:
        """The first state of a stored game, rebuilt from its setup and plugins."""
        setup = info.setup
        rules = self.ruleset(setup)
        return start(rules, setup.players, setup.seed, setup.options, CorruptGame)

    def list_games(self, *, status: str | None = None, limit: int | None = None) -> list[GameInfo]:
        """Stored games that can be read and were not found damaged on loading, most recently
        played first (the "Continue" / "Load game" list); ``damaged_games`` lists the
        others."""
        return self._scan(status, limit)[0]

    def damaged_games(self) -> list[DamagedGame]:
        """Stored games whose record or log cannot be read, or that did not load (their log
        does not replay: ``load_game``), each with the reason."""
        return self._scan(None, None)[1]

    def _scan(
        self, status: str | None, limit: int | None
    ) -> tuple[list[GameInfo], list[DamagedGame]]:
        with self._transaction() as session:
            marks = session.exec(
                select(Setting).where(col(Setting.key).startswith(DAMAGED_KEY, autoescape=True))
            )
            found = {m.key.removeprefix(DAMAGED_KEY): str(m.value) for m in marks}
            rows, damaged = listing.scan(session, status, limit, found)
            ids = [g.id for g in rows]
            plugins = session.exec(select(GamePlugin).where(col(GamePlugin.game_id).in_(ids)))
            seats = session.exec(select(Seat).where(col(Seat.game_id).in_(ids)))
            by_game: dict[str, tuple[list[GamePlugin], list[Seat]]] = {i: ([], []) for i in ids}
            for plugin in plugins:
                by_game[plugin.game_id][0].append(plugin)
            for seat in seats:
                by_game[seat.game_id][1].append(seat)
            return [_info(g, *by_game[g.id]) for g in rows], damaged

    def delete_game(self, game_id: str) -> None:
        """Delete a game with its log, snapshots, seats and plugin list (and its damage
        mark)."""
        with self._transaction() as session:
            self._game(session, game_id)
            session.exec(delete(Game).where(col(Game.id) == game_id))
            session.exec(delete(Setting).where(col(Setting.key) == DAMAGED_KEY + game_id))

    # ------------------------------------------------------------------ files
    def export_game(self, game_id: str) -> dict[str, Any]:
        """The game as one JSON-ready document (see ``archive.GameFile``). The game is replayed
        first, so a damaged game is reported now rather than when the file is imported."""
        info, entries, state, _ = self._rebuild(game_id)
        return archive.export_document(info, entries, state.hash(), utcnow())

    def export_json(self, game_id: str) -> str:
        """``export_game`` as JSON text."""
        return json.dumps(self.export_game(game_id), indent=1, ensure_ascii=False)

    def import_game(self, data: str | bytes) -> GameInfo:
        """Import a game file. Everything is checked before anything is written (shape,
        version, plugins, every action replayed and legal, every hash); then the game is
        written in one transaction. Raises InvalidGameFile, leaving the database untouched.
        The game keeps its id unless a stored game has it already."""
        valid = archive.validate(archive.parse(data), self.ruleset)
        with self._transaction() as session:
            taken = session.get(Game, valid.id) is not None
            game_id = str(uuid.uuid4()) if taken else valid.id
            setup = valid.setup
            game = self._insert_game(session, game_id, setup, valid.engine_version)
            game.action_count = len(valid.log)
            _summarise(game, valid.state)
            game.created_at = as_utc(valid.created_at)
            game.updated_at = as_utc(valid.updated_at)
            session.add_all(
                ActionRecord(
                    game_id=game_id,
                    seq=e.seq,
                    house=e.house,
                    action=e.action,
                    state_hash=e.state_hash,
                )
                for e in valid.log
            )
            session.add(_snapshot(game_id, len(valid.log), valid.state))
            session.flush()
            return self._info(session, game)

    # ------------------------------------------------------------------ profiles and settings
    def create_profile(self, name: str, settings: Mapping[str, Any] | None = None) -> ProfileInfo:
        """A new player profile; NameTaken if another profile has ``name``."""
        try:
            with self._transaction() as session:
                profile = Profile(name=name, settings=dict(settings or {}))
                session.add(profile)
                session.flush()
                return _profile(profile)
        except IntegrityError as exc:
            raise NameTaken(f"a profile named {name!r} exists already") from exc

    @staticmethod
    def _profile_row(session: Session, profile_id: int) -> Profile:
        profile = session.get(Profile, profile_id)
        if profile is None:
            raise ProfileNotFound(f"no profile {profile_id}")
        return profile

    def profile(self, profile_id: int) -> ProfileInfo:
        """One profile."""
        with self._transaction() as session:
            return _profile(self._profile_row(session, profile_id))

    def profiles(self) -> list[ProfileInfo]:
        """Every profile, by name."""
        with self._transaction() as session:
            rows = session.exec(select(Profile).order_by(col(Profile.name))).all()
            return [_profile(p) for p in rows]

    def update_profile(
        self,
        profile_id: int,
        *,
        name: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> ProfileInfo:
        """Rename a profile and/or replace its settings."""
        try:
            with self._transaction() as session:
                profile = self._profile_row(session, profile_id)
                if name is not None:
                    profile.name = name
                if settings is not None:
                    profile.settings = dict(settings)
                profile.updated_at = utcnow()
                session.flush()
                return _profile(profile)
        except IntegrityError as exc:
            raise NameTaken(f"a profile named {name!r} exists already") from exc

    def delete_profile(self, profile_id: int) -> None:
        """Delete a profile; seats it played keep their names and lose the link."""
        with self._transaction() as session:
            session.delete(self._profile_row(session, profile_id))

    def setting(self, key: str, default: Any = None) -> Any:
        """An application setting, or ``default`` when it was never set."""
        with self._transaction() as session:
            row = session.get(Setting, key)
            return default if row is None else row.value

    def set_setting(self, key: str, value: Any) -> None:
        """Set an application setting (any JSON value)."""
        with self._transaction() as session:
            session.merge(Setting(key=key, value=value))

    def settings(self) -> dict[str, Any]:
        """Every application setting."""
        with self._transaction() as session:
            rows = session.exec(select(Setting).order_by(col(Setting.key)))
            return {row.key: row.value for row in rows}

    def deal_book(self, game_id: str) -> dict[str, Any] | None:
        """The saved deal book of a game (``westeros.deals``), None if it has none."""
        with self._transaction() as session:
            row = session.get(DealBookRecord, game_id)
            return None if row is None else row.book

    def save_deal_book(self, game_id: str, book: Mapping[str, Any]) -> None:
        """Save the deal book of a game (GameNotFound if there is no such game)."""
        with self._transaction() as session:
            self._game(session, game_id)
            session.merge(DealBookRecord(game_id=game_id, book=dict(book), updated_at=utcnow()))


@functools.cache
def _append_statement() -> Any:
    """The statement of ``GameStore._append_in_one_statement``, built once (building it took
    longer than running it): every value is a bound parameter, named apart from the columns
    (parameters named as a column of the updated table would also be set on it)."""
    games, actions = listing.GAMES_TABLE, listing.ACTIONS_TABLE
    moved = (
        update(games)
        .where(
            games.c.id == bindparam("a_game_id"),
            games.c.action_count == bindparam("a_previous"),
            games.c.hash_format == bindparam("a_hash_format"),
            games.c.round == bindparam("a_round"),
            games.c.winner.is_(None),
        )
        .values(
            action_count=bindparam("a_seq"),
            status=bindparam("a_status"),
            updated_at=bindparam("a_now", type_=games.c.updated_at.type),
        )
        .returning(games.c.id)
        .cte("moved")
    )
    row = sa_select(
        moved.c.id,
        bindparam("a_seq", type_=actions.c.seq.type),
        bindparam("a_house", type_=actions.c.house.type),
        bindparam("a_action", type_=actions.c.action.type),
        bindparam("a_digest", type_=actions.c.state_hash.type),
        bindparam("a_now", type_=actions.c.created_at.type),
    )
    columns = ["game_id", "seq", "house", "action", "state_hash", "created_at"]
    return insert(actions).from_select(columns, row).returning(actions.c.seq)
