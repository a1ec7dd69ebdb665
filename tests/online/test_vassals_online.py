"""A Mother of Dragons game with vassals on the online server (RULES.md 11.2.5, 11.10): the lobby
has a seat per player house only; the person claims a vassal over its seat's socket and answers
that vassal's order placement there, naming the vassal (11.10.3-11.10.4); the AI seats answer
for the vassals they command, so the round goes on to the reveal."""

from __future__ import annotations

from typing import Any

from westeros.ai import BaselineBot
from westeros.plugins import build_ruleset

from .helpers import receive_until

OPTIONS = {"mother_of_dragons": True, "mod_vassals": True}
PERSON = "baratheon"
VASSAL = "arryn"


def orders_for(view: dict[str, Any], house: str) -> dict[str, Any]:
    """Legal orders for ``house``'s prompt in ``view`` (the seat's own or one it answers for),
    worked out from the view alone."""
    prompt = view["prompt"] if house == view["house"] else view["answering_for"][house]["prompt"]
    asked = {**view, "house": house, "prompt": prompt}
    return BaselineBot(seed=1).decide(asked, build_ruleset(OPTIONS), 0.05).to_json()


def test_11_10_3_a_person_claims_and_commands_a_vassal_online(player: Any) -> None:
    alice = player("Alice")
    created = alice.post(
        "/api/lobbies",
        {"players": 4, "house": PERSON, "options": OPTIONS, "ai_level": "baseline"},
    )
    assert created.status_code == 200, created.text
    lobby = created.json()["lobby"]
    assert sorted(s["house"] for s in lobby["seats"]) == [
        "baratheon",
        "greyjoy",
        "lannister",
        "stark",
    ]
    started = alice.post(f"/api/lobbies/{lobby['id']}/start").json()["lobby"]
    seat = f"/ws/games/{started['game_id']}/seats/{PERSON}"
    with alice.client.websocket_connect(seat) as ws:
        first = ws.receive_json()
        prompt = first["view"]["prompt"]
        assert prompt["kind"] == "claim_vassals" and VASSAL in prompt["data"]["vassals"]
        claim = {"kind": "claim_vassals", "vassals": [VASSAL]}
        ws.send_json({"type": "action", "action": claim, "state_id": first["state_id"]})
        own = receive_until(
            ws,
            lambda m: (
                m["type"] == "view" and (m["view"]["prompt"] or {}).get("kind") == "place_orders"
            ),
        )
        assert dict(own["view"]["ext"]["vassal_commanders"])[VASSAL] == PERSON
        action = orders_for(own["view"], PERSON)
        ws.send_json({"type": "action", "action": action, "state_id": own["state_id"]})

        def vassal_asked(message: dict[str, Any]) -> bool:
            answered = (message.get("view") or {}).get("answering_for", {}).get(VASSAL, {})
            return (answered.get("prompt") or {}).get("kind") == "place_orders"

        asked = receive_until(ws, vassal_asked, limit=500)
        action = orders_for(asked["view"], VASSAL)
        assert action["orders"], "the vassal places at least one order here"
        message = {
            "type": "action",
            "action": action,
            "state_id": asked["state_id"],
            "house": VASSAL,
        }
        ws.send_json(message)
        revealed = receive_until(
            ws, lambda m: m["type"] == "view" and m["view"]["orders"], limit=500
        )
    houses = {house for house, _ in revealed["view"]["orders"].values()}
    assert VASSAL in houses and PERSON in houses
    placed = {area: token for area, (house, token) in revealed["view"]["orders"].items()}
    assert all(placed[area] == token for area, token in action["orders"])
