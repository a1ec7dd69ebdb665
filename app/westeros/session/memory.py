"""What an AI seat saw at each earlier Planning (4) and reveal of the orders (4.1), rebuilt from
the game's log, for an AI that reads its opponents over the game (``seats.Recalling``: Hard,
``westeros.ai.opponents``) when it takes a seat mid-game: a resumed game, or a seat the
computer takes over. Only the seat's own ``player_view`` of each state is given."""

from __future__ import annotations

from typing import Any

from westeros.engine.planning import PlaceOrders
from westeros.engine.view import player_view
from westeros.store import Timeline

REVEALED = "orders_revealed"
"""The event of the reveal (4.1), emitted by the engine's order placement."""

Past = list[tuple[dict[str, Any], dict[str, Any]]]
"""(the seat's view as it placed its orders, its view once every order was revealed), a pair a
round."""


def planning_rounds(timeline: Timeline, house: str) -> Past:
    """For every round of ``timeline`` in which ``house`` placed orders and the orders were
    revealed: ``house``'s view just before it placed them (its prompt included) and its view at
    the reveal."""
    out: Past = []
    placed: int | None = None
    for seq in range(1, timeline.total + 1):
        entry = timeline.entry(seq)
        if entry is not None and entry.house == house and entry.action["kind"] == PlaceOrders.kind:
            placed = seq
        if placed is not None and any(e.kind == REVEALED for e in timeline.events(seq)):
            before, revealed = timeline.state(placed - 1), timeline.state(seq)
            out.append((player_view(before, house), player_view(revealed, house)))
            placed = None
    return out
