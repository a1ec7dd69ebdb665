"""Deals in a local game (issue 15 point 4) are saved with the game: after the app is reopened
(a new ``Games`` on the same database) the person's deal with an AI is still there, with its
answer, and the AIs do not start the round's talks again. DESIGN §5 (the store)."""

from __future__ import annotations

import pytest

from westeros.ai import AIPersonality
from westeros.plugins import load
from westeros.server.games import Games
from westeros.store import GameStore


@pytest.fixture
def registered() -> tuple[AIPersonality, ...]:
    """The personalities the plugins register (the bundled plugin's four)."""
    return tuple(load().ai_personalities)


def test_a_deal_with_an_ai_survives_a_resume(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    session = games.create(
        players=3, human="stark", seed=1, personalities={"baratheon": "turtle"}, start_ai=False
    )
    game_id = session.game_id
    done = games.deals(game_id).propose("stark", "baratheon", {"kind": "non_aggression"})
    assert done["status"] == "accept"
    before = games.deals(game_id).message("stark")
    games.close()

    reopened = Games(store, personalities=registered)
    shown = reopened.deals(game_id).message("stark")
    assert [d["houses"] for d in shown["deals"]] == [["baratheon", "stark"]]
    assert [d["status"] for d in shown["deals"]] == ["pending"]
    assert [(p["recipient"], p["status"]) for p in shown["proposals"]] == [("baratheon", "accept")]
    assert shown == before  # no new talks: round 1's already took place
    reopened.close()


def test_deleting_a_game_deletes_its_deals(
    store: GameStore, registered: tuple[AIPersonality, ...]
) -> None:
    games = Games(store, personalities=registered)
    session = games.create(
        players=3, human="stark", seed=1, personalities={"baratheon": "turtle"}, start_ai=False
    )
    games.deals(session.game_id).propose("stark", "baratheon", {"kind": "non_aggression"})
    assert store.deal_book(session.game_id) is not None
    games.delete(session.game_id)
    assert store.deal_book(session.game_id) is None
    games.close()
