"""Why the session refuses a client message before (or after) the engine sees it, and the
``error`` reply that says so to its sender only (docs/protocol.md, "Errors")."""

from __future__ import annotations

from typing import Any


class SessionError(Exception):
    """A message the session refuses before the engine sees it. ``rule`` is empty: these are
    protocol errors, not rules (the engine's IllegalAction names the RULES.md section)."""

    rule = ""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MalformedMessage(SessionError):
    """Not a JSON object of a known ``type`` with the fields that type needs."""


class WrongSeat(SessionError):
    """The sender may not act for this house (unknown house, another seat, a computer seat or
    wrong credentials)."""


class StaleState(SessionError):
    """The sender acted on a view that has changed since (``state_id`` is out of date)."""


class NotSaved(SessionError):
    """The action was legal but could not be stored, so it did not happen."""


class InternalError(SessionError):
    """The engine failed unexpectedly on this message; the game is unchanged."""


def error_reply(exc: Exception, in_reply_to: str | int | None) -> dict[str, Any]:
    """The ``error`` message for a refused client message (sent to its sender only)."""
    message = getattr(exc, "message", None) or str(exc)
    return {
        "type": "error",
        "message": message,
        "error": type(exc).__name__,
        "rule": getattr(exc, "rule", "") or "",
        "in_reply_to": in_reply_to,
    }
