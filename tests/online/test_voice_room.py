"""The voice room's rules and the TURN credentials, as pure logic (issue 39; docs/protocol.md
"Table voice"): who may hear whom (the table; an aside pair; a spectator the table only),
what a seat change removes, and the TURN REST credential coturn's ``use-auth-secret``
checks."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from westeros.online.turn import IceConfig, ice_servers
from westeros.online.voice import NotAllowed, Room, TooLarge, signal_data


def _room() -> tuple[Room, dict[str, str]]:
    room = Room()
    peers = {
        h: room.join(h, f"player-{h}", "w", f"conn-{h}") for h in ("stark", "lannister", "greyjoy")
    }
    peers["spectator"] = room.join(None, None, "w", "conn-s")
    return room, peers


def test_at_the_table_everyone_hears_everyone_but_spectators_not_each_other() -> None:
    room, p = _room()
    room.join(None, None, "w", "conn-t")
    assert room.linked(p["stark"], p["lannister"]) and room.linked(p["spectator"], p["greyjoy"])
    assert not room.linked(p["spectator"], "spectator:2")


def test_an_aside_pair_hears_only_each_other_and_nobody_hears_them() -> None:
    """Issue 39 "Private talk": the table (and a spectator) hears neither of the pair."""
    room, p = _room()
    room.ask_aside("stark", "lannister")
    assert room.answer_aside("lannister", "stark", accept=True) is None
    assert room.linked(p["stark"], p["lannister"])
    for other in ("greyjoy", "spectator"):
        assert not room.linked(p[other], p["stark"]) and not room.linked(p["lannister"], p[other])
    with pytest.raises(NotAllowed):
        room.ask_aside("greyjoy", "stark")
    room.back_to_table("lannister")
    assert room.linked(p["greyjoy"], p["stark"]) and room.asides == []


def test_a_seat_whose_player_changed_is_pruned_and_its_aside_dissolved() -> None:
    room, p = _room()
    room.ask_aside("stark", "lannister")
    room.answer_aside("lannister", "stark", accept=True)
    holders = {"stark": "player-stark", "lannister": "someone-else", "greyjoy": "player-greyjoy"}
    gone = room.prune(holders)
    assert [peer for peer, _ in gone] == [p["lannister"]]
    assert room.asides == [] and p["spectator"] in room.members


def test_a_signal_s_data_over_16_kb_is_refused() -> None:
    signal_data({"sdp": {"type": "offer", "sdp": "a" * 16000}})
    with pytest.raises(TooLarge):
        signal_data({"sdp": {"type": "offer", "sdp": "a" * 16400}})


def test_the_turn_credential_is_the_rest_scheme_with_its_expiry() -> None:
    """Username "<expiry>:<lobby>:<seat>", password base64(HMAC-SHA1(secret, username))."""
    config = IceConfig(
        stun_urls=("stun:stun.example.test:3478",),
        turn_urls=("turn:turn.example.test:3478",),
        turn_secret="s3cret",
        turn_ttl=600,
    )
    stun, turn = ice_servers(config, "lobby", "stark", 1_000_000.5)
    assert stun == {"urls": ["stun:stun.example.test:3478"]}
    assert turn["username"] == "1000600:lobby:stark"
    expected = base64.b64encode(hmac.new(b"s3cret", b"1000600:lobby:stark", hashlib.sha1).digest())
    assert turn["credential"] == expected.decode()


def test_a_turn_url_without_its_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="turn-secret"):
        IceConfig.from_env({"WESTEROS_TURN_URLS": "turn:t.example.test:3478"})
    assert IceConfig.from_env({}) == IceConfig() and ice_servers(IceConfig(), "l", "s", 0) == []


def test_westeros_server_s_turn_options_reach_a_worker_through_its_environment() -> None:
    """``westeros server --turn-url … --turn-url … --turn-secret …`` (docs/online.md "Voice
    behind firewalls"): the options become the environment the workers read, and a worker's
    configuration from it hands out the same credentials."""
    from westeros.cli import parser
    from westeros.online.turn import from_options

    args = parser().parse_args(
        [
            "server",
            "--turn-url",
            "turn:t.example.test:3478?transport=udp",
            "--turn-url",
            "turn:t.example.test:3478?transport=tcp",
            "--turn-secret",
            "s3cret",
            "--stun-url",
            "stun:s.example.test:3478",
        ]
    )
    given = from_options(vars(args), {"WESTEROS_TURN_TTL": "120"})
    worker = IceConfig.from_env(given.env())
    assert worker == given and worker.turn_ttl == 120
    assert ice_servers(worker, "l", "stark", 50)[1]["urls"] == [
        "turn:t.example.test:3478?transport=udp",
        "turn:t.example.test:3478?transport=tcp",
    ]
