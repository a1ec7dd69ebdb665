"""Read-only records the online store hands out (never the ORM rows)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from . import vote_lines


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player: id and display name (the key hash stays in the database)."""

    id: str
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class SeatInfo:
    """One house of a lobby: who plays it (None: the AI), whether people may take it."""

    house: str
    player_id: str | None
    player_name: str | None
    open: bool
    ready: bool
    connected: bool
    clock_left: float

    @property
    def human(self) -> bool:
        """Is a person in this seat?"""
        return self.player_id is not None


@dataclasses.dataclass(frozen=True, slots=True)
class LobbyInfo:
    """An online game and its seats (in house order)."""

    id: str
    name: str
    host_id: str
    status: str
    players: int
    settings: dict[str, Any]
    clock_seconds: int
    grace_seconds: int
    game_id: str | None
    seats: tuple[SeatInfo, ...]
    created_at: datetime

    def seat(self, house: str) -> SeatInfo | None:
        """The seat of ``house``, if it is one of this lobby's."""
        return next((s for s in self.seats if s.house == house), None)

    def seat_of(self, player_id: str) -> SeatInfo | None:
        """The seat ``player_id`` holds here, if any."""
        return next((s for s in self.seats if s.player_id == player_id), None)

    def public(self) -> dict[str, Any]:
        """The lobby as JSON for every client (no invite, no key, no player id but the
        host's flag)."""
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "players": self.players,
            "settings": self.settings,
            "clock_seconds": self.clock_seconds,
            "grace_seconds": self.grace_seconds,
            "game_id": self.game_id,
            "seats": [
                {
                    "house": s.house,
                    "player": s.player_name,
                    "open": s.open,
                    "ready": s.ready,
                    "connected": s.connected,
                    "host": s.player_id == self.host_id,
                    "clock_left": s.clock_left,
                }
                for s in self.seats
            ],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat message as stored; ``to_house`` None is public."""

    id: int
    lobby_id: str
    player_name: str
    house: str | None
    to_house: str | None
    text: str
    round: int
    phase: str
    created_at: datetime

    def visible_to(self, house: str | None) -> bool:
        """May ``house`` (None: a spectator) read it? Public lines: everyone; a raven: only
        the house that sent it and the house it was sent to."""
        return self.to_house is None or (house is not None and house in (self.house, self.to_house))

    def entry(self) -> dict[str, Any]:
        """The line as replays and game files hold it (``message`` without socket fields)."""
        return {
            "name": self.player_name,
            "house": self.house,
            "to": self.to_house,
            "text": self.text,
            "round": self.round,
            "phase": self.phase,
            "at": self.created_at.isoformat(),
            **self.system(),
        }

    def system(self) -> dict[str, Any]:
        """A vote's line (no writer): ``{"system": …}``, what it says for the page to show
        in its language (issue 40, ``vote_lines``); other lines: nothing."""
        found = None if self.house or self.player_name else vote_lines.parse(self.text)
        return {"system": found} if found else {}

    def message(self) -> dict[str, Any]:
        """The ``chat`` message sent over the socket (plain text; the client never treats
        ``text`` or ``name`` as HTML)."""
        return {
            "type": "chat",
            "id": self.id,
            "name": self.player_name,
            "house": self.house,
            "to": self.to_house,
            "text": self.text,
            "round": self.round,
            "phase": self.phase,
            "at": self.created_at.isoformat(),
            **self.system(),
        }
