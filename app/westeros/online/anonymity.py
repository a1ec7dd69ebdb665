"""Anonymous tables (issue 40; docs/online-moderation.md): a lobby created with the setting
``anonymous`` hides every person's name from everyone — the players of the table included —
until its game ends (the lobby is ``finished``: won, or stopped by its host or an operator);
then the names show.

``shown_name`` is the one authority on the name a seat (or a chat line written for a seat)
shows, and the online store applies it where names leave the database: every seat of a
``LobbyInfo`` (the lobby list, a lobby's page and socket, the roster, invites, the app's
hosting pages) and every ``ChatLine`` (the chat socket, ravens, the chat API, replays, game
files). A hidden seat shows ``seat_label``; a hidden line without a seat (someone with a
key but no seat yet) shows as a spectator's. Pages translate the label themselves
("Player of House {house}", from ``settings.anonymous`` and ``status``). The game's own
record keeps the real names (``real_names``): it is exported only once the game is over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from westeros.store.online import FINISHED, OnlinePlayer, OnlineSeat

ANONYMOUS = "anonymous"
"""The lobby setting (true: an anonymous table)."""
SPECTATOR = "spectator"
"""The name a spectator's chat line shows (and, hidden, a line written without a seat)."""
DEFAULT_NAME = "Anonymous table"
"""An anonymous lobby's name when its host gives none (never the host's own name)."""


def hidden(settings: Mapping[str, Any], status: str) -> bool:
    """Are the names of a lobby with ``settings`` in ``status`` hidden now?"""
    return bool(settings.get(ANONYMOUS)) and status != FINISHED


def seat_label(house: str) -> str:
    """What a hidden seat of ``house`` (an id, e.g. ``stark``) shows instead of a name."""
    return f"Player of House {house.replace('_', ' ').title()}"


def shown_name(
    settings: Mapping[str, Any], status: str, house: str | None, name: str | None
) -> str | None:
    """The name that the person ``name`` in seat ``house`` (None: no seat) of a lobby with
    ``settings`` in ``status`` shows, to everyone alike: the name itself, or while the table
    is anonymous and its game not over, the seat's label (a spectator's, without a seat).
    None (nobody in the seat) stays None."""
    if name is None or not hidden(settings, status):
        return name
    return seat_label(house) if house else SPECTATOR


def real_names(engine: Engine, lobby_id: str) -> dict[str, str]:
    """The real name of each person's seat of ``lobby_id`` (house: name), as the game's
    record keeps them (``OnlineHub._create_game``)."""
    with Session(engine) as session:
        rows = session.exec(
            select(OnlineSeat.house, OnlinePlayer.name)
            .join(OnlinePlayer, col(OnlinePlayer.id) == col(OnlineSeat.player_id))
            .where(OnlineSeat.lobby_id == lobby_id)
        ).all()
    return {house: name for house, name in rows}
