"""Errors of online play. Each has a stable ``code`` (sent on the wire, docs/protocol.md) and
a plain ``message``; an HTTP route answers with ``status``."""

from __future__ import annotations


class OnlineError(Exception):
    """A refused online request; nothing was changed."""

    code = "online/refused"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownPlayer(OnlineError):
    """No key, or a key the server does not know."""

    code = "online/unknown-player"
    status = 401


class BadInvite(OnlineError):
    """An invite token that is not (or no longer) valid."""

    code = "online/bad-invite"
    status = 403


class NotHost(OnlineError):
    """Only the lobby's host may do this."""

    code = "online/not-host"
    status = 403


class NotYourSeat(OnlineError):
    """The key does not own this seat (another player's seat, an AI seat, a spectator)."""

    code = "online/not-your-seat"
    status = 403


class LobbyNotFound(OnlineError):
    """No such lobby or house."""

    code = "online/not-found"
    status = 404


class LobbyState(OnlineError):
    """Not possible in the lobby's current state (taken seat, not ready, already running)."""

    code = "online/lobby-state"
    status = 409


class BadName(OnlineError):
    """A display name that is empty, too long or holds control characters."""

    code = "online/bad-name"


class BadChat(OnlineError):
    """A chat message that is empty, too long, or addressed to a house that cannot get it."""

    code = "chat/invalid"


class ChatFlood(OnlineError):
    """Too many chat messages too fast."""

    code = "chat/rate-limited"
    status = 429


class SpectatorCannotAct(OnlineError):
    """A spectator's socket sent something only a seat may send."""

    code = "online/spectator-cannot-act"
    status = 403


class Unavailable(OnlineError):
    """The database or Redis did not answer: nothing was done; try again in a moment."""

    code = "online/unavailable"
    status = 503


class BodyTooLarge(OnlineError):
    """A request body over the size the server reads."""

    code = "online/too-large"
    status = 413
