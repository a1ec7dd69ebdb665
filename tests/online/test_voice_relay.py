"""Table voice's signalling on a live online server (issue 39; docs/protocol.md "Table voice"):
three people of a running game join table voice over their real board sockets; the server
relays offers, answers and ICE candidates only between members who may hear each other now
(the table; an aside pair; a listening spectator only where the host allowed), only the host
mutes, every refusal is specific and changes nothing, and a seat change, kick or hand-back
closes that person's voice at once (acceptance 3). A live server in this process, real
WebSockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from westeros.online.turn import IceConfig

from .seat_helpers import (
    LiveOnline,
    Person,
    anonymous_socket,
    live_online,
    receive_until,
    register,
    until_closed,
)

SECRET = "voice-test-secret"
TURN_URL = "turn:turn.example.test:3478?transport=udp"
CANDIDATE = {"candidate": "candidate:1 1 udp 2122260223 10.0.0.1 50000 typ host", "sdpMid": "0"}


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    ice = IceConfig(turn_urls=(TURN_URL,), turn_secret=SECRET, turn_ttl=600)
    with live_online(tmp_path, ice=ice) as live:
        yield live


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    with ExitStack() as stack:
        yield stack


class Table:
    """A running 3-player game: Hal (the host) in Stark, Bob in Lannister, Cat in Baratheon."""

    def __init__(self, server: LiveOnline, sockets: ExitStack, **settings: Any) -> None:
        self.server, self.sockets = server, sockets
        self.host, self.bob, self.cat = (register(server, n) for n in ("Hal", "Bob", "Cat"))
        body = {
            "players": 3,
            "house": "stark",
            "ai_level": "baseline",
            "grace_seconds": 600,
            **settings,
        }
        created = self.host.post("/api/lobbies", body)
        self.lobby_id = created["lobby"]["id"]
        for person, house in ((self.bob, "lannister"), (self.cat, "baratheon")):
            person.post("/api/join", {"invite": created["invites"][house].split("=", 1)[1]})
            person.post(f"/api/lobbies/{self.lobby_id}/ready", {"ready": True})
        self.game_id = self.host.post(f"/api/lobbies/{self.lobby_id}/start")["lobby"]["game_id"]

    def board(self, person: Person, house: str) -> Any:
        """``person``'s board socket of ``house``, read up to the voice state it opens with."""
        ws = self.sockets.enter_context(person.socket(f"/ws/games/{self.game_id}/seats/{house}"))
        voice_message(ws, "state")
        return ws

    def watcher(self) -> Any:
        """A spectator's socket, read up to the voice state it opens with."""
        ws = self.sockets.enter_context(
            anonymous_socket(self.server, f"/ws/games/{self.game_id}/watch")
        )
        voice_message(ws, "state")
        return ws

    def room(self) -> Any:
        """The game's voice room as the server keeps it."""
        return self.server.hub.voice.rooms.read(self.game_id)


def send(ws: Any, op: str, **fields: Any) -> None:
    ws.send(json.dumps({"type": "voice", "op": op, **fields}))


def voice_message(ws: Any, op: str) -> dict[str, Any]:
    """The next voice message ``op`` that ``ws`` receives."""
    found, _ = receive_until(ws, lambda m: m.get("type") == "voice" and m.get("op") == op)
    return found


def refusal(ws: Any) -> dict[str, Any]:
    """The next error ``ws`` receives."""
    found, _ = receive_until(ws, lambda m: m.get("type") == "error")
    return found


def join(ws: Any) -> dict[str, Any]:
    """Join table voice: the state that names this socket's member (``you``)."""
    send(ws, "join")
    found, _ = receive_until(
        ws, lambda m: m.get("type") == "error" or (m.get("op") == "state" and m.get("you"))
    )
    assert found["type"] == "voice", found
    return found


def signal_reaches(sender: Any, receiver: Any, to: str, tag: str) -> dict[str, Any]:
    """Send an offer tagged ``tag`` to peer ``to``: what ``receiver`` gets."""
    send(sender, "signal", to=to, data={"sdp": {"type": "offer", "sdp": tag}})
    found, _ = receive_until(
        receiver, lambda m: m.get("op") == "signal" and m["data"]["sdp"]["sdp"] == tag
    )
    return found


def refused(ws: Any, op: str, **fields: Any) -> str:
    """Send voice ``op``: the code of the error it is refused with."""
    send(ws, op, **fields)
    code: str = refusal(ws)["code"]
    return code


def test_three_seats_join_table_voice_and_each_signal_reaches_only_its_peer(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Acceptance 1 (server half): each of three seats joins; every socket of the game is
    told the members; only a member gets ICE servers, with a TURN credential for its own
    seat; an offer from Stark to Lannister reaches Lannister's socket, from Stark's peer."""
    table = Table(server, sockets)
    hal, bob, cat = (
        table.board(p, h)
        for p, h in ((table.host, "stark"), (table.bob, "lannister"), (table.cat, "baratheon"))
    )
    watcher = table.watcher()
    joined = [join(ws) for ws in (hal, bob, cat)]
    last = voice_message(watcher, "state")
    while len(last["members"]) < 3:
        last = voice_message(watcher, "state")
    assert sorted(m["house"] for m in last["members"].values()) == [
        "baratheon",
        "lannister",
        "stark",
    ]
    assert last["you"] is None and last["ice_servers"] == []
    peers = {state["members"][state["you"]]["house"]: state["you"] for state in joined}
    turn = joined[1]["ice_servers"][0]
    assert turn["urls"] == [TURN_URL]
    assert turn["username"].endswith(f":{table.lobby_id}:lannister")
    got = signal_reaches(hal, bob, peers["lannister"], "hal-to-bob")
    assert got["from"] == peers["stark"]
    send(bob, "signal", to=peers["stark"], data={"candidate": CANDIDATE})
    answer = voice_message(hal, "signal")
    assert answer == {
        "type": "voice",
        "op": "signal",
        "from": peers["lannister"],
        "data": {"candidate": CANDIDATE},
    }


def test_an_aside_pair_hears_only_each_other_until_one_returns(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Issue 39 "Private talk" (acceptance 2, server half): Stark asks Lannister aside;
    Lannister sees the request and accepts; every socket sees the pair in the state; the pair
    may still signal each other, Baratheon may signal neither (refused voice/not-allowed);
    once Stark returns, Baratheon's offer reaches Stark again. A refused request tells the
    asker who refused."""
    table = Table(server, sockets)
    hal, bob, cat = (
        table.board(p, h)
        for p, h in ((table.host, "stark"), (table.bob, "lannister"), (table.cat, "baratheon"))
    )
    peers = {
        s["members"][s["you"]]["house"]: s["you"] for s in (join(ws) for ws in (hal, bob, cat))
    }

    send(cat, "aside", to="stark")
    assert voice_message(hal, "aside_request") == {
        "type": "voice",
        "op": "aside_request",
        "from": "baratheon",
    }
    send(hal, "aside_answer", to="baratheon", accept=False)
    assert voice_message(cat, "aside_refused")["by"] == "stark"

    send(hal, "aside", to="lannister")
    assert voice_message(bob, "aside_request")["from"] == "stark"
    send(bob, "aside_answer", to="stark", accept=True)
    seen = voice_message(cat, "state")
    assert seen["asides"] == [["stark", "lannister"]]
    signal_reaches(hal, bob, peers["lannister"], "private")
    assert (
        refused(cat, "signal", to=peers["stark"], data={"sdp": {"type": "offer", "sdp": "x"}})
        == "voice/not-allowed"
    )
    assert (
        refused(hal, "signal", to=peers["baratheon"], data={"sdp": {"type": "offer", "sdp": "x"}})
        == "voice/not-allowed"
    )
    assert refused(cat, "aside", to="stark") == "voice/not-allowed"

    send(bob, "return")
    assert voice_message(cat, "state")["asides"] == []
    signal_reaches(cat, hal, peers["stark"], "back-at-the-table")


def test_a_spectator_listens_to_the_table_only_where_the_host_allows_and_never_to_an_aside(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Issue 39: spectators hear the table only if the host chose so (off by default:
    voice/not-allowed); allowed, a spectator joins listen-only ("spectator:1"), may answer a
    seat's offer at the table, may not ask anyone aside, and is cut off from a pair talking
    privately."""
    closed_table = Table(server, sockets)
    assert refused(closed_table.watcher(), "join") == "voice/not-allowed"
    assert closed_table.room().members == {}

    table = Table(server, sockets, spectators_hear=True)
    hal, bob = table.board(table.host, "stark"), table.board(table.bob, "lannister")
    peers = {s["members"][s["you"]]["house"]: s["you"] for s in (join(ws) for ws in (hal, bob))}
    watcher = table.watcher()
    state = join(watcher)
    assert state["you"] == "spectator:1"
    assert state["members"]["spectator:1"] == {"house": None, "listen_only": True}
    signal_reaches(hal, watcher, "spectator:1", "offer-to-spectator")
    signal_reaches(watcher, hal, peers["stark"], "answer-from-spectator")
    assert refused(watcher, "aside", to="stark") == "voice/not-allowed"

    send(hal, "aside", to="lannister")
    voice_message(bob, "aside_request")
    send(bob, "aside_answer", to="stark", accept=True)
    voice_message(watcher, "state")
    assert (
        refused(hal, "signal", to="spectator:1", data={"sdp": {"type": "offer", "sdp": "x"}})
        == "voice/not-allowed"
    )
    assert (
        refused(watcher, "signal", to=peers["lannister"], data={"candidate": CANDIDATE})
        == "voice/not-allowed"
    )


def test_only_the_host_mutes_a_house_at_the_table(server: LiveOnline, sockets: ExitStack) -> None:
    """Issue 39 "The host can mute a person in table voice": Bob's host_mute is refused
    voice/not-host and mutes nobody; the host's mute of Lannister reaches every socket's state
    and is lifted the same way."""
    table = Table(server, sockets)
    hal, bob = table.board(table.host, "stark"), table.board(table.bob, "lannister")
    join(hal), join(bob)
    assert refused(bob, "host_mute", house="stark", muted=True) == "voice/not-host"
    assert table.room().muted == []
    send(hal, "host_mute", house="lannister", muted=True)
    assert voice_message(bob, "state")["host_muted"] == ["lannister"]
    send(hal, "host_mute", house="lannister", muted=False)
    assert voice_message(bob, "state")["host_muted"] == []


def test_refusals_are_specific_and_change_nothing(server: LiveOnline, sockets: ExitStack) -> None:
    """docs/protocol.md "Table voice", errors: a signal before joining (voice/not-member), to
    a peer id nobody has (voice/unknown-peer) — also the peer id a house had before it joined
    again (a replayed offer) —, with data over 16 KB (voice/too-large), an unknown op
    (voice/bad-message); a socket whose house joined again from another socket is out of
    voice (told ``closed``/left; its signals voice/not-member)."""
    table = Table(server, sockets)
    hal, bob = table.board(table.host, "stark"), table.board(table.bob, "lannister")
    offer = {"sdp": {"type": "offer", "sdp": "v=0"}}
    assert refused(hal, "signal", to="nobody", data=offer) == "voice/not-member"
    hal_peer = join(hal)["you"]
    bob_first = join(bob)["you"]
    assert refused(hal, "signal", to="nobody", data=offer) == "voice/unknown-peer"
    big = {"sdp": {"type": "offer", "sdp": "a" * (16 * 1024 + 1)}}
    assert refused(hal, "signal", to=bob_first, data=big) == "voice/too-large"
    assert refused(hal, "shout") == "voice/bad-message"
    before = table.room()

    second = table.board(table.bob, "lannister")
    bob_again = join(second)["you"]
    assert bob_again != bob_first
    assert voice_message(bob, "closed")["reason"] == "left"
    assert refused(hal, "signal", to=bob_first, data=offer) == "voice/unknown-peer"
    assert refused(bob, "signal", to=hal_peer, data=offer) == "voice/not-member"
    assert set(table.room().members) == {hal_peer, bob_again}
    assert before.members[hal_peer] == table.room().members[hal_peer]


def test_a_join_s_burst_of_ice_candidates_is_relayed_whole(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """docs/online.md "Limits": a join sends dozens of ICE candidates at once; with the
    default limits all 80 of them reach the peer, none refused online/rate-limited."""
    table = Table(server, sockets)
    hal, bob = table.board(table.host, "stark"), table.board(table.bob, "lannister")
    join(hal)
    bob_peer = join(bob)["you"]
    for n in range(80):
        send(hal, "signal", to=bob_peer, data={"candidate": {**CANDIDATE, "sdpMLineIndex": n}})
    got = [voice_message(bob, "signal")["data"]["candidate"]["sdpMLineIndex"] for _ in range(80)]
    assert got == list(range(80))


@pytest.mark.parametrize("change", ["kick", "hand-back"])
def test_a_kicked_or_handed_back_seat_s_voice_closes_at_once(
    server: LiveOnline, sockets: ExitStack, change: str
) -> None:
    """Acceptance 3: the host kicks Bob (or hands Lannister back): Bob's board socket is told
    {"op":"closed","reason":"kicked"} before it is closed (4403); the others' state no longer
    has his peer; an offer addressed to his old peer is refused voice/unknown-peer."""
    table = Table(server, sockets)
    hal, bob, cat = (
        table.board(p, h)
        for p, h in ((table.host, "stark"), (table.bob, "lannister"), (table.cat, "baratheon"))
    )
    join(hal), join(cat)
    bob_peer = join(bob)["you"]
    table.host.post(f"/api/lobbies/{table.lobby_id}/{change}", {"house": "lannister"})
    messages, code = until_closed(bob)
    voice = [m for m in messages if m.get("type") == "voice"]
    closing = voice.index({"type": "voice", "op": "closed", "reason": "kicked"})
    assert code == 4403
    assert not [m for m in voice[closing:] if m["op"] == "signal" or m.get("you") is not None]
    state, _ = receive_until(cat, lambda m: m.get("op") == "state" and bob_peer not in m["members"])
    assert sorted(m["house"] for m in state["members"].values()) == ["baratheon", "stark"]
    offer = {"sdp": {"type": "offer", "sdp": "v=0"}}
    assert refused(hal, "signal", to=bob_peer, data=offer) == "voice/unknown-peer"


def test_a_person_who_moves_to_another_seat_loses_the_old_seat_s_voice(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Acceptance 3 (seat change): Cat's Baratheon is handed back and Bob joins it with the
    invite; his Lannister board socket is told {"op":"closed","reason":"seat"} at once and
    closed, and Lannister's old peer is gone from the others' voice."""
    table = Table(server, sockets)
    hal, bob, cat = (
        table.board(p, h)
        for p, h in ((table.host, "stark"), (table.bob, "lannister"), (table.cat, "baratheon"))
    )
    join(hal)
    bob_peer = join(bob)["you"]
    join(cat)
    invite = table.host.post(f"/api/lobbies/{table.lobby_id}/hand-back", {"house": "baratheon"})[
        "invite"
    ]
    assert voice_message(cat, "closed")["reason"] == "kicked"
    table.bob.post("/api/join", {"invite": invite.split("=", 1)[1]})
    messages, code = until_closed(bob)
    voice = [m for m in messages if m.get("type") == "voice"]
    closing = voice.index({"type": "voice", "op": "closed", "reason": "seat"})
    assert code == 4403
    assert not [m for m in voice[closing:] if m["op"] == "signal" or m.get("you") is not None]
    assert bob_peer not in table.room().members
    offer = {"sdp": {"type": "offer", "sdp": "v=0"}}
    assert refused(hal, "signal", to=bob_peer, data=offer) == "voice/unknown-peer"
