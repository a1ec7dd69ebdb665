"""The chat of an online game as a replay or a game file shows it, filtered for who asks
(RULES.md 0.4.4; docs/online.md "Replays and files"): the public table for everyone; a
raven only for its sender and the house it went to, also after the game. A seat's replay
shows what that seat read, and never more than the one who asks may read."""

from __future__ import annotations

from .records import ChatLine, LobbyInfo
from .store import OnlineStore


def readable(
    online: OnlineStore, lobby: LobbyInfo | None, asker: str | None, seat: str | None = None
) -> list[ChatLine]:
    """The chat of ``lobby`` (None: not an online game, no chat) that the house ``asker``
    may read (None: a spectator), and, for a seat's view, that ``seat`` read too."""
    if lobby is None:
        return []
    lines = online.chat(lobby.id, asker)
    return [line for line in lines if seat is None or line.visible_to(seat)]


def host_house(lobby: LobbyInfo | None) -> str | None:
    """The house of the lobby's host: who asks on the app that hosted the game (its local
    core, hosting.py), None if the host holds no seat or it is not an online game."""
    if lobby is None:
        return None
    seat = lobby.seat_of(lobby.host_id)
    return seat.house if seat is not None else None
