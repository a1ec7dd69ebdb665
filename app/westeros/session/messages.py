"""Step 1 of the session's checks (DESIGN §4): the shape of a client message.

The client sends ``action``, ``hint`` and ``ping`` (docs/protocol.md); anything else, or a
message without the fields its type needs, is a ``MalformedMessage``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from westeros.engine import Action
from westeros.engine.actions import ActionKinds

from .errors import MalformedMessage, SessionError

MAX_MESSAGE_CHARS = 65_536
MAX_ID_CHARS = 200
MESSAGE_TYPES = ("action", "hint", "ping")


@dataclasses.dataclass(frozen=True, slots=True)
class Parsed:
    """A well-formed client message: its type, id, action (not for ``ping``), the
    ``state_id`` it acted on (``action`` only) and the house it names, if any."""

    type: str
    id: str | int | None
    action: Action | None
    state_id: int | None
    house: str | None


def load(message: Any) -> Any:
    """The JSON value of a raw message (text or UTF-8 bytes; anything else as it is)."""
    if isinstance(message, bytes):
        try:
            message = message.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedMessage("a message must be UTF-8 JSON text") from exc
    if isinstance(message, str):
        if len(message) > MAX_MESSAGE_CHARS:
            raise MalformedMessage(f"a message may have at most {MAX_MESSAGE_CHARS} characters")
        try:
            return json.loads(message)
        except ValueError as exc:
            raise MalformedMessage(f"not valid JSON ({exc})") from exc
    return message


def message_id(data: Mapping[str, Any]) -> str | int | None:
    """The message's ``id`` if it is a usable one (a number or a short text), else None."""
    value = data.get("id")
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS:
        return value
    return None


def reply_id(message: Any) -> str | int | None:
    """The id to answer a refused raw message with (None when it has none we can read)."""
    try:
        data = load(message)
    except SessionError:
        return None
    return message_id(data) if isinstance(data, dict) else None


def parse_message(message: Any, kinds: ActionKinds | None = None) -> Parsed:
    """Step 1 (message shape): a JSON object with a known ``type`` and that type's fields;
    ``kinds``: the game's action kinds (``Ruleset.action_kinds``; default the engine's)."""
    data = load(message)
    if not isinstance(data, dict):
        raise MalformedMessage("a message must be a JSON object")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise MalformedMessage(f"unknown message type {kind!r} (expected one of {MESSAGE_TYPES})")
    if "id" in data and data["id"] is not None and message_id(data) is None:
        raise MalformedMessage(f"'id' must be a number or a text of at most {MAX_ID_CHARS} chars")
    house = data.get("house")
    if house is not None and not isinstance(house, str):
        raise MalformedMessage("'house' must be a text")
    if kind == "ping":
        return Parsed(kind, message_id(data), None, None, house)
    if "action" not in data:
        raise MalformedMessage(f"a {kind!r} message needs an 'action'")
    action = Action.from_json(data["action"], kinds)
    state_id = data.get("state_id")
    if kind == "action" and (not isinstance(state_id, int) or isinstance(state_id, bool)):
        raise MalformedMessage("an 'action' message needs the integer 'state_id' of its view")
    return Parsed(kind, message_id(data), action, state_id, house)
