"""The voice room of an online game (issue 39; docs/protocol.md "Table voice"): who is in it,
who may hear whom, private talk (asides) and the host's mutes. Pure logic on a ``Room``: the
worker side (``voice_relay``) reads and changes rooms through ``Rooms`` and relays.

A member is a seat (its house and the player holding it when they joined) or a listen-only
spectator (``spectator:<n>``, only if the lobby lets spectators hear the table), joined from
one socket (its worker and connection id), under a peer id the server makes at every join.
Two members are *linked* (their browsers keep a peer connection and the server relays their
signalling) when both are at the table (neither in an aside, not both spectators) or they are
one aside pair. Nothing said is ever seen here: only signalling passes, never stored."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping
from typing import Any

import orjson

from .errors import OnlineError

MAX_DATA = 16 * 1024
"""The largest ``data`` of a signal (bytes of JSON): an SDP is a few KB."""
SPECTATOR = "spectator:"


class VoiceError(OnlineError):
    """A voice request refused; nothing changed."""

    code = "voice/refused"


class BadVoiceMessage(VoiceError):
    """A voice message of an unknown op or with a field of the wrong type."""

    code = "voice/bad-message"


class TooLarge(VoiceError):
    """A signal whose data is over MAX_DATA."""

    code = "voice/too-large"


class NotMember(VoiceError):
    """The socket is not (or no longer) in the game's voice."""

    code = "voice/not-member"


class UnknownPeer(VoiceError):
    """No member with that peer id or house now."""

    code = "voice/unknown-peer"


class NotAllowed(VoiceError):
    """The two may not hear each other now, or the socket may not do this."""

    code = "voice/not-allowed"
    status = 403


class NotVoiceHost(VoiceError):
    """Only the lobby's host mutes people."""

    code = "voice/not-host"
    status = 403


class NoGame(VoiceError):
    """Voice is for a running game."""

    code = "voice/no-game"


@dataclasses.dataclass(slots=True)
class Member:
    """One voice member: ``house`` (None: a spectator), the ``player`` who held that seat
    when they joined, and the socket (``worker``, ``conn``) they joined from."""

    house: str | None
    player: str | None
    worker: str
    conn: str

    @property
    def listen_only(self) -> bool:
        return self.house is None


@dataclasses.dataclass(slots=True)
class Room:
    """The voice of one game: ``version`` goes up at every change (workers deliver only
    newer states of the same ``epoch``: a room made anew has a new one), ``asides`` pairs of
    houses, ``requests`` pending aside requests (asker, asked), ``muted`` the houses the host
    muted, ``spectators`` how many spectators have joined (their ids' counter)."""

    version: int = 0
    epoch: str = dataclasses.field(default_factory=lambda: secrets.token_hex(4))
    members: dict[str, Member] = dataclasses.field(default_factory=dict)
    asides: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    requests: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    muted: list[str] = dataclasses.field(default_factory=list)
    spectators: int = 0

    # ------------------------------------------------------------------ reading
    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "epoch": self.epoch,
            "members": {p: dataclasses.asdict(m) for p, m in self.members.items()},
            "asides": [list(a) for a in self.asides],
            "requests": [list(r) for r in self.requests],
            "muted": list(self.muted),
            "spectators": self.spectators,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Room:
        return cls(
            version=int(data["version"]),
            epoch=str(data["epoch"]),
            members={p: Member(**m) for p, m in data["members"].items()},
            asides=[(a, b) for a, b in data["asides"]],
            requests=[(a, b) for a, b in data["requests"]],
            muted=list(data["muted"]),
            spectators=int(data["spectators"]),
        )

    def peer_of(self, house: str) -> str | None:
        """The peer id of ``house``'s member, if it has joined."""
        return next((p for p, m in self.members.items() if m.house == house), None)

    def aside_of(self, house: str | None) -> tuple[str, str] | None:
        return next((a for a in self.asides if house in a), None)

    def linked(self, a: str, b: str) -> bool:
        """May members ``a`` and ``b`` hear each other now (and so keep a peer connection)?
        Both at the table (not both spectators), or one aside pair."""
        first, second = self.members.get(a), self.members.get(b)
        if first is None or second is None or a == b:
            return False
        if first.listen_only and second.listen_only:
            return False
        pair = self.aside_of(first.house)
        if pair is not None or self.aside_of(second.house) is not None:
            return pair is not None and second.house in pair
        return True

    def state(self, you: str | None, ice_servers: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``state`` message for the socket whose member is ``you`` (None: not one)."""
        return {
            "type": "voice",
            "op": "state",
            "members": {
                p: {"house": m.house, "listen_only": m.listen_only} for p, m in self.members.items()
            },
            "asides": [list(a) for a in self.asides],
            "host_muted": sorted(self.muted),
            "you": you if you in self.members else None,
            "ice_servers": ice_servers if you in self.members else [],
        }

    # ------------------------------------------------------------------ changes
    def join(self, house: str | None, player: str | None, worker: str, conn: str) -> str:
        """A new member (a seat's, replacing that house's earlier member; or a spectator's):
        its new peer id. The caller checks who may join."""
        if house is not None:
            self.remove_house(house)
            peer = secrets.token_urlsafe(9)
        else:
            self.spectators += 1
            peer = f"{SPECTATOR}{self.spectators}"
        self.members[peer] = Member(house, player, worker, conn)
        return peer

    def remove(self, peer: str) -> Member | None:
        """Member ``peer`` leaves: its aside is dissolved, its aside requests dropped."""
        member = self.members.pop(peer, None)
        if member is not None and member.house is not None:
            self._drop_house(member.house)
        return member

    def remove_house(self, house: str) -> tuple[str, Member] | None:
        """The member of ``house`` leaves (if there is one): its peer id and entry."""
        peer = self.peer_of(house)
        if peer is None:
            return None
        member = self.remove(peer)
        assert member is not None
        return peer, member

    def _drop_house(self, house: str) -> None:
        self.asides = [a for a in self.asides if house not in a]
        self.requests = [r for r in self.requests if house not in r]

    def prune(self, holders: Mapping[str, str | None]) -> list[tuple[str, Member]]:
        """Remove the seat members whose player no longer holds their house (``holders``:
        house → player id, as stored now); the removed ones."""
        gone = [
            (p, m)
            for p, m in self.members.items()
            if m.house is not None and holders.get(m.house) != m.player
        ]
        for peer, _ in gone:
            self.remove(peer)
        return gone

    def ask_aside(self, asker: str, asked: str) -> str:
        """``asker`` asks ``asked`` to step aside: the peer id to tell."""
        if asker == asked:
            raise NotAllowed("you cannot step aside with yourself")
        peer = self.peer_of(asked)
        if peer is None:
            raise UnknownPeer(f"{asked} is not in table voice")
        for house in (asker, asked):
            if self.aside_of(house) is not None:
                raise NotAllowed(f"{house} is already talking privately")
        if (asker, asked) not in self.requests:
            self.requests.append((asker, asked))
        return peer

    def answer_aside(self, asked: str, asker: str, accept: bool) -> str | None:
        """``asked`` answers ``asker``'s request: the pair steps aside if ``accept``.
        Returns the asker's peer id to tell of a refusal (None when accepted)."""
        if (asker, asked) not in self.requests:
            raise NotAllowed(f"{asker} has not asked you to step aside")
        self.requests.remove((asker, asked))
        peer = self.peer_of(asker)
        if peer is None:
            raise UnknownPeer(f"{asker} is no longer in table voice")
        if not accept:
            return peer
        for house in (asker, asked):
            if self.aside_of(house) is not None:
                raise NotAllowed(f"{house} is already talking privately")
        self.asides.append((asker, asked))
        self.requests = [r for r in self.requests if asker not in r and asked not in r]
        return None

    def back_to_table(self, house: str) -> None:
        """``house`` leaves its private talk: the pair is dissolved."""
        pair = self.aside_of(house)
        if pair is None:
            raise NotAllowed("you are not talking privately")
        self.asides.remove(pair)

    def set_muted(self, house: str, muted: bool) -> None:
        """The host mutes (or unmutes) ``house`` at the table."""
        if muted and house not in self.muted:
            self.muted.append(house)
        elif not muted and house in self.muted:
            self.muted.remove(house)


def signal_data(data: object) -> dict[str, Any]:
    """A signal's ``data``: an object with an ``sdp`` or a ``candidate`` object, at most
    MAX_DATA bytes as JSON."""
    if not isinstance(data, dict) or len(data) != 1 or not ({"sdp", "candidate"} & set(data)):
        raise BadVoiceMessage('a signal\'s data is {"sdp": {...}} or {"candidate": {...}}')
    inner = next(iter(data.values()))
    if not isinstance(inner, dict) and inner is not None:
        raise BadVoiceMessage("a signal's sdp or candidate is an object")
    size = len(orjson.dumps(data))
    if size > MAX_DATA:
        raise TooLarge(f"a signal's data may have at most {MAX_DATA} bytes, not {size}")
    return data


def text_field(data: Mapping[str, Any], field: str) -> str:
    """Field ``field`` of a voice message: a short text."""
    value = data.get(field)
    if not isinstance(value, str) or not value or len(value) > 64:
        raise BadVoiceMessage(f"a voice {data.get('op')} message needs '{field}' (a text)")
    return value


def flag_field(data: Mapping[str, Any], field: str) -> bool:
    """Field ``field`` of a voice message: true or false."""
    value = data.get(field)
    if not isinstance(value, bool):
        raise BadVoiceMessage(f"a voice {data.get('op')} message needs '{field}' (true or false)")
    return value
