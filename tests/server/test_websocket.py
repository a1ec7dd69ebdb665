"""The seat WebSocket (docs/protocol.md): a seat's view on connect and after every accepted
action; malformed and illegal messages get an error reply for their sender only, checked in
the order of DESIGN §4, and leave the game, its log and every other seat untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import (
    engine_refusal,
    nothing_pending,
    orders_for,
    receive,
    refused,
    seat_url,
    taken,
)
from westeros.engine import Bid, Choose
from westeros.engine.flow import random_action
from westeros.engine.planning import PlaceOrders
from westeros.server.games import Games
from westeros.session import GameSession


def test_seat_receives_its_own_view_and_log_on_connect(
    client: TestClient, game: GameSession
) -> None:
    with client.websocket_connect(seat_url(game.game_id, "stark")) as ws:
        first = receive(ws)
    assert first["type"] == "view"
    assert first["house"] == "stark"
    assert first["state_id"] == 0
    assert first["history"] is True
    view = first["view"]
    assert view["house"] == "stark"
    assert view["round"] == 1
    assert view["prompt"]["kind"] == "place_orders"  # round 1 starts with Planning (3.1)
    assert sorted(view["prompt"]["data"]["areas"]) == sorted(
        a for a, units in game.state.units.items() if units[0].house == "stark"
    )
    assert view["waiting_for"] == ["baratheon", "lannister", "stark"]
    assert {"kind": "round", "round": 1, "text": "Round 1 begins."} in first["log"]


def test_accepted_action_is_broadcast_to_every_seat_with_its_own_view(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    stark, lannister = seats
    stark.send_json({"type": "action", "action": orders_for(game, "stark"), "state_id": 0})
    for ws, house in ((stark, "stark"), (lannister, "lannister")):
        update = receive(ws)
        assert update["type"] == "view"
        assert update["state_id"] == 1
        assert update["history"] is False
        assert update["view"]["house"] == house
        assert update["view"]["waiting_for"] == ["baratheon", "lannister"]
        assert update["log"] == [
            {"kind": "committed", "house": "stark", "text": "Stark has decided."}
        ]
    assert update["view"]["prompt"]["kind"] == "place_orders"  # Lannister's own prompt
    assert game.store.game(game.game_id).action_count == 1


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{not json", "malformed/json"),
        (b"\xff\xfe", "malformed/encoding"),
        ("[1, 2, 3]", "malformed/not-object"),
        ({"type": "shout", "id": 5}, "malformed/type"),
        ({"type": "action", "id": 6, "state_id": 0}, "malformed/action"),
        ({"type": "action", "id": 7, "action": {"kind": "bid", "amount": 1}}, "malformed/state-id"),
        ({"type": "action", "id": 8, "state_id": 0, "action": {"kind": "fly"}}, "illegal/"),
        (
            {"type": "action", "id": 9, "state_id": 0, "action": {"kind": "bid", "amount": "1"}},
            "illegal/",
        ),
        ({"type": "action", "id": "x" * 5000, "state_id": 0, "action": {}}, "malformed/id"),
    ],
)
def test_malformed_messages_get_an_error_reply_only(
    seats: tuple[WebSocketTestSession, WebSocketTestSession],
    game: GameSession,
    message: Any,
    code: str,
) -> None:
    stark, lannister = seats
    reply = refused(stark, lannister, game, message)
    assert reply["code"] == code or (code == "illegal/" and reply["code"].startswith(code))
    if isinstance(message, dict) and isinstance(message.get("id"), int):
        assert reply["in_reply_to"] == message["id"]


def test_wrong_seat_is_refused(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    stark, lannister = seats
    orders = orders_for(game, "lannister")
    reply = refused(
        stark,
        lannister,
        game,
        {"type": "action", "house": "lannister", "action": orders, "state_id": 0, "id": "a1"},
    )
    assert (reply["code"], reply["in_reply_to"]) == ("seat/other-house", "a1")
    # Baratheon is played by the computer: no connection may act for it (its socket does not
    # even open while the game runs, test_seat_access.py; the session refuses it regardless).
    before = (game.state.hash(), game.store.game(game.game_id).action_count)
    message = {"type": "action", "action": orders_for(game, "baratheon"), "state_id": 0}
    reply = game.handle("baratheon", message)
    assert (reply["type"], reply["code"]) == ("error", "seat/computer")
    assert (game.state.hash(), game.store.game(game.game_id).action_count) == before
    nothing_pending(stark)
    nothing_pending(lannister)


def test_house_that_is_not_pending_is_refused(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    stark, lannister = seats
    orders = orders_for(game, "stark")
    stark.send_json({"type": "action", "action": orders, "state_id": 0})
    assert taken(stark)["state_id"] == receive(lannister)["state_id"] == 1
    # Stark may change its orders until the last house commits (4.1, a take-back); Lannister
    # sees only that Stark has committed.
    changed = orders_for(game, "stark", seed=1)
    stark.send_json({"type": "action", "action": changed, "state_id": 1})
    assert taken(stark)["view"]["take_back"]["commitment"] == changed
    seen = receive(lannister)["view"]
    assert (seen["committed"], seen["take_back"], seen["orders"]) == (["stark"], None, {})
    lannister.send_json(
        {"type": "action", "action": orders_for(game, "lannister"), "state_id": game.serial}
    )
    receive(stark), taken(lannister)
    game.submit("baratheon", random_action(game.state, "baratheon", random.Random(0)), 3)
    revealed = receive(stark)["view"]["orders"]
    receive(lannister)
    assert {a: t for a, (h, t) in revealed.items() if h == "stark"} == dict(changed["orders"])
    # After the reveal Stark is asked nothing: a take-back is refused.
    reply = refused(
        stark, lannister, game, {"type": "action", "action": orders, "state_id": game.serial}
    )
    assert (reply["code"], reply["rule"]) == ("illegal/already-revealed", "4.1")


def test_illegal_action_is_refused_with_the_rule_it_breaks(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    stark, lannister = seats
    # King's Landing holds no Stark unit: no order may go there (4.1).
    orders = {"kind": "place_orders", "orders": [["kings-landing", "march+0"]]}
    reply = refused(stark, lannister, game, {"type": "action", "action": orders, "state_id": 0})
    assert (engine_refusal(reply), reply["rule"]) == (True, "4.1")
    # A bid does not answer the Planning prompt.
    bid = {"type": "action", "action": Bid(1).to_json(), "state_id": 0}
    reply = refused(stark, lannister, game, bid)
    assert (engine_refusal(reply), reply["rule"]) == (True, "0.4")


def test_stale_state_id_is_refused(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    stark, lannister = seats
    orders = orders_for(game, "stark")
    reply = refused(stark, lannister, game, {"type": "action", "action": orders, "state_id": 3})
    assert reply["code"] == "stale-state"


def test_checks_run_in_the_design_order(
    seats: tuple[WebSocketTestSession, WebSocketTestSession], game: GameSession
) -> None:
    """Shape before seat, seat before pending, pending before legality, legality before
    staleness (DESIGN §4): each message breaks two checks and gets the earlier one."""
    stark, lannister = seats
    cases = [
        ({"type": "action", "house": "lannister", "state_id": 0}, "malformed/action"),
        (
            {"type": "action", "house": "lannister", "state_id": 0, "action": Bid(1).to_json()},
            "seat/other-house",
        ),
        (
            {"type": "action", "state_id": 99, "action": {"kind": "place_orders", "orders": []}},
            "illegal/",
        ),
    ]
    for message, code in cases:
        reply = refused(stark, lannister, game, message)
        assert reply["code"] == code or (code == "illegal/" and engine_refusal(reply))


def test_unknown_game_or_seat_is_told_and_closed(client: TestClient, game: GameSession) -> None:
    for url in (seat_url("no-such-game", "stark"), seat_url(game.game_id, "martell")):
        with client.websocket_connect(url) as ws:
            reply = receive(ws)
            assert reply["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404


# ---------------------------------------------------------------------------------- stale views


@pytest.fixture
def hot_seat(games: Games) -> GameSession:
    """A 3-player game of three people (no AI)."""
    return games.create(
        players=3, human=None, humans=("baratheon", "lannister", "stark"), seed=3, start_ai=False
    )


def test_another_houses_secret_commit_does_not_make_a_placement_stale_nor_accept_it(
    client: TestClient, hot_seat: GameSession
) -> None:
    """While houses place orders at once (4.1), another house's commitment changes only
    "waiting for" (the placement sent on the older view is not stale), yet it brings a new
    view: the ``accepted`` reply, to the sender only, is what tells a board its orders are in."""
    game = hot_seat
    with (
        client.websocket_connect(seat_url(game.game_id, "stark")) as stark,
        client.websocket_connect(seat_url(game.game_id, "lannister")) as lannister,
    ):
        assert receive(stark)["state_id"] == receive(lannister)["state_id"] == 0
        lannister.send_json(
            {"type": "action", "action": orders_for(game, "lannister"), "state_id": 0, "id": 7}
        )
        assert [(m["type"], m["state_id"]) for m in (receive(lannister), receive(lannister))] == [
            ("view", 1),
            ("accepted", 1),
        ]
        waiting = receive(stark)  # Stark's orders are not in yet
        assert (waiting["type"], waiting["state_id"]) == ("view", 1)
        stark.send_json(
            {"type": "action", "action": orders_for(game, "stark"), "state_id": 0, "id": "mine"}
        )
        view, accepted = receive(stark), receive(stark)
        assert (view["type"], view["state_id"]) == ("view", 2)
        assert accepted == {"type": "accepted", "state_id": 2, "in_reply_to": "mine"}
        assert receive(lannister)["type"] == "view"
        lannister.send_json({"type": "ping", "id": "p"})
        assert receive(lannister)["type"] == "pong"  # nothing of Stark's came in between


def test_action_on_a_view_that_has_changed_since_is_stale(
    client: TestClient, hot_seat: GameSession
) -> None:
    game = hot_seat
    raven = game.state.tracks["kings_court"][0]  # the Messenger Raven holder decides (4.4)
    with client.websocket_connect(seat_url(game.game_id, raven)) as ws:
        assert receive(ws)["state_id"] == 0
        for house in ("baratheon", "lannister", "stark"):
            game.submit(house, PlaceOrders.from_json(orders_for(game, house)), game.serial)
        updates = [receive(ws) for _ in range(3)]
        revealed = updates[-1]
        assert revealed["view"]["prompt"]["kind"] == "messenger_raven"
        assert revealed["view"]["orders"]  # the reveal changed what the holder sees
        nothing = Choose("nothing").to_json()
        ws.send_json({"type": "action", "action": nothing, "state_id": 2, "id": "late"})
        reply = receive(ws)
        assert (reply["type"], reply["code"], reply["in_reply_to"]) == (
            "error",
            "stale-state",
            "late",
        )
        assert game.serial == 3
        ws.send_json({"type": "action", "action": nothing, "state_id": revealed["state_id"]})
        assert receive(ws)["state_id"] == 4
