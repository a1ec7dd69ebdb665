"""Step 1 of the session's checks (DESIGN §4): the shape of a client message.

The client sends ``action``, ``hint`` and ``ping`` (docs/protocol.md); anything else, or a
message without the fields its type needs, is a ``MalformedMessage`` with a code saying what
is wrong: "malformed/encoding" (not UTF-8), "malformed/too-large", "malformed/json",
"malformed/too-deep" (nested deeper than ``MAX_DEPTH``), "malformed/not-object",
"malformed/type", "malformed/id", "malformed/house", "malformed/action" or
"malformed/state-id". Nothing in a refused message is echoed back but a usable ``id``."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping
from typing import Any

from westeros.engine import Action
from westeros.engine.actions import ActionKinds
from westeros.engine.errors import MalformedAction

from .errors import MalformedMessage, SessionError

log = logging.getLogger("westeros.session")

MAX_MESSAGE_CHARS = 65_536
MAX_ID_CHARS = 200
MAX_DEPTH = 32
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


def is_text(value: Any) -> bool:
    """Is ``value`` a str that can be sent back as UTF-8 (no lone surrogate)?"""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def depth(value: Any) -> int:
    """How deeply ``value`` (decoded JSON) nests arrays and objects (a scalar: 0)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest


def load(message: Any) -> Any:
    """The JSON value of a raw message (text or UTF-8 bytes; anything else as it is)."""
    if isinstance(message, bytes):
        if len(message) > 4 * MAX_MESSAGE_CHARS:
            raise MalformedMessage(
                f"a message may have at most {MAX_MESSAGE_CHARS} characters", "malformed/too-large"
            )
        try:
            message = message.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedMessage(
                "a message must be UTF-8 JSON text", "malformed/encoding"
            ) from exc
    if not isinstance(message, str):
        return message
    if len(message) > MAX_MESSAGE_CHARS:
        raise MalformedMessage(
            f"a message may have at most {MAX_MESSAGE_CHARS} characters", "malformed/too-large"
        )
    try:
        data = json.loads(message)
    except RecursionError as exc:
        raise MalformedMessage(
            f"a message may nest at most {MAX_DEPTH} levels deep", "malformed/too-deep"
        ) from exc
    except ValueError as exc:
        raise MalformedMessage(f"not valid JSON ({exc})", "malformed/json") from exc
    if depth(data) > MAX_DEPTH:
        raise MalformedMessage(
            f"a message may nest at most {MAX_DEPTH} levels deep", "malformed/too-deep"
        )
    return data


def message_id(data: Mapping[str, Any]) -> str | int | None:
    """The message's ``id`` if it is a usable one (a number or a short text), else None."""
    value = data.get("id")
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if is_text(value) and len(value) <= MAX_ID_CHARS:
        return str(value)
    return None


def reply_id(message: Any) -> str | int | None:
    """The id to answer a refused raw message with (None when it has none we can read)."""
    try:
        data = load(message)
    except SessionError:
        return None
    return message_id(data) if isinstance(data, dict) else None


def parse_action(value: Any, kinds: ActionKinds | None = None) -> Action:
    """The message's ``action``: a JSON object whose text ``kind`` names an action kind, with
    that kind's fields (the engine's ``Action.from_json`` checks them: MalformedAction);
    ``kinds``: the game's action kinds (``Ruleset.action_kinds``; default the engine's)."""
    if not isinstance(value, dict):
        raise MalformedMessage("'action' must be a JSON object", "malformed/action")
    if not is_text(value.get("kind")):
        raise MalformedMessage("an action's 'kind' must be a text", "malformed/action")
    try:
        return Action.from_json(value, kinds)
    except MalformedAction:
        raise
    except Exception as exc:
        log.warning("an action of kind %r could not be read: %r", value["kind"][:40], exc)
        raise MalformedMessage(
            f"the action does not fit the kind {value['kind'][:40]!r}", "malformed/action"
        ) from exc


def parse_message(message: Any, kinds: ActionKinds | None = None) -> Parsed:
    """Step 1 (message shape): a JSON object with a known ``type`` and that type's fields;
    ``kinds``: the game's action kinds (``Ruleset.action_kinds``; default the engine's)."""
    data = load(message)
    if not isinstance(data, dict):
        raise MalformedMessage("a message must be a JSON object", "malformed/not-object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        raise MalformedMessage(
            f"unknown message type (expected one of {', '.join(MESSAGE_TYPES)})", "malformed/type"
        )
    if "id" in data and data["id"] is not None and message_id(data) is None:
        raise MalformedMessage(
            f"'id' must be a number or a text of at most {MAX_ID_CHARS} chars", "malformed/id"
        )
    house = data.get("house")
    if house is not None and not is_text(house):
        raise MalformedMessage("'house' must be a text", "malformed/house")
    if kind == "ping":
        return Parsed(kind, message_id(data), None, None, house)
    if "action" not in data:
        raise MalformedMessage(f"a {kind!r} message needs an 'action'", "malformed/action")
    action = parse_action(data["action"], kinds)
    state_id = data.get("state_id")
    if kind == "action" and (not isinstance(state_id, int) or isinstance(state_id, bool)):
        raise MalformedMessage(
            "an 'action' message needs the integer 'state_id' of its view", "malformed/state-id"
        )
    return Parsed(kind, message_id(data), action, state_id, house)
