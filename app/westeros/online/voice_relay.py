"""Table voice on one worker (issue 39; docs/online.md "Table voice"): the voice messages of
board sockets, checked against the seat authority and the game's voice room (``voice``), and
relayed.

Where the rooms live: one record per game that every worker reads and changes atomically —
a Redis key (``<prefix>:voice:<game>``, a JSON ``Room`` changed in a WATCH/MULTI
transaction) when the workers share Redis, a dict in memory for a single process. Rooms are
small and change only when someone joins, leaves, steps aside or is muted; a signal only
reads them. After every change the worker publishes the new room on the bus
(``voice_state``) and every worker sends it to its own board sockets of the game (newer
versions only). A message for one member (a signal, an aside request, ``closed``) goes to
the worker holding that member's socket (``voice_to``), directly when it is this one.

Seat authority (issue 35's, as actions and chat have it): every voice message reads the seats
from the store and is refused unless its socket speaks for its seat now; a signal is relayed
only if its target's player still holds the target's house, read again by the worker that
delivers it at that moment. A seat change rebinds every worker's sockets (``seats_changed``,
from the hub's ``_rebind``): a socket whose seat is gone is told ``closed`` at once, before it
is closed, and the room drops that member (every other socket gets the state without it)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from westeros.store.online import RUNNING

from .errors import NotYourSeat
from .records import LobbyInfo
from .turn import IceConfig, ice_servers
from .voice import (
    BadVoiceMessage,
    Member,
    NoGame,
    NotAllowed,
    NotMember,
    NotVoiceHost,
    Room,
    UnknownPeer,
    flag_field,
    signal_data,
    text_field,
)

if TYPE_CHECKING:
    from .hub import Conn, OnlineHub

T = TypeVar("T")
ROOM_TTL = 24 * 3600
"""Seconds a game's voice room is kept in Redis after its last change."""
KINDS = ("voice_state", "voice_to")
"""The bus messages of table voice."""


class Rooms(Protocol):
    """The voice rooms every worker of the server shares."""

    def read(self, game: str) -> Room: ...

    def change(self, game: str, change: Callable[[Room], T]) -> tuple[Room, T]: ...


class MemoryRooms:
    """The rooms of a single process."""

    def __init__(self) -> None:
        self._rooms: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def read(self, game: str) -> Room:
        with self._lock:
            stored = self._rooms.get(game)
        return Room.from_json(stored) if stored is not None else Room()

    def change(self, game: str, change: Callable[[Room], T]) -> tuple[Room, T]:
        """Apply ``change`` to a copy of the room and keep it (nothing kept if it raises)."""
        with self._lock:
            stored = self._rooms.get(game)
            room = Room.from_json(stored) if stored is not None else Room()
            result = change(room)
            room.version += 1
            self._rooms[game] = room.to_json()
        return room, result


class RedisRooms:
    """The rooms in the workers' shared Redis (redis-py's WATCH/MULTI ``transaction``)."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, game: str) -> str:
        return f"{self.prefix}:voice:{game}"

    def read(self, game: str) -> Room:
        raw = self.redis.get(self._key(game))
        return Room.from_json(json.loads(raw)) if raw is not None else Room()

    def change(self, game: str, change: Callable[[Room], T]) -> tuple[Room, T]:
        """Apply ``change`` to the room as stored, and store it unless another worker
        changed it meanwhile (then all again); nothing is stored if ``change`` raises."""
        key = self._key(game)
        done: list[tuple[Room, T]] = []

        def attempt(pipe: Any) -> None:
            raw = pipe.get(key)
            room = Room.from_json(json.loads(raw)) if raw is not None else Room()
            result = change(room)
            room.version += 1
            pipe.multi()
            pipe.set(key, json.dumps(room.to_json()), ex=ROOM_TTL)
            done[:] = [(room, result)]

        self.redis.transaction(attempt, key)
        return done[0]


def make_rooms(bus: Any) -> Rooms:
    """The rooms of the workers sharing ``bus``: in Redis for a ``RedisBus``."""
    from .bus import RedisBus

    if isinstance(bus, RedisBus):
        return RedisRooms(bus.redis, bus.prefix)
    return MemoryRooms()


def closed(reason: str) -> dict[str, Any]:
    """The ``closed`` message: the server took the socket's member out of voice."""
    return {"type": "voice", "op": "closed", "reason": reason}


class VoiceRelay:
    """The voice side of one worker's hub (see the module docstring)."""

    def __init__(
        self, hub: OnlineHub, ice: IceConfig | None, clock: Callable[[], float] = time.time
    ) -> None:
        self.hub = hub
        self.ice = ice
        self.clock = clock
        self.worker = hub.bus.worker
        self.rooms = make_rooms(hub.bus)
        self._seen: dict[str, tuple[str, int]] = {}  # game: the last room state delivered here
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ requests
    def handle(self, conn: Conn, data: dict[str, Any]) -> None:
        """A voice message of board socket ``conn`` (a seat's or a spectator's): done, or
        refused with a ``VoiceError`` (or NotYourSeat) and nothing changed."""
        from .hub import speaks_for

        op = data.get("op")
        lobby = self.hub.lobby(conn.lobby_id)
        game = lobby.game_id
        if game is None or lobby.status != RUNNING:
            raise NoGame("table voice is open while the game runs")
        holders = self.hub.online.holders(lobby.id)
        house = speaks_for(conn, holders)
        if conn.player is not None and house is None:
            raise NotYourSeat("this seat is no longer yours")
        if op == "join":
            self._join(conn, lobby, game, house, holders)
        elif op == "leave":
            room, _ = self.rooms.change(game, lambda r: r.remove(self._member(conn, r)[0]))
            conn.voice = None
            self._publish(lobby.id, game, room)
        elif op == "signal":
            self._signal(conn, lobby, game, data, holders)
        elif op in ("aside", "aside_answer", "return"):
            if house is None:
                raise NotAllowed("spectators only listen: they cannot talk privately")
            self._aside(conn, lobby, game, house, data)
        elif op == "host_mute":
            self._host_mute(conn, lobby, game, data)
        else:
            raise BadVoiceMessage(f"unknown voice op {str(op)[:40]!r}")

    def _member(self, conn: Conn, room: Room) -> tuple[str, Member]:
        """``conn``'s member of ``room`` (NotMember if it has none)."""
        peer = conn.voice
        member = room.members.get(peer) if peer is not None else None
        if peer is None or member is None or (member.worker, member.conn) != (self.worker, conn.id):
            raise NotMember("this socket is not in table voice: join first")
        return peer, member

    def _join(
        self,
        conn: Conn,
        lobby: LobbyInfo,
        game: str,
        house: str | None,
        holders: dict[str, str | None],
    ) -> None:
        if house is None and not lobby.settings.get("spectators_hear", False):
            raise NotAllowed("the host has not let spectators hear the table")
        player = conn.player.id if conn.player is not None else None

        def join(room: Room) -> list[tuple[str, Member]]:
            gone = room.prune(holders)
            if conn.voice is not None and conn.voice in room.members:
                room.remove(conn.voice)
            replaced = room.remove_house(house) if house is not None else None
            peer = room.join(house, player, self.worker, conn.id)
            conn.voice = peer  # before any state with it is delivered, from any thread
            return [*gone, *([replaced] if replaced is not None else [])]

        room, gone = self.rooms.change(game, join)
        for old, member in gone:
            if member.conn != conn.id:
                reason = "left" if member.house == house else self._reason(member, holders)
                self._send(lobby.id, game, old, member, closed(reason))
        self._publish(lobby.id, game, room)

    def _signal(
        self,
        conn: Conn,
        lobby: LobbyInfo,
        game: str,
        data: dict[str, Any],
        holders: dict[str, str | None],
    ) -> None:
        to = text_field(data, "to")
        payload = signal_data(data.get("data"))
        room = self.rooms.read(game)
        peer, _ = self._member(conn, room)
        target = room.members.get(to)
        if target is None or (
            target.house is not None and holders.get(target.house) != target.player
        ):
            raise UnknownPeer(f"no member {to} in table voice now")
        if not room.linked(peer, to):
            raise NotAllowed("you and that member may not hear each other now")
        message = {"type": "voice", "op": "signal", "from": peer, "data": payload}
        self._send(lobby.id, game, to, target, message, holders)

    def _aside(
        self, conn: Conn, lobby: LobbyInfo, game: str, house: str, data: dict[str, Any]
    ) -> None:
        op = data["op"]
        if op == "return":

            def back(room: Room) -> None:
                self._member(conn, room)
                room.back_to_table(house)

            room, _ = self.rooms.change(game, back)
            self._publish(lobby.id, game, room)
            return
        other = text_field(data, "to")
        if op == "aside":

            def ask(room: Room) -> str:
                self._member(conn, room)
                return room.ask_aside(house, other)

            room, peer = self.rooms.change(game, ask)
            message = {"type": "voice", "op": "aside_request", "from": house}
            self._send(lobby.id, game, peer, room.members[peer], message)
            return
        accept = flag_field(data, "accept")

        def answer(room: Room) -> str | None:
            self._member(conn, room)
            return room.answer_aside(house, other, accept)

        room, asker = self.rooms.change(game, answer)
        if asker is not None:
            message = {"type": "voice", "op": "aside_refused", "by": house}
            self._send(lobby.id, game, asker, room.members[asker], message)
        else:
            self._publish(lobby.id, game, room)

    def _host_mute(self, conn: Conn, lobby: LobbyInfo, game: str, data: dict[str, Any]) -> None:
        if conn.player is None or conn.player.id != lobby.host_id:
            raise NotVoiceHost("only the host mutes people in table voice")
        house = text_field(data, "house")
        muted = flag_field(data, "muted")
        if lobby.seat(house) is None:
            raise UnknownPeer(f"{house} does not play in this game")
        room, _ = self.rooms.change(game, lambda r: r.set_muted(house, muted))
        self._publish(lobby.id, game, room)

    # ------------------------------------------------------------------ the hub's events
    def opened(self, conn: Conn) -> None:
        """A board socket opened: the game's voice as it is (it is not a member)."""
        lobby = self.hub.lobby(conn.lobby_id)
        if lobby.game_id is not None:
            conn.deliver(self.rooms.read(lobby.game_id).state(None, []))

    def disconnected(self, conn: Conn) -> None:
        """A board socket closed: its member leaves."""
        peer = conn.voice
        if peer is None:
            return
        conn.voice = None
        lobby = self.hub.lobby(conn.lobby_id)
        if lobby.game_id is None:
            return

        def leave(room: Room) -> bool:
            member = room.members.get(peer)
            if member is None or (member.worker, member.conn) != (self.worker, conn.id):
                return False
            return room.remove(peer) is not None

        room, left = self.rooms.change(lobby.game_id, leave)
        if left:
            self._publish(lobby.id, lobby.game_id, room)

    def seats_changed(self, lobby: LobbyInfo, holders: dict[str, str | None]) -> None:
        """The seats of ``lobby`` changed (on this worker or another): each socket of this
        worker that no longer speaks for its member's seat is told ``closed`` at once, and
        the room drops every member whose player no longer holds its house."""
        from .hub import speaks_for

        game = lobby.game_id
        if game is None:
            return
        for conn in self.hub.board_conns(lobby.id):
            player = conn.player
            if conn.voice is not None and player is not None and speaks_for(conn, holders) is None:
                conn.voice = None
                conn.deliver(closed("seat" if player.id in holders.values() else "kicked"))
        room = self.rooms.read(game)
        if not any(m.house and holders.get(m.house) != m.player for m in room.members.values()):
            return
        room, gone = self.rooms.change(game, lambda r: r.prune(holders))
        for peer, member in gone:
            self._send(lobby.id, game, peer, member, closed(self._reason(member, holders)))
        if gone:
            self._publish(lobby.id, game, room)

    def stopped(self, lobby: LobbyInfo) -> None:
        """The game stopped or ended: every member of this worker is told ``closed``, the
        room is emptied."""
        game = lobby.game_id
        if game is None:
            return
        for conn in self.hub.board_conns(lobby.id):
            if conn.voice is not None:
                conn.voice = None
                conn.deliver(closed("stopped"))
        if not self.rooms.read(game).members:
            return

        def empty(room: Room) -> None:
            room.members.clear()
            room.asides.clear()
            room.requests.clear()

        room, _ = self.rooms.change(game, empty)
        self._publish(lobby.id, game, room)

    def on_bus(self, message: dict[str, Any]) -> None:
        """A voice message another worker published."""
        if message["kind"] == "voice_state":
            room = Room.from_json(message["room"])
            self._deliver_state(message["lobby"], message["game"], room)
        elif message["worker"] == self.worker:
            self._deliver_to(message["lobby"], message["conn"], message["peer"], message["message"])

    # ------------------------------------------------------------------ delivery
    @staticmethod
    def _reason(member: Member, holders: dict[str, str | None]) -> str:
        """Why the server removed ``member``: its player moved seat, or lost it."""
        return "seat" if member.player in holders.values() else "kicked"

    def _send(
        self,
        lobby_id: str,
        game: str,
        peer: str,
        member: Member,
        message: dict[str, Any],
        holders: dict[str, str | None] | None = None,
    ) -> None:
        """``message`` to ``member``'s socket: here, or through the bus to its worker."""
        if member.worker == self.worker:
            self._deliver_to(lobby_id, member.conn, peer, message, holders)
            return
        self.hub.bus.publish(
            game,
            {
                "kind": "voice_to",
                "lobby": lobby_id,
                "worker": member.worker,
                "conn": member.conn,
                "peer": peer,
                "message": message,
            },
        )

    def _deliver_to(
        self,
        lobby_id: str,
        conn_id: str,
        peer: str,
        message: dict[str, Any],
        holders: dict[str, str | None] | None = None,
    ) -> None:
        """Deliver ``message`` to this worker's socket ``conn_id`` if it is still member
        ``peer`` and (but for ``closed``) still speaks for its seat, read now unless
        ``holders`` were just read."""
        from .hub import speaks_for

        conn = next((c for c in self.hub.board_conns(lobby_id) if c.id == conn_id), None)
        if conn is None or conn.voice != peer:
            return
        if message["op"] == "closed":
            conn.voice = None
        elif conn.player is not None:
            seats = holders if holders is not None else self.hub.online.holders(lobby_id)
            if speaks_for(conn, seats) is None:
                return
        conn.deliver(message)

    def _publish(self, lobby_id: str, game: str, room: Room) -> None:
        """Tell every worker (this one first) the room as it is now."""
        self._deliver_state(lobby_id, game, room)
        self.hub.bus.publish(
            game, {"kind": "voice_state", "lobby": lobby_id, "game": game, "room": room.to_json()}
        )

    def _deliver_state(self, lobby_id: str, game: str, room: Room) -> None:
        """Send ``room``'s state to this worker's board sockets of the game, unless a newer
        one was sent already (ICE servers only to each socket's own member)."""
        with self._lock:
            epoch, version = self._seen.get(game, ("", -1))
            if epoch == room.epoch and version >= room.version:
                return
            self._seen[game] = (room.epoch, room.version)
            now = self.clock()
            for conn in self.hub.board_conns(lobby_id):  # in order: under the lock
                peer = conn.voice
                member = room.members.get(peer) if peer is not None else None
                if member is None or (member.worker, member.conn) != (self.worker, conn.id):
                    # Not a member of this version (an older one may be delivered while the
                    # socket joins from another thread): a state without "you", nothing
                    # forgotten; removals clear ``conn.voice`` where they happen.
                    peer = None
                ice: list[dict[str, Any]] = []
                if peer is not None and member is not None:
                    ice = ice_servers(self.ice, lobby_id, member.house or peer, now)
                conn.deliver(room.state(peer, ice))
