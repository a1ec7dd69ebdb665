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


class BelowReliability(OnlineError):
    """The lobby asks for a minimum reliability the player does not reach (issue 40:
    ``westeros.online.ratings``)."""

    code = "online/below-reliability"
    status = 403


class PlayerNotFound(OnlineError):
    """No such player (a profile)."""

    code = "online/not-found"
    status = 404


class Banned(OnlineError):
    """An operator banned this player: no seat, lobby or action (issue 40,
    ``westeros.online.moderation``)."""

    code = "online/banned"
    status = 403


class ChatBanned(OnlineError):
    """An operator banned this player: they may not chat (issue 40)."""

    code = "chat/banned"
    status = 403


class Muted(OnlineError):
    """An operator muted this player: they may play but not chat (issue 40)."""

    code = "chat/muted"
    status = 403


class ModerationRefused(OnlineError):
    """A block or report that cannot be made: a line of one's own, one without a known
    writer, a reason too long (issue 40)."""

    code = "chat/moderation-refused"


class VoteRefused(OnlineError):
    """A vote that cannot be called: an unknown kind, a wrong argument, nothing to do (a
    pause while paused, a resume while not, an extension without clock or deadlines), or a
    game not running (issue 40, ``westeros.online.votes``)."""

    code = "online/vote-refused"
    status = 409


class VoteOpen(OnlineError):
    """Another vote of this table is open: one at a time (issue 40)."""

    code = "online/vote-open"
    status = 409


class VoteClosed(OnlineError):
    """The vote has passed, failed or timed out: no ballot is taken any more (issue 40)."""

    code = "online/vote-closed"
    status = 409


class NotAVoter(OnlineError):
    """Only the people seated at the table when a vote was called (and still seated) vote
    (issue 40)."""

    code = "online/not-a-voter"
    status = 403


class OwnReplacement(OnlineError):
    """Nobody votes on (or calls) their own replacement (issue 40)."""

    code = "online/own-replacement"
    status = 403


class AlreadyVoted(OnlineError):
    """A ballot cast already stands: it cannot be changed (the same ballot sent again is
    taken once, issue 40)."""

    code = "online/already-voted"
    status = 409


class PausedByVote(OnlineError):
    """The table voted to pause the game: no action is taken until it votes to resume
    (issue 40)."""

    code = "online/paused-by-vote"
    status = 409
