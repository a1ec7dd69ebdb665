"""The online games this app hosts (``hosting.py``), remembered in the app's own store so that
hosting resumes after the app restarts (issue 35 finding 2; docs/online.md "Hosting from the
app").

Each record keeps what hosting the lobby again needs and the online tables do not hold: the
interface and port it listened on, the host's player key (the online tables keep only its
hash; the key opens the host's own seat through the online server, as any guest's key) and
the invite tokens handed out (so a seat still open can be sent again). The record lives in
the local store's settings, which no route of the local core or the online server serves."""

from __future__ import annotations

import dataclasses
from typing import Any

from westeros.store import GameStore
from westeros.store.online import FINISHED

from .errors import LobbyNotFound
from .records import LobbyInfo
from .store import OnlineStore

SETTING = "online.hosted"


@dataclasses.dataclass(frozen=True)
class Hosted:
    """One lobby hosted by this app: where it listened, the host's key, its invites."""

    lobby_id: str
    key: str
    interface: str
    port: int
    invites: dict[str, str]

    def as_json(self) -> dict[str, Any]:
        """The record as stored."""
        return dataclasses.asdict(self)


def page_url(lobby_id: str) -> str:
    """The local core's page of a hosted lobby (``hosting.router``)."""
    return f"/online/host/lobbies/{lobby_id}"


def recorded(store: GameStore) -> dict[str, Hosted]:
    """Every hosted lobby this app remembers, by lobby id (a malformed record is skipped)."""
    stored = store.setting(SETTING, {})
    found: dict[str, Hosted] = {}
    for lobby_id, data in (stored if isinstance(stored, dict) else {}).items():
        try:
            hosted = Hosted(**data)
        except TypeError:
            continue
        if hosted.lobby_id == lobby_id:
            found[lobby_id] = hosted
    return found


def remember(store: GameStore, hosted: Hosted) -> None:
    """Record (or update) ``hosted``."""
    stored = {i: h.as_json() for i, h in recorded(store).items()}
    stored[hosted.lobby_id] = hosted.as_json()
    store.set_setting(SETTING, stored)


def still_open(lobby: LobbyInfo, hosted: Hosted) -> dict[str, str]:
    """The invite tokens of ``hosted`` whose seat nobody has taken yet."""
    free = {s.house for s in lobby.seats if s.open and s.player_id is None}
    return {house: token for house, token in hosted.invites.items() if house in free}


def resumable(store: GameStore) -> list[dict[str, Any]]:
    """The hosted lobbies that are not over, newest first, as the start screen lists them
    (``partials/hosted_games.html``): name, status, where it listened and its page."""
    online = OnlineStore(store.engine)
    entries: list[dict[str, Any]] = []
    for lobby_id, hosted in recorded(store).items():
        try:
            lobby = online.lobby(lobby_id)
        except LobbyNotFound:
            continue
        if lobby.status == FINISHED:
            continue
        entries.append(
            {
                "lobby_id": lobby_id,
                "name": lobby.name,
                "status": lobby.status,
                "game_id": lobby.game_id,
                "address": f"{hosted.interface}:{hosted.port}",
                "url": page_url(lobby_id),
                "created_at": lobby.created_at,
            }
        )
    entries.sort(key=lambda e: e["created_at"], reverse=True)
    return entries
