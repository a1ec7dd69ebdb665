"""Ratings at the real end of online games (issue 40, docs/online-ratings.md): two ranked
tables are played to their end by the AI for their absent people (a grace period of 0 s), one
with a person in every seat and one with an AI seat from the start. The hub records each game
once as it ends; the first moves its people's ratings exactly as OpenSkill's ``rate`` does on
the final standings the engine reports (the ``game_over`` ranking, RULES.md 9.2), the second
moves none. Profiles over HTTP show both games."""

from __future__ import annotations

from typing import Any

import pytest

from westeros.online import ratings

from .helpers import Player, wait_for
from .ratings_helpers import houses, openskill_ratings


def _ranked_table(host: Player, others: list[Player], players: int) -> dict[str, Any]:
    """A started ranked game of ``players`` hosted by ``host`` in the first house, ``others``
    in the next ones (the rest: the AI), every person away (grace 0: the AI plays for them)."""
    order = houses(players)
    settings = {"players": players, "name": f"{host.name} ranked", "house": order[0]}
    reply = host.post("/api/lobbies", {**settings, "ranked": True, "grace_seconds": 0})
    assert reply.status_code == 200, reply.text
    lobby, invites = reply.json()["lobby"], reply.json()["invites"]
    assert lobby["settings"]["ranked"] is True
    for person, house in zip(others, order[1:], strict=False):
        joined = person.post("/api/join", {"invite": invites[house].split("#invite=", 1)[1]})
        assert joined.status_code == 200, joined.text
        assert person.post(f"/api/lobbies/{lobby['id']}/ready", {"ready": True}).status_code == 200
    started = host.post(f"/api/lobbies/{lobby['id']}/start")
    assert started.status_code == 200, started.text
    return dict(started.json()["lobby"])


def _profile(person: Player) -> dict[str, Any]:
    reply = person.client.get(f"/api/players/{person.id}/profile")
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def test_a_ranked_game_played_to_its_end_moves_ratings_by_the_engine_s_standings(
    online_app: Any, player: Any
) -> None:
    ana, ben, cai, dee, eli = (player(name) for name in ("Ana", "Ben", "Cai", "Dee", "Eli"))
    full = _ranked_table(ana, [ben, cai], 3)
    with_ai = _ranked_table(dee, [eli], 3)
    hub = online_app.state.online.hub

    def recorded(person: Player, game_id: str) -> dict[str, Any] | None:
        return next((g for g in _profile(person)["history"] if g["game_id"] == game_id), None)

    wait_for(lambda: recorded(ana, full["game_id"]), timeout=300, step=0.5)
    wait_for(lambda: recorded(dee, with_ai["game_id"]), timeout=300, step=0.5)
    session, _ = hub.session(full["game_id"])
    over = session.game_over_message()
    print(f"the engine's standings: {over['ranking']}")
    seated = {
        s["house"]: p.id for s in full["seats"] for p in (ana, ben, cai) if s["player"] == p.name
    }
    expected = openskill_ratings([(seated, over["ranking"])])
    for person in (ana, ben, cai):
        shown = _profile(person)
        house = next(h for h, pid in seated.items() if pid == person.id)
        game = recorded(person, full["game_id"])
        assert game is not None and game["ranked"] and game["house"] == house
        assert game["place"] == over["ranking"].index(house) + 1 and game["players"] == 3
        rating = shown["rating"]
        print(f"{person.name} ({house}): place {game['place']}, rating {rating}")
        assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[person.id], rel=1e-9)
        assert rating["games"] == 1 and shown["reliability"]["finished"] == 1
    for person in (dee, eli):
        shown = _profile(person)
        game = recorded(person, with_ai["game_id"])
        assert game is not None and (game["ranked"], game["reason"]) == (False, "ai-seat")
        assert shown["rating"] is None and shown["reliability"]["finished"] == 1
    # Every worker that follows a game sees it end and records it: the game counts once.
    assert not ratings.record_game(hub.online, full["id"], full["game_id"], over["ranking"])
    assert _profile(ana)["rating"]["games"] == 1
