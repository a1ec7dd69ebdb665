"""What an online socket sends is JSON text a browser can read (docs/online.md "Capacity":
the messages are encoded by orjson), also when a message holds text that is not valid
Unicode: it is sent escaped rather than lost (the send task would die and leave the socket
open and mute)."""

from __future__ import annotations

import json

from westeros.online.app import message_text


def test_a_message_holding_a_lone_surrogate_is_sent_escaped() -> None:
    message = {"type": "error", "message": "unknown area '\ud800'", "in_reply_to": 1}
    text = message_text(message)
    text.encode("utf-8")  # sendable
    assert json.loads(text) == message


def test_a_message_is_sent_as_compact_json_with_its_text_unescaped() -> None:
    message = {"type": "view", "state_id": 3, "log": [{"text": "Winterfell é"}], "over": None}
    assert message_text(message) == (
        '{"type":"view","state_id":3,"log":[{"text":"Winterfell é"}],"over":null}'
    )
