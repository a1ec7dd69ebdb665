"""Hidden information over the wire (RULES.md 0.4.4, DESIGN §2): during whole games of AI
seats, every message each seat's WebSocket receives is recorded and checked against the secret
commitments as they were made (orders before the reveal, bids, house cards, Tides of Battle
draws, a looked-at wildling card).

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

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import (
    BASE,
    TOKEN,
    baseline_bots,
    random_bots,
    receive,
    receive_until,
    seat_url,
)
from westeros.engine import Action, Choose, State
from westeros.engine.flow import Simultaneous, pending
from westeros.engine.planning import PlaceOrders
from westeros.engine.state import Event
from westeros.engine.view import event_view, player_view, visible
from westeros.server.games import Games
from westeros.session import Accepted, AiFactory

GAME_TIMEOUT_S = 300


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
    return {k: v for k, v in view.items() if k != "waiting_for"}


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


@pytest.mark.parametrize(
    ("players", "bots", "options"),
    [
        (3, random_bots, {"tides_of_battle": True}),
        (6, baseline_bots, {"tides_of_battle": True}),
    ],
    ids=["3-random-tides", "6-baseline-tides"],
)
def test_no_seat_ever_receives_another_seats_secrets(
    make_app: Callable[..., Any],
    players: int,
    bots: AiFactory,
    options: dict[str, Any],
) -> None:
    app = make_app(ai_factory=bots)
    games: Games = app.state.games
    session = games.create(
        players=players, human=None, seed=players * 101, options=options, start_ai=False
    )
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
    houses = session.state.houses
    with TestClient(app, base_url=BASE) as client:
        client.cookies.set("westeros_token", TOKEN)
        sockets = {h: client.websocket_connect(seat_url(session.game_id, h)) for h in houses}
        for ws in sockets.values():
            ws.__enter__()
        try:
            # Each seat has its first view (state 0) before the AIs start.
            first = {h: receive(ws) for h, ws in sockets.items()}
            assert all(m["state_id"] == 0 for m in first.values())
            games.start_ai(session.game_id)
            deadline = time.monotonic() + GAME_TIMEOUT_S
            while not session.over and time.monotonic() < deadline:
                time.sleep(0.05)
            assert session.over, "the AI game did not finish"
            received = {h: [first[h], *receive_until(ws, "game_over")] for h, ws in sockets.items()}
        finally:
            for ws in sockets.values():
                ws.__exit__(None, None, None)
    final = session.serial
    assert {"place_orders", "bid", "choose"} <= secret_kinds  # orders, bids, house cards
    assert any(e.kind == "tides_drawn" for happened in events.values() for e in happened)
    problems: list[str] = []
    for house, messages in received.items():
        views = [m for m in messages if m["type"] == "view"]
        assert [m["state_id"] for m in views] == list(range(final + 1))
        assert views[0]["history"] is True
        for message in views:
            s = message["state_id"]
            happened = opening if s == 0 else events[s]
            for problem in check_view(message, house, states[s], happened):
                problems.append(f"{house} at state {s}: {problem}")
        assert messages[-1] == session.game_over_message()
    assert not problems, "\n".join(problems[:20])
