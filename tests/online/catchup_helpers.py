"""Helpers of the catch-up tests (issue 40, docs/online-catchup.md): people who play their
seat over a real board socket, deciding on the view they are shown (as a person would), and
who can stop at any moment; and the game's progress as the server holds it."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

from westeros.engine import pending

from .helpers import decide
from .seat_helpers import LiveOnline, Person, receive

RACES = (
    "stale-state",
    "illegal/not-pending",
    "illegal/already-revealed",
    "illegal/wrong-action-kind",
)
"""Refusals of an answer sent while another house's action changed the question (the next
view asks again)."""


class Bot:
    """A person at their board (``ws``: their seat's socket): answers what their latest view
    asks while ``playing``."""

    def __init__(self, ws: Any, house: str) -> None:
        self.house = house
        self.ws = ws
        self.last = receive(ws)
        assert self.last["type"] == "view", self.last
        self.playing = False
        self.answered: set[int] = set()
        self.refused: list[dict[str, Any]] = []

    def pump(self, seconds: float) -> None:
        """Read for up to ``seconds``, answering the latest view's prompt once nothing more
        is waiting."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                message = receive(self.ws, timeout=0.05)
            except TimeoutError:
                self._answer()
                continue
            if message["type"] == "view":
                self.last = message
            elif message["type"] == "error" and message.get("code") not in RACES:
                self.refused.append(message)

    def _answer(self) -> None:
        view, state_id = self.last["view"], int(self.last["state_id"])
        if self.playing and view["prompt"] is not None and state_id not in self.answered:
            self.answered.add(state_id)
            action = decide(view, seed=state_id)
            self.ws.send(json.dumps({"type": "action", "action": action, "state_id": state_id}))


def progress(live: LiveOnline, game_id: str) -> tuple[int, int, list[tuple[int, str]], set[str]]:
    """The game as the server holds it: its serial, its round, (serial, kind) of every event
    so far and the houses asked to decide now."""
    session, _ = live.hub.session(game_id)
    state = session.state
    kinds = [(serial, event.kind) for serial, event in session.history()]
    return state.serial, state.round, kinds, set(pending(state))


def seat(stack: ExitStack, person: Person, game_id: str, house: str) -> Bot:
    """``person`` opens their board of ``house`` (closed when ``stack`` closes)."""
    return Bot(stack.enter_context(person.socket(f"/ws/games/{game_id}/seats/{house}")), house)


def play_until(
    live: LiveOnline,
    game_id: str,
    bots: list[Bot],
    *,
    after: int,
    rounds: int,
    timeout: float = 240.0,
) -> tuple[int, int]:
    """Let ``bots`` play until the game is ``rounds`` rounds past the one of step ``after``
    and a combat was fought after that step; then they stop and the game waits for one of
    them (nobody else decides for a person who is here). Returns (serial, round) then."""
    _, start_round, _, _ = progress(live, game_id)
    deadline = time.monotonic() + timeout
    for bot in bots:
        bot.playing = True
    while True:
        assert time.monotonic() < deadline, "the game never got there"
        for bot in bots:
            bot.pump(0.2)
        serial, round_number, kinds, _ = progress(live, game_id)
        fought = any(kind == "combat" and at > after for at, kind in kinds)
        assert round_number < 10, "the game ended before a combat after the return point"
        if round_number >= start_round + rounds and fought:
            break
    for bot in bots:
        bot.playing = False
    houses = {bot.house for bot in bots}
    while True:  # the AI finishes what it was asked; then only the stopped people are asked
        assert time.monotonic() < deadline, "the game never came to wait for the people"
        for bot in bots:
            bot.pump(0.1)
        serial, round_number, _, asked = progress(live, game_id)
        if asked and asked <= houses:
            return serial, round_number
