"""Who plays a seat (a person or the computer), and step 2 of the session's checks: may this
connection act for that house."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from westeros.engine import Action, Ruleset
from westeros.store import SeatSpec

from .errors import WrongSeat


@dataclasses.dataclass(frozen=True, slots=True)
class Human:
    """A seat played by a person. ``credential`` is for online play (None locally, where the
    launch token already proves who connects)."""

    name: str = ""
    credential: str | None = None


@runtime_checkable
class AiPlayer(Protocol):
    """A computer player (the protocol of ``westeros.ai.protocol.Player``): it sees only its
    own ``player_view`` (with its prompt) and the public Ruleset, and answers with one Action
    within ``budget`` seconds (DESIGN §2: AIs never see the true state)."""

    name: str

    def decide(self, view: Mapping[str, Any], rules: Ruleset, budget: float) -> Action:
        """The decision for the prompt in ``view``."""
        ...


@runtime_checkable
class Recalling(Protocol):
    """An AI that learns about the other houses over the game (Hard reads how each one plays,
    ``westeros.ai.opponents``). When ``remembers``, it is shown, before its first decision in a
    session, what its seat saw at each earlier Planning (4) and reveal (4.1) (``memory``): its
    own views only, so a resumed game or a seat taken over mid-game plays on with that reading."""

    remembers: bool

    def recall(
        self, past: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], rules: Ruleset
    ) -> None:
        """Read the earlier rounds' (Planning view, reveal view) pairs."""
        ...


Player = Human | AiPlayer
AiFactory = Callable[[str, SeatSpec], AiPlayer]


def check_seat(
    players: Mapping[str, Player], house: str, named: str | None, credential: str | None
) -> None:
    """Step 2: the connection of ``house`` (whose message names ``named``, if any) may act
    for it: a seat of the game, played by a person, with the right credentials."""
    player = players.get(house)
    if player is None:
        raise WrongSeat(f"{house!r} is not a seat of this game", "seat/unknown")
    if named is not None and named != house:
        raise WrongSeat(f"this connection plays {house}, not {named}", "seat/other-house")
    if not isinstance(player, Human):
        raise WrongSeat(f"{house} is played by the computer", "seat/computer")
    if player.credential is not None and credential != player.credential:
        raise WrongSeat(f"wrong credentials for {house}", "seat/credentials")
