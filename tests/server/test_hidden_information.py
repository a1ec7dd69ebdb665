"""Hidden information over the wire (RULES.md 0.4.4, DESIGN §2): whole games in which every
seat is a person's, each seat a WebSocket client of its own that decides only from the ``view``
messages it received (a ``westeros.ai`` bot given that view and the public Ruleset) and acts on
its own socket. Every message each seat receives is recorded and checked against the secret
commitments as they were made (orders before the reveal, bids, house cards, Tides of Battle
draws, a looked-at wildling card).

Each accepted action is followed by exactly one ``view`` message on every seat's socket (state
ids 0, 1, 2, ... with nothing else between them); a refused action's ``error`` goes only to its
sender.

For every ``view`` message to seat A sent at state ``s``:

1. its view is exactly ``player_view(s, A)`` (the server adds nothing), and its prompt, if
   any, is A's own;
2. it does not change when every other house's uncommitted-to-public secrets are taken out of
   ``s`` (commitments inside simultaneous steps, ``_`` keys in the combat and in ``ext``):
   nothing A receives depends on them;
3. direct checks against each live secret of another house B: none of B's placed orders is on
   A's board, B's chosen house card is not shown as played, and no log line names it;
4. its log holds exactly the events of that action that A may see (``visible``), so a
   private event (B's Tides of Battle card, B's look at the wildling deck) never reaches A."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.server.conftest import BASE, COOKIE, TOKEN, nothing_pending, receive, seat_url
from westeros.ai import BaselineBot, Player, RandomBot
from westeros.engine import Action, Choose, Ruleset, State
from westeros.engine.flow import Simultaneous, pending
from westeros.engine.planning import PlaceOrders
from westeros.engine.state import Event
from westeros.engine.view import event_view, player_view, visible
from westeros.plugins import build_ruleset
from westeros.server.games import Games
from westeros.session import Accepted

GAME_TIMEOUT_S = 300
BUDGET = 1.0


def secrets_of(state: State) -> list[tuple[str, Action]]:
    """Every commitment still secret in ``state``: (house, action) inside simultaneous steps."""
    return [
        (h, a) for step in state.stack if isinstance(step, Simultaneous) for h, a in step.commits
    ]


def without_others_secrets(state: State, viewer: str) -> State:
    """``state`` with every secret that is not ``viewer``'s own taken out: other houses'
    commitments dropped, other sides' secret combat data (Tides of Battle draws, kept as
    (side, card) pairs) blanked, secret ``ext`` keys (deck orders) removed."""
    s = state.copy()
    s.stack = tuple(
        dataclasses.replace(step, commits=tuple((h, a) for h, a in step.commits if h == viewer))
        if isinstance(step, Simultaneous)
        else step
        for step in s.stack
    )
    if s.combat is not None:
        mine = s.combat.side_of(viewer)
        data = tuple(
            (k, tuple((side, v if side == mine else "?") for side, v in value))
            if k.startswith("_")
            else (k, value)
            for k, value in s.combat.data
        )
        s.combat = dataclasses.replace(s.combat, data=data)
    s.ext = {k: v for k, v in s.ext.items() if not k.startswith("_")}
    return s


def as_json(value: Any) -> Any:
    """``value`` as it arrives through the WebSocket (tuples become lists)."""
    return json.loads(json.dumps(value))


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("waiting_for", "committed")}


def check_view(
    message: dict[str, Any], viewer: str, state: State, events: list[Event]
) -> list[str]:
    """Everything wrong with one ``view`` message to ``viewer`` sent at ``state``."""
    problems = []
    view = message["view"]
    if view != as_json(player_view(state, viewer)):
        problems.append("the view is not the seat's player_view")
    own = pending(state).get(viewer)
    if (view["prompt"] is None) != (own is None) or (own and view["prompt"]["kind"] != own.kind):
        problems.append("the prompt is not the seat's own")
    stripped = as_json(player_view(without_others_secrets(state, viewer), viewer))
    if public_part(stripped) != public_part(view):
        problems.append("the view depends on another house's secret")
    text = json.dumps(message["log"])
    combat = view["combat"]
    for house, action in secrets_of(state):
        if house == viewer:
            continue
        if isinstance(action, PlaceOrders):
            for area, token in action.orders:
                if view["orders"].get(area) == [house, token]:
                    problems.append(f"{house}'s secret order {token} in {area} is shown")
        if isinstance(action, Choose) and combat is not None:
            for side in ("attacker", "defender"):
                if combat[side]["house"] == house and combat[side]["card"] is not None:
                    problems.append(f"{house}'s house card is shown before the reveal")
            if f'"{action.option}"' in text:
                problems.append(f"{house}'s secret choice {action.option} is in the log")
    expected = [as_json(event_view(e)) for e in events if visible(e, viewer)]
    got = [{k: v for k, v in entry.items() if k != "text"} for entry in message["log"]]
    if got != expected:
        problems.append(f"the log is not what the seat may see: {got} != {expected}")
    return problems


def play_from_the_sockets(
    sockets: Mapping[str, WebSocketTestSession],
    bots: Mapping[str, Player],
    rules: Ruleset,
    seed: int,
) -> dict[str, list[dict[str, Any]]]:
    """Play a whole game through the seats' sockets and return every message each seat
    received. Each turn one seat that its last view asks to decide (picked with ``seed``) lets
    its bot decide on that view and sends the action on its own socket; if the action is
    refused (the error reaches that seat only), a random legal answer from the same view is
    sent instead. Every accepted action must bring each seat exactly its next view, and its
    sender the ``accepted`` reply."""
    chooser = random.Random(seed)
    fallback = RandomBot(seed=seed)
    received = {house: [receive(ws)] for house, ws in sockets.items()}
    latest = {house: messages[0] for house, messages in received.items()}
    for message in latest.values():
        assert (message["type"], message["state_id"], message["history"]) == ("view", 0, True)
    serial = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while all(message["view"]["winner"] is None for message in latest.values()):
        assert time.monotonic() < deadline, "the game did not finish"
        asked = sorted(h for h, message in latest.items() if message["view"]["prompt"] is not None)
        assert asked, f"nobody is asked to decide at state {serial}, yet the game goes on"
        house = chooser.choice(asked)
        view = latest[house]["view"]
        for player in (bots[house], fallback):
            action = player.decide(view, rules, BUDGET)
            sockets[house].send_json(
                {"type": "action", "action": action.to_json(), "state_id": serial}
            )
            reply = receive(sockets[house])
            received[house].append(reply)
            if reply["type"] != "error":
                break
        assert (reply["type"], reply["state_id"]) == ("view", serial + 1), reply
        serial += 1
        latest[house] = reply
        answer = receive(sockets[house])  # after game_over if the action ended the game
        if answer["type"] == "game_over":
            received[house].append(answer)
            answer = receive(sockets[house])
        assert answer == {"type": "accepted", "state_id": serial, "in_reply_to": None}, answer
        for other, ws in sockets.items():
            if other != house:
                message = receive(ws)
                received[other].append(message)
                assert (message["type"], message["state_id"]) == ("view", serial), message
                latest[other] = message
    for house, ws in sockets.items():
        if received[house][-1]["type"] != "game_over":
            message = receive(ws)
            received[house].append(message)
            assert message["type"] == "game_over", message
        nothing_pending(ws)  # exactly one view per action, then game_over, then nothing
    return received


@pytest.mark.parametrize(
    ("players", "bot", "options"),
    [
        (3, RandomBot, {"tides_of_battle": True}),
        (6, BaselineBot, {"tides_of_battle": True}),
    ],
    ids=["3-random-tides", "6-baseline-tides"],
)
def test_no_seat_ever_receives_another_seats_secrets(
    make_app: Callable[..., Any],
    players: int,
    bot: Callable[..., Player],
    options: dict[str, Any],
) -> None:
    app = make_app()
    games: Games = app.state.games
    rules = build_ruleset(options)  # the public content every client has
    houses = tuple(rules.setups[players].houses)
    session = games.create(
        players=players, human=None, humans=houses, seed=players * 101, options=options
    )
    assert not any(session.is_ai(house) for house in houses)
    states: dict[int, State] = {0: session.state}
    events: dict[int, list[Event]] = {}
    secret_kinds: set[str] = set()

    def record(accepted: Accepted) -> None:
        before = states[accepted.serial - 1]
        if isinstance(before.stack[-1], Simultaneous):
            secret_kinds.add(accepted.action.kind)
        states[accepted.serial] = accepted.state
        events[accepted.serial] = list(accepted.events)

    session.observe(record)
    opening = list(session.state.events)
    bots = {house: bot(seed=sum(map(ord, house))) for house in houses}
    with TestClient(app, base_url=BASE) as client, contextlib.ExitStack() as stack:
        client.cookies.set(COOKIE, TOKEN)
        sockets = {
            house: stack.enter_context(client.websocket_connect(seat_url(session.game_id, house)))
            for house in houses
        }
        received = play_from_the_sockets(sockets, bots, rules, seed=players)
    assert session.over
    final = session.serial
    assert {"place_orders", "bid", "choose"} <= secret_kinds  # orders, bids, house cards
    assert any(e.kind == "tides_drawn" for happened in events.values() for e in happened)
    problems: list[str] = []
    for house, messages in received.items():
        views = [m for m in messages if m["type"] == "view"]
        assert [m["state_id"] for m in views] == list(range(final + 1))
        for message in views:
            s = message["state_id"]
            happened = opening if s == 0 else events[s]
            for problem in check_view(message, house, states[s], happened):
                problems.append(f"{house} at state {s}: {problem}")
        assert messages[-1] == session.game_over_message()
    assert not problems, "\n".join(problems[:20])
