"""Issue 37 point 4: "the Deals panel in online games has an empty "With" list and every update
requests /games/<id>/deals/<house> and gets 404". The online server answers the panel's routes
for the seat's own player only; a deal's terms reach its two houses and nobody else."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .helpers import start_game


def test_issue37_online_deals_answer_the_seats_own_player_only(
    online_app: Any, player: Any
) -> None:
    """Stark's person (Alice) offers Lannister's person (Bob) a non-aggression pact; Baratheon
    is the AI. Each seat's panel lists the other two houses; Bob sees the offer made to him
    and accepts it; neither may read or act for the other's seat, nor may anyone without a
    key, and the AI's seat is nobody's."""
    alice, bob = player("Alice"), player("Bob")
    lobby = start_game(alice, [(bob, "lannister")])
    panel = f"/games/{lobby['game_id']}/deals"

    mine = alice.client.get(f"{panel}/stark")
    assert mine.status_code == 200, mine.text
    assert sorted(mine.json()["houses"]) == ["baratheon", "lannister"]
    assert mine.json()["proposals"] == [] and mine.json()["deals"] == []

    offer = alice.post(
        f"{panel}/stark/proposals", {"to": "lannister", "term": {"kind": "non_aggression"}}
    )
    assert offer.status_code == 200, offer.text
    proposal = offer.json()["done"]
    assert proposal["status"] == "open" and proposal["recipient"] == "lannister"

    to_bob = bob.client.get(f"{panel}/lannister").json()
    assert sorted(to_bob["houses"]) == ["baratheon", "stark"]
    assert [(p["proposer"], p["status"]) for p in to_bob["proposals"]] == [("stark", "open")]

    for refused in (
        bob.client.get(f"{panel}/stark"),
        bob.post(
            f"{panel}/stark/proposals", {"to": "baratheon", "term": {"kind": "non_aggression"}}
        ),
        alice.post(f"{panel}/lannister/replies", {"proposal": proposal["id"], "answer": "accept"}),
        alice.client.get(f"{panel}/baratheon"),
        TestClient(online_app).get(f"{panel}/stark"),
    ):
        assert refused.status_code in (401, 403), refused.text
        assert "non_aggression" not in refused.text

    accepted = bob.post(
        f"{panel}/lannister/replies", {"proposal": proposal["id"], "answer": "accept"}
    )
    assert accepted.status_code == 200, accepted.text
    assert [d["houses"] for d in accepted.json()["deals"]] == [["lannister", "stark"]]
    assert [d["status"] for d in alice.client.get(f"{panel}/stark").json()["deals"]] == ["pending"]

    to_ai = alice.post(
        f"{panel}/stark/proposals", {"to": "baratheon", "term": {"kind": "non_aggression"}}
    )
    assert to_ai.json()["done"]["status"] == "decline"  # the online AI does not negotiate
    again = bob.post(f"{panel}/lannister/replies", {"proposal": proposal["id"], "answer": "accept"})
    assert again.status_code == 400 and again.json()["code"] == "deal/refused"
