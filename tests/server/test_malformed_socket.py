"""Malformed WebSocket messages of every shape (issue 14, Why 3): each gets an ``error`` reply
with its own stable code, for its sender only; the game, its log and the other seats are
untouched and the socket keeps answering (DESIGN §4, docs/protocol.md "Errors")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from tests.server.conftest import nothing_pending, orders_for, receive, refused, taken
from westeros.server.routes.seats import encode
from westeros.session import GameSession

Seats = tuple[WebSocketTestSession, WebSocketTestSession]


def nested(levels: int) -> str:
    """An action whose ``kind`` holds arrays ``levels`` deep."""
    return '{"type":"action","state_id":0,"action":{"kind":' + "[" * levels + "]" * levels + "}}"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        (
            {"type": "action", "state_id": 0, "action": {"kind": ["place_orders"]}},
            "malformed/action",
        ),
        ({"type": "action", "state_id": 0, "action": {"kind": {"a": 1}}}, "malformed/action"),
        ({"type": "hint", "action": {"kind": [[["x"]]]}}, "malformed/action"),
        ({"type": "action", "state_id": 0, "action": "place_orders"}, "malformed/action"),
        ({"type": ["action"], "state_id": 0}, "malformed/type"),
        ({"type": {"t": "ping"}}, "malformed/type"),
        (
            {"type": "action", "state_id": "0", "action": {"kind": "bid", "amount": 1}},
            "malformed/state-id",
        ),
        ({"type": "ping", "house": ["stark"]}, "malformed/house"),
        (nested(40), "malformed/too-deep"),
        (nested(5000), "malformed/too-deep"),
        ("[" * 30_000 + "]" * 30_000, "malformed/too-deep"),
        ('{"type":"ping","id":"\\ud800"}', "malformed/id"),
        ('{"type":"ping","house":"st\\udfffark"}', "malformed/house"),
        (b'{"type":"ping","id":"\xc3\x28"}', "malformed/encoding"),
        (b"\x80" * 100, "malformed/encoding"),
        ('{"type":"ping","id":1,"pad":"' + "x" * 70_000 + '"}', "malformed/too-large"),
        (b'{"type":"ping","pad":"' + b"x" * 1_000_000 + b'"}', "malformed/too-large"),
        ("", "malformed/json"),
        ("null", "malformed/not-object"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None,
)
def test_malformed_message_gets_its_code_and_the_socket_stays(
    seats: Seats, game: GameSession, message: Any, code: str
) -> None:
    stark, lannister = seats
    reply = refused(stark, lannister, game, message)
    assert reply["code"] == code
    assert len(json.dumps(reply)) < 1000  # nothing of the message is echoed back


def test_a_lone_surrogate_inside_an_action_is_refused_and_the_reply_still_arrives(
    seats: Seats, game: GameSession
) -> None:
    """The engine's refusal may quote the bad text; the reply is sent escaped, not lost."""
    stark, lannister = seats
    orders = '{"kind":"place_orders","orders":[["\\ud800","march+0"]]}'
    text = '{"type":"action","state_id":0,"id":3,"action":' + orders + "}"
    reply = refused(stark, lannister, game, text)
    assert (reply["in_reply_to"], reply["code"].startswith("illegal/")) == (3, True)


def test_after_a_burst_of_bad_messages_a_good_action_is_still_accepted(
    seats: Seats, game: GameSession
) -> None:
    stark, lannister = seats
    for text in (
        nested(900),
        '{"type":"ping","id":"\\udc00"}',
        '{"type":"action","action":{"kind":{}}}',
    ):
        stark.send_text(text)
        assert receive(stark)["type"] == "error"
    stark.send_json({"type": "action", "action": orders_for(game, "stark"), "state_id": 0})
    assert taken(stark)["state_id"] == receive(lannister)["state_id"] == 1
    nothing_pending(stark)


def test_a_reply_holding_a_lone_surrogate_is_sent_escaped() -> None:
    """The send task never fails on text that is not valid Unicode (it used to die silently,
    leaving the socket open and mute)."""
    message = {"type": "error", "message": "unknown area '\ud800'", "in_reply_to": 1}
    text = encode(message)
    text.encode("utf-8")  # sendable
    assert json.loads(text) == message
    assert encode({"type": "pong", "in_reply_to": "é"}) == '{"type":"pong","in_reply_to":"é"}'
