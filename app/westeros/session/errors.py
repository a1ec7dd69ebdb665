"""Why the session refuses a client message before (or after) the engine sees it, and the
``error`` reply that says so to its sender only (docs/protocol.md, "Errors").

Every refusal carries a stable ``code`` for clients to rely on: the engine's IllegalAction
subclasses bring theirs ("illegal/…"); the session's own are "malformed/…" (the message's
shape), "seat/…" (who may act), "stale-state", "not-saved", "hint/unavailable", "internal",
"plugin-fault" (the game is paused) and, when a socket opens, "game/…". No Python class name
goes on the wire but that of the exception a faulty plugin raised."""

from __future__ import annotations

from typing import Any

ILLEGAL = "illegal/action"
"""The code of an engine refusal whose class names no code of its own."""


class SessionError(Exception):
    """A message the session refuses before the engine sees it. ``rule`` is empty: these are
    protocol errors, not rules (the engine's IllegalAction names the RULES.md section).
    ``code`` is the stable error code (the class's, unless one is given)."""

    rule = ""
    code = "session"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class MalformedMessage(SessionError):
    """Not a JSON object of a known ``type`` with the fields that type needs."""

    code = "malformed/message"


class WrongSeat(SessionError):
    """The sender may not act for this house (unknown house, another seat, a computer seat or
    wrong credentials)."""

    code = "seat/refused"


class StaleState(SessionError):
    """The sender acted on a view that has changed since (``state_id`` is out of date)."""

    code = "stale-state"


class NotSaved(SessionError):
    """The action was legal but could not be stored, so it did not happen."""

    code = "not-saved"


class InternalError(SessionError):
    """The engine failed unexpectedly on this message; the game is unchanged."""

    code = "internal"


class GamePaused(SessionError):
    """The game is paused because a plugin's rule code failed (issue 35 finding 3): nothing
    is accepted until it is reopened with the plugin updated; the game is unchanged."""

    code = "plugin-fault"


class AiUnavailable(SessionError):
    """An AI seat could not decide now: the processes that compute its decisions are
    stopping (the server shuts down) or one of them died. Nothing is played for it; the seat
    is asked again the next time the game is driven, never answered with a random move."""

    code = "ai/unavailable"


def error_code(exc: Exception) -> str:
    """The stable code of a refusal (``ILLEGAL`` for an engine error without one)."""
    code = getattr(exc, "code", None)
    return code if isinstance(code, str) and code else ILLEGAL


def error_reply(exc: Exception, in_reply_to: str | int | None) -> dict[str, Any]:
    """The ``error`` message for a refused client message (sent to its sender only)."""
    message = getattr(exc, "message", None) or str(exc)
    return {
        "type": "error",
        "code": error_code(exc),
        "message": message,
        "rule": getattr(exc, "rule", "") or "",
        "in_reply_to": in_reply_to,
    }
