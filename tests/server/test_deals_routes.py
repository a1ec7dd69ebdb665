"""Deals over the local core's routes (issue 15 point 4; routes/deals.py): a person offers an
AI with a personality (the Turtle) a deal and it answers at once; another house never learns
of that deal, neither on its deals route nor on its socket; a computer's seat cannot be read;
an offer from an AI waits for the person's Accept or Decline. 0.4.4: the server filters."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from westeros.deals import NonAggression
from westeros.deals.table import MAX_OFFERS_PER_ROUND
from westeros.engine import board
from westeros.server.games import Games

from .conftest import BASE, COOKIE, TOKEN, receive, seat_url


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """The local core with the game's own AI and the plugins' personalities."""
    with TestClient(make_app(ai_factory=None), base_url=BASE, follow_redirects=False) as c:
        c.cookies.set(COOKIE, TOKEN)
        yield c


@pytest.fixture
def game_id(client: TestClient) -> str:
    """A 3-player hot-seat game (2.1): Stark and Lannister are people, Baratheon the Turtle."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    session = games.create(
        players=3,
        human="stark",
        humans=("lannister",),
        seed=1,
        personalities={"baratheon": "turtle"},
        start_ai=False,
    )
    return session.game_id


def offer(client: TestClient, game_id: str, house: str, **body: Any) -> Any:
    return client.post(f"/games/{game_id}/deals/{house}/proposals", json=body)


def test_15_4_the_turtle_accepts_and_only_the_two_houses_see_the_deal(
    client: TestClient, game_id: str
) -> None:
    answer = offer(client, game_id, "stark", to="baratheon", term={"kind": "non_aggression"})
    assert answer.status_code == 200
    stark = answer.json()
    assert stark["done"]["status"] == "accept"
    assert [d["houses"] for d in stark["deals"]] == [["baratheon", "stark"]]

    other = client.get(f"/games/{game_id}/deals/lannister").json()
    assert other["proposals"] == [] and other["deals"] == []
    with client.websocket_connect(seat_url(game_id, "lannister")) as ws:
        text = json.dumps(receive(ws))
    assert "non_aggression" not in text and '"deals"' not in text
    # Lannister cannot answer Stark's proposal, nor read the computer's seat.
    refused = client.post(
        f"/games/{game_id}/deals/lannister/replies", json={"proposal": "p1", "answer": "accept"}
    )
    assert refused.status_code == 400
    assert client.get(f"/games/{game_id}/deals/baratheon").status_code == 403
    assert client.get(f"/games/{game_id}/deals/tyrell").status_code == 404
    assert client.get("/games/no-such-game/deals/stark").status_code == 404


def test_15_4_a_bad_offer_is_refused_with_nothing_recorded(
    client: TestClient, game_id: str
) -> None:
    for body in (
        {"to": "stark", "term": {"kind": "non_aggression"}},
        {"to": "tyrell", "term": {"kind": "non_aggression"}},
        {"to": "baratheon", "term": {"kind": "split_everything"}},
        {"to": "baratheon", "term": {"kind": "stay_out", "area": "atlantis"}},
    ):
        assert offer(client, game_id, "stark", **body).status_code == 400, body
    assert client.get(f"/games/{game_id}/deals/stark").json()["proposals"] == []


def test_15_4_an_offer_from_an_ai_waits_for_the_persons_answer(
    client: TestClient, game_id: str
) -> None:
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    table = games.deals(game_id)
    made = table.book.propose("baratheon", "stark", (NonAggression(("baratheon", "stark"), 1),), 1)
    shown = client.get(f"/games/{game_id}/deals/stark").json()
    assert [(p["proposer"], p["status"]) for p in shown["proposals"]] == [("baratheon", "open")]
    assert client.get(f"/games/{game_id}/deals/lannister").json()["proposals"] == []

    reply = client.post(
        f"/games/{game_id}/deals/stark/replies", json={"proposal": made.id, "answer": "accept"}
    )
    assert reply.status_code == 200
    assert [d["houses"] for d in reply.json()["deals"]] == [["baratheon", "stark"]]
    again = client.post(
        f"/games/{game_id}/deals/stark/replies", json={"proposal": made.id, "answer": "decline"}
    )
    assert again.status_code == 400


def test_36_5_the_deals_message_holds_the_seats_own_deal_log_and_the_areas_it_promised_to_spare(
    client: TestClient, game_id: str
) -> None:
    offer(client, game_id, "stark", to="baratheon", term={"kind": "non_aggression"})
    stark = client.get(f"/games/{game_id}/deals/stark").json()
    assert [(e["kind"], e.get("answer")) for e in stark["log"]] == [
        ("deal_proposed", None),
        ("deal_answered", "accept"),
    ]
    assert stark["log"][0]["proposer"] == "stark" and stark["log"][0]["recipient"] == "baratheon"
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    state = games.get(game_id).state
    theirs = {a for a in state.rules.areas if board.controller(state, a) == "baratheon"}
    assert theirs and set(stark["promises"]["march"]) == theirs
    other = client.get(f"/games/{game_id}/deals/lannister").json()
    assert other["log"] == [] and other["promises"] == {"march": {}, "raid": {}}


def test_2_2_a_seat_that_floods_offers_is_refused_until_the_next_round(
    client: TestClient, game_id: str
) -> None:
    """A person's seat makes at most MAX_OFFERS_PER_ROUND proposals a round (each one is stored
    with the game and weighed by an AI): the next is 400 ``deal/too-many-offers`` and records
    nothing; the other person may still offer and answer; the next round allows offers again."""
    pact = {"to": "lannister", "term": {"kind": "non_aggression"}}
    for _ in range(MAX_OFFERS_PER_ROUND):
        assert offer(client, game_id, "stark", **pact).status_code == 200
    refused = offer(client, game_id, "stark", **pact)
    print("the offer past the limit:", refused.json())
    assert refused.status_code == 400 and refused.json()["code"] == "deal/too-many-offers"
    assert str(MAX_OFFERS_PER_ROUND) in refused.json()["error"]
    to_lannister = client.get(f"/games/{game_id}/deals/lannister").json()["proposals"]
    assert len(to_lannister) == MAX_OFFERS_PER_ROUND
    answered = client.post(
        f"/games/{game_id}/deals/lannister/replies",
        json={"proposal": to_lannister[0]["id"], "answer": "accept"},
    )
    assert answered.status_code == 200
    back = offer(client, game_id, "lannister", to="stark", term={"kind": "non_aggression"})
    assert back.status_code == 200

    games: Games = client.app.state.games  # type: ignore[attr-defined]
    book = games.deals(game_id).book
    for pid, made in list(book.proposals.items()):  # as if stark had offered them last round
        book.proposals[pid] = dataclasses.replace(made, round=made.round - 1)
    assert offer(client, game_id, "stark", **pact).status_code == 200
