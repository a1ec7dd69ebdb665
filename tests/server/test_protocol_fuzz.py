"""A seeded fuzz of the seat WebSocket protocol (issue 14, acceptance 4; DESIGN §4).

Three people play a hot-seat game over three sockets. Each step one seat sends one message
of a random shape: junk text and bytes, JSON that is not an object, unknown or mistyped
fields, pings and hints, actions that are legal, legal for another house, mutated, of a
random kind, stale, nested too deep, too large or holding a lone surrogate. After each
message a ping from the same seat must be answered (the socket is alive), and:

- an accepted message was an action the engine allows for that seat's house on the state
  before it (checked independently: the house was asked, or was changing a commitment not yet
  revealed (4.1), and ``apply`` of the same action gives the new state's hash) — so 0 illegal
  actions are accepted;
- a refused message changed nothing: the state's hash, the stored log and every other seat
  (which receives nothing, checked every few steps) are as before.

``WESTEROS_FUZZ_MESSAGES`` and ``WESTEROS_FUZZ_SEED`` run it longer or differently."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.server.conftest import nothing_pending, receive, seat_url
from westeros.engine import Action, IllegalAction, apply, pending, random_action
from westeros.engine.actions import ActionKinds
from westeros.engine.flow import decision_for
from westeros.server.games import Games
from westeros.session import GameSession

MESSAGES = int(os.environ.get("WESTEROS_FUZZ_MESSAGES", "5000"))
SEED = int(os.environ.get("WESTEROS_FUZZ_SEED", "14"))
HOUSES = ("baratheon", "lannister", "stark")
CHECK_OTHERS_EVERY = 25
CODE = re.compile(r"[a-z]+(-[a-z]+)*(/[a-z]+(-[a-z]+)*)?")

Sockets = dict[str, WebSocketTestSession]


@contextlib.contextmanager
def hot_seat(client: TestClient, games: Games, seed: int) -> Iterator[tuple[GameSession, Sockets]]:
    """A 3-player game in which a person plays every house (2.1), so every seat may act, and
    a socket for each seat, past its first view."""
    game = games.create(players=3, human=None, humans=HOUSES, seed=seed, start_ai=False)
    with contextlib.ExitStack() as stack:
        urls = {h: seat_url(game.game_id, h) for h in HOUSES}
        seats = {h: stack.enter_context(client.websocket_connect(u)) for h, u in urls.items()}
        for ws in seats.values():
            assert receive(ws)["type"] == "view"
        yield game, seats


# ---------------------------------------------------------------------------------- shapes

JUNK_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2**70, 1.5, float("inf"), "", "x", "winterfell", "stark",
    "march+0", "\ud800", "é" * 300, [], [1], ["winterfell", "march+0"], {}, {"kind": "bid"},
    [[[[["deep"]]]]],
]  # fmt: skip


class Fuzzer:
    """Random messages for a game, from a seeded ``random.Random``."""

    def __init__(self, game: GameSession, rnd: random.Random) -> None:
        self.game = game
        self.rnd = rnd
        self.kinds = sorted(game.state.rules.action_kinds)  # the engine's and the plugins'

    def value(self, depth: int = 0) -> Any:
        rnd = self.rnd
        roll = rnd.random()
        if depth < 3 and roll < 0.15:
            return [self.value(depth + 1) for _ in range(rnd.randint(0, 3))]
        if depth < 3 and roll < 0.25:
            return {rnd.choice(["a", "kind", "orders", "id"]): self.value(depth + 1)}
        if roll < 0.45:
            return rnd.choice(list(self.game.state.rules.areas))
        return rnd.choice(JUNK_VALUES)

    def legal(self, house: str) -> dict[str, Any] | None:
        state = self.game.state
        if house not in pending(state):
            return None
        return random_action(state, house, self.rnd).to_json()

    def action(self, house: str) -> Any:
        """An action payload: legal, another house's, mutated or made up."""
        rnd = self.rnd
        roll = rnd.random()
        own = self.legal(house)
        if roll < 0.35 and own is not None:
            return own
        others = [h for h in pending(self.game.state) if h != house]
        if roll < 0.45 and others:
            return self.legal(rnd.choice(others))
        if roll < 0.75 and own is not None:
            mutated = dict(own)
            field = rnd.choice([*mutated, "extra"])
            if rnd.random() < 0.2 and field in mutated:
                del mutated[field]
            else:
                mutated[field] = self.value()
            return mutated
        if roll < 0.9:
            return {"kind": rnd.choice(self.kinds), **{k: self.value() for k in ("option", "area")}}
        return self.value()

    def message(self, house: str) -> str | bytes | dict[str, Any]:
        """One message of a random shape."""
        rnd = self.rnd
        serial = self.game.serial
        own = self.legal(house)
        if own is not None and rnd.random() < 0.3:  # keep the game moving
            return {"type": "action", "state_id": serial, "action": own}
        roll = rnd.random()
        if roll < 0.04:
            return bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 40)))
        if roll < 0.08:
            text = json.dumps({"type": "action", "state_id": serial, "action": self.action(house)})
            return text[: rnd.randint(0, len(text))]  # cut short
        if roll < 0.10:
            return rnd.choice(["[", "[" * 5000, '{"type":"ping","id":"\\udfff"}', "x" * 70_000])
        if roll < 0.14:
            return json.dumps(self.value())  # JSON, rarely an object
        message: dict[str, Any] = {
            "type": rnd.choice(["action"] * 6 + ["hint", "ping", "shout", None]),
            "state_id": rnd.choice([serial] * 6 + [serial - 1, serial + 1, -1, "1", None, 0]),
            "action": self.action(house),
        }
        if rnd.random() < 0.2:
            message["house"] = rnd.choice([*HOUSES, "martell", 7])
        if rnd.random() < 0.3:
            message["id"] = self.value()
        if rnd.random() < 0.05:
            del message[rnd.choice(list(message))]
        return message


# ---------------------------------------------------------------------------------- oracle


def as_action(message: Any, kinds: ActionKinds) -> tuple[Any, Action] | None:
    """(the message's house field, its action) if it reads as an action message of the game's
    ``kinds`` at all."""
    if isinstance(message, bytes | str):
        try:
            message = json.loads(message)
        except (ValueError, RecursionError, UnicodeDecodeError):
            return None
    if not isinstance(message, dict) or message.get("type") != "action":
        return None
    try:
        return message.get("house"), Action.from_json(message.get("action"), kinds)
    except Exception:
        return None


def send(ws: WebSocketTestSession, message: str | bytes | dict[str, Any]) -> None:
    if isinstance(message, bytes):
        ws.send_bytes(message)
    elif isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_text(json.dumps(message))


def replies_until_pong(ws: WebSocketTestSession, probe: str) -> list[dict[str, Any]]:
    """Everything ``ws`` receives up to the pong of ``probe`` (which proves it answers)."""
    out: list[dict[str, Any]] = []
    while True:
        message = receive(ws)
        if message.get("type") == "pong" and message.get("in_reply_to") == probe:
            return out
        out.append(message)


@pytest.mark.slow
def test_fuzzed_messages_from_every_seat_never_get_an_illegal_action_in(
    client: TestClient, games: Games
) -> None:
    """Games that end are followed by a new one until every message is sent."""
    rnd = random.Random(SEED)
    accepted = refused = played = 0
    step = 0
    while step < MESSAGES:
        with hot_seat(client, games, SEED + played) as (game, sockets):
            played += 1
            while step < MESSAGES and not game.over:
                ok = fuzz_step(step, rnd, Fuzzer(game, rnd), game, sockets)
                accepted, refused, step = accepted + ok, refused + (not ok), step + 1
    assert accepted + refused == MESSAGES
    assert accepted > MESSAGES // 20  # the games moved on, through every kind of prompt
    assert refused > MESSAGES // 2


def fuzz_step(
    step: int, rnd: random.Random, fuzz: Fuzzer, game: GameSession, sockets: Sockets
) -> bool:
    """Send one fuzzed message from a random seat and check what it did: True if accepted."""
    house = rnd.choice(HOUSES)
    ws = sockets[house]
    before = game.state
    logged = game.store.game(game.game_id).action_count
    message = fuzz.message(house)
    send(ws, message)
    probe = f"probe-{step}"
    ws.send_json({"type": "ping", "id": probe})
    replies = replies_until_pong(ws, probe)
    if game.serial != before.serial:
        parsed = as_action(message, game.state.rules.action_kinds)
        assert parsed is not None, (step, message)
        named, action = parsed
        assert named in (None, house), (step, message)
        # asked now, or changing a commitment not yet revealed (a take-back, 4.1)
        assert decision_for(before, house) is not None, (step, message)
        try:
            after, _ = apply(before, house, action)
        except IllegalAction as exc:  # the failure this test hunts
            pytest.fail(f"step {step}: an illegal action was accepted: {message!r} ({exc})")
        assert after.hash() == game.state.hash(), (step, message)
        ending = ["game_over"] if game.over else []
        assert [r["type"] for r in replies] == ["view", *ending, "accepted"], (step, replies)
        for other, socket in sockets.items():
            if other != house:
                assert receive(socket)["state_id"] == game.serial
                assert [receive(socket)["type"] for _ in ending] == ending
    else:
        assert game.state.hash() == before.hash(), (step, message)
        assert game.store.game(game.game_id).action_count == logged, (step, message)
        assert len(replies) <= 1, (step, replies)
        assert all(r["type"] in ("error", "pong", "hint") for r in replies), (step, replies)
        for reply in replies:
            if reply["type"] == "error":
                assert CODE.fullmatch(reply["code"]), reply  # a stable code, no class name
    if step % CHECK_OTHERS_EVERY == 0:
        for socket in sockets.values():
            nothing_pending(socket)
    return game.serial != before.serial
