"""Empty seats of an online game are played by the AI at the level and with the personality
the host chose (issue 10, "Lobby flow"; DESIGN §3): the lobby form offers the same levels and
personalities as the local start screen, the choice is checked, recorded with each AI seat (a
restarted server resumes the same AI) and kept when a kicked person's seat goes to the AI."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .helpers import Player, start_game

REGISTERED = {"conqueror", "turtle", "power-broker", "opportunist"}


def _options(page: str, name: str) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, f"no {name} select"
    return re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select.group(1))


def _ai_seats(online_app: Any, lobby: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """(level, personality) recorded for each AI seat of the lobby's game."""
    setup = online_app.state.online.store.game(lobby["game_id"]).setup
    return {s.house: (s.name, s.personality) for s in setup.seats if s.kind == "ai"}


def _playing(online_app: Any, lobby: dict[str, Any], house: str) -> tuple[str, str]:
    session, _ = online_app.state.online.hub.session(lobby["game_id"])
    ai = session.players[house]
    return ai.level, ai.personality.id


def test_the_lobby_form_offers_the_start_screens_ai_levels_and_personalities(
    online_app: Any,
) -> None:
    page = TestClient(online_app).get("/").text
    assert _options(page, "ai_level") == [
        ("baseline", "Easy"),
        ("standard", "Standard"),
        ("normal", "Normal"),
        ("hard", "Hard"),
    ]
    assert _options(page, "ai_personality") == [
        ("balanced", "Balanced"),
        ("conqueror", "The Conqueror"),
        ("turtle", "The Turtle"),
        ("power-broker", "The Power Broker"),
        ("opportunist", "The Opportunist"),
        ("any", "Any (drawn at random)"),
    ]


def test_the_ai_seats_play_the_chosen_personality_and_keep_it_after_a_restart(
    online_app: Any, player: Any, tmp_path: Path
) -> None:
    alice = player("Alice")
    lobby = start_game(alice, [], ai_level="standard", ai_personality="turtle")
    expected = {"lannister": ("standard", "turtle"), "baratheon": ("standard", "turtle")}
    assert _ai_seats(online_app, lobby) == expected
    assert _playing(online_app, lobby, "lannister") == ("standard", "turtle")

    from westeros.online.app import create_online_app

    again = create_online_app(store_url=f"sqlite:///{tmp_path / 'online.db'}", ai_budget=0.05)
    with TestClient(again):
        assert _playing(again, lobby, "baratheon") == ("standard", "turtle")


def test_any_draws_a_registered_personality_for_each_ai_seat(online_app: Any, player: Any) -> None:
    alice = player("Alice")
    lobby = start_game(alice, [], players=6, ai_personality="any")
    drawn = {personality for _, personality in _ai_seats(online_app, lobby).values()}
    assert drawn and drawn <= REGISTERED


def test_an_unknown_personality_is_refused_and_no_lobby_is_made(player: Any) -> None:
    alice = player("Alice")
    refused = alice.post(
        "/api/lobbies", {"players": 3, "house": "stark", "ai_personality": "berserker"}
    )
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        "the AI personality is one of balanced, conqueror, turtle, power-broker, opportunist, any"
    )
    assert alice.client.get("/api/lobbies").json()["lobbies"] == []


def test_a_kicked_persons_seat_goes_to_the_ai_with_the_chosen_personality(
    online_app: Any, player: Any
) -> None:
    alice, bob = player("Alice"), player("Bob")
    lobby = start_game(alice, [(bob, "lannister")], ai_personality="conqueror")
    kicked = alice.post(f"/api/lobbies/{lobby['id']}/kick", {"house": "lannister"})
    assert kicked.status_code == 200
    assert _playing(online_app, lobby, "lannister")[1] == "conqueror"


def test_without_a_choice_the_ai_seats_play_balanced(online_app: Any, player: Any) -> None:
    alice: Player = player("Alice")
    created = alice.post("/api/lobbies", {"players": 3, "house": "stark", "open_houses": ["stark"]})
    started = alice.post(f"/api/lobbies/{created.json()['lobby']['id']}/start")
    assert set(_ai_seats(online_app, started.json()["lobby"]).values()) == {
        ("baseline", "balanced")
    }
