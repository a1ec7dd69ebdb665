"""Errors raised by the store. Each message says what is wrong in words a player can act on."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class NotFound(StoreError):
    """No record with that id is stored."""


class GameNotFound(NotFound):
    """No game with that id is stored."""


class ProfileNotFound(NotFound):
    """No profile with that id is stored."""


class NameTaken(StoreError):
    """Another profile already has that name."""


class InvalidSetup(StoreError):
    """A new game's setup does not fit together (seats, houses, player count)."""


class DuplicateAction(StoreError):
    """An action with that sequence number is already in the log (the log is append-only)."""


class OutOfSequence(StoreError):
    """An action or snapshot does not follow the end of the log."""


class CorruptGame(StoreError):
    """A stored game does not replay to the states its log recorded."""


class InvalidGameFile(StoreError):
    """An imported game file was rejected; nothing was written to the database."""
