"""The one authority in front of the engine (DESIGN §4): validate → apply → save → broadcast.

Local play, AI seats and (later) online play all go through a ``GameSession``. Each incoming
message is checked in a fixed order: message shape (``messages``) → seat and credentials
(``seats``) → is this house pending → is the action legal → stale ``state_id``
(``applier``). An accepted action is appended to the store and committed *before* anything is
broadcast (DESIGN §5); then every attached seat receives its own ``player_view`` and the new
log entries it may see (``hub``). A refused message gets an error reply for its sender only
(``errors``); the state, the log and every other seat are untouched.

Staleness: ``state_id`` is the state serial (one per accepted action). An action is stale when
the sender's own view has changed since the ``state_id`` it acted on, so one house committing
its secret orders does not invalidate the orders another house is still placing (only
``waiting_for`` changed for it), while any change the house could see does.

Messages (docs/protocol.md): the client sends ``action``, ``hint`` and ``ping``; the session
answers with ``view``, ``game_over``, ``error``, ``hint`` and ``pong``."""

from westeros.store import AI, HUMAN

from .applier import Accepted
from .errors import (
    AiUnavailable,
    GamePaused,
    InternalError,
    MalformedMessage,
    NotSaved,
    SessionError,
    StaleState,
    WrongSeat,
    error_reply,
)
from .game import GameSession
from .hub import plain_narrator
from .messages import parse_message
from .seats import AiFactory, AiPlayer, Human, Player

__all__ = [
    "AI",
    "HUMAN",
    "Accepted",
    "AiFactory",
    "AiPlayer",
    "AiUnavailable",
    "GamePaused",
    "GameSession",
    "Human",
    "InternalError",
    "MalformedMessage",
    "NotSaved",
    "Player",
    "SessionError",
    "StaleState",
    "WrongSeat",
    "error_reply",
    "parse_message",
    "plain_narrator",
]
