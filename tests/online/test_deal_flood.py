"""A seat that floods the other houses with deal offers on the online server (2.2; the deal
table is the one of local play, ``deals.table.MAX_OFFERS_PER_ROUND``): each offer is stored
with the game, so the offer past the limit is refused with its own code and stores nothing,
and the flooded person's panel and their own offers go on."""

from __future__ import annotations

from typing import Any

from westeros.deals.table import MAX_OFFERS_PER_ROUND

from .helpers import start_game


def test_an_online_seat_that_floods_offers_is_refused_with_its_own_code(
    online_app: Any, player: Any
) -> None:
    alice, bob = player("Alice"), player("Bob")
    lobby = start_game(alice, [(bob, "lannister")])
    panel = f"/games/{lobby['game_id']}/deals"
    pact = {"to": "lannister", "term": {"kind": "non_aggression"}}
    for _ in range(MAX_OFFERS_PER_ROUND):
        assert alice.post(f"{panel}/stark/proposals", pact).status_code == 200
    refused = alice.post(f"{panel}/stark/proposals", pact)
    print("the offer past the limit:", refused.status_code, refused.json())
    assert refused.status_code == 400 and refused.json()["code"] == "deal/too-many-offers"
    offers = bob.client.get(f"{panel}/lannister").json()["proposals"]
    assert len(offers) == MAX_OFFERS_PER_ROUND
    back = bob.post(
        f"{panel}/lannister/proposals", {"to": "stark", "term": {"kind": "non_aggression"}}
    )
    assert back.status_code == 200, back.text
