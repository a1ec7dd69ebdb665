"""Issue 35 finding 3: a plugin's rule that raises mid-game pauses the game with the plugin
named, instead of stalling it in a retry loop. The plugin is a real single-file plugin in the
user plugin folder; the engine, the store (SQLite) and the game's own AI are real."""

from __future__ import annotations

import logging
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from westeros.ai import BaselineBot
from westeros.cli import main
from westeros.engine.flow import random_action
from westeros.plugin_faults import PluginFault
from westeros.plugins import ENV_DISABLE, ENV_NO_AUTOLOAD, MissingPlugins, load
from westeros.saves import open_store
from westeros.server.ai_runner import AiRunner
from westeros.session import AiPlayer, GameSession, Human
from westeros.store import GameStore, SeatSpec

from .fakes import write_plugin

PLUGIN = "cursed_ravens"
SECRET = "SECRET-IN-THE-TRACEBACK"
CURSED = """
    from westeros import hookimpl

    __version__ = "{version}"

    @hookimpl
    def rule_order_loop_start(options):
        def loop_start(state, order_type):
            if {broken} and order_type == "raid":
                raise RuntimeError("the ravens are cursed ({secret})")

        return loop_start
"""
# 3 players: Lannister holds the Messenger Raven (King's Court), so its raven decision ends
# the Planning phase and the raid loop's start, where the plugin fails, follows it (4.4, 5.1).
PLAYERS = 3
SEED = 5
RUNNER_WAIT_S = 60.0


def install(folder: Path, *, broken: bool, version: str) -> None:
    write_plugin(
        folder, PLUGIN, CURSED.format(broken=broken, version=version, secret=SECRET)
    ).touch()


def bots(house: str, seat: SeatSpec) -> AiPlayer:
    return BaselineBot(seed=sum(map(ord, house)))


@pytest.fixture
def store_url(tmp_path: Path, isolated_plugins: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh SQLite file, with the cursed plugin (version 1.0) in the user plugin folder."""
    monkeypatch.setenv(ENV_NO_AUTOLOAD, "0")
    install(isolated_plugins, broken=True, version="1.0")
    return f"sqlite:///{tmp_path / 'westeros.db'}"


@pytest.fixture
def store(store_url: str) -> Iterator[GameStore]:
    """The store as the running app has it open."""
    opened = open_store(store_url)
    yield opened
    opened.close()


def restarted(store_url: str) -> GameStore:
    """The store as Westeros opens it after a restart (the plugins loaded afresh)."""
    return open_store(store_url)


def new_session(store: GameStore, humans: tuple[str, ...] = ()) -> GameSession:
    loaded = load()
    assert PLUGIN in [p.name for p in loaded.plugins], loaded.errors
    seats = {
        h: Human() if h in humans else bots(h, SeatSpec(h, "ai", "standard"))
        for h in ("baratheon", "lannister", "stark")
    }
    return GameSession.create(store, loaded.ruleset, PLAYERS, seats, SEED)


def stored_actions(store: GameStore, game_id: str) -> int:
    return len(store.game_log(game_id)[1])


def play_ais(session: GameSession) -> None:
    """Let the AI seats decide until none is asked (or the game is paused)."""
    while houses := session.ai_pending():
        for house in houses:
            session.play_ai(house)


def test_a_human_action_that_trips_a_plugin_fault_pauses_the_game_naming_the_plugin(
    store: GameStore,
) -> None:
    """Issue 35 finding 3: Lannister's raven decision runs the plugin's failing rule; the reply
    names the plugin and its hook (code ``plugin-fault``, not ``internal``), nothing is stored,
    every seat is told the game is paused, the AI seats stop, and the plugin's own error text
    (which may quote hidden state) reaches no client."""
    session = new_session(store, humans=("lannister",))
    seen: list[dict[str, Any]] = []
    session.attach("lannister", seen.append)
    rnd = random.Random(1)
    reply: dict[str, Any] = {"type": "accepted"}
    while reply["type"] == "accepted":
        play_ais(session)
        action = random_action(session.state, "lannister", rnd)
        message = {"type": "action", "action": action.to_json(), "state_id": session.serial}
        reply = session.handle("lannister", {**message, "id": "a1"})
    print("reply to Lannister's action:", reply)
    assert reply["code"] == "plugin-fault"
    assert PLUGIN in reply["message"] and "rule_order_loop_start" in reply["message"]
    assert stored_actions(store, session.game_id) == session.serial
    assert session.ai_pending() == []
    paused = [m for m in seen if m["type"] == "paused"]
    assert [(m["plugin"], m["hook"], m["error"]) for m in paused] == [
        (PLUGIN, "rule_order_loop_start", "RuntimeError")
    ]
    assert SECRET not in repr(seen) + repr(reply)
    again = session.handle("lannister", {**message, "id": "a2"})
    assert again["code"] == "plugin-fault"
    assert stored_actions(store, session.game_id) == session.serial


def test_an_ai_move_that_trips_a_plugin_fault_pauses_the_game_without_retrying(
    store: GameStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 35 finding 3: with every seat an AI, the real AI runner stops once the plugin's
    rule fails (no retry loop: one error line, naming the plugin), and a seat that opens the
    board afterwards is told the game is paused and by which plugin."""
    session = new_session(store)
    runner = AiRunner(session)
    with caplog.at_level(logging.ERROR):
        runner.start()
        runner._thread.join(RUNNER_WAIT_S)  # type: ignore[union-attr]
        assert not runner.running, "the AI runner is still retrying"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    print("error lines:", [r.getMessage() for r in errors])
    assert len(errors) == 1 and PLUGIN in errors[0].getMessage()
    assert session.paused is not None and session.paused.plugin == PLUGIN
    assert stored_actions(store, session.game_id) == session.serial
    opening: list[dict[str, Any]] = []
    session.attach("stark", opening.append)
    assert opening[-1]["type"] == "paused" and opening[-1]["plugin"] == PLUGIN


def test_a_paused_game_goes_on_from_its_last_good_action_once_the_plugin_is_fixed(
    store: GameStore,
    store_url: str,
    isolated_plugins: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 35 finding 3: ``westeros plugins`` lists the fault (plugin, version, hook, game);
    reopened with the plugin's fixed version, the game resumes at the state it paused at, plays
    on, and the fault is no longer listed."""
    session = new_session(store)
    play_ais(session)
    assert session.paused is not None
    paused_at = session.serial
    assert main(["plugins"]) == 0
    listed = capsys.readouterr().out
    assert f"{PLUGIN} 1.0: rule_order_loop_start raised RuntimeError" in listed
    assert session.game_id in listed

    install(isolated_plugins, broken=False, version="1.1")
    reopened = restarted(store_url)
    try:
        resumed = GameSession.resume(reopened, session.game_id, bots)
        assert resumed.serial == paused_at
        play_ais(resumed)
        assert resumed.paused is None and resumed.serial > paused_at
    finally:
        reopened.close()
    assert main(["plugins"]) == 0
    assert "paused by a plugin fault" not in capsys.readouterr().out


def test_a_paused_game_says_why_it_cannot_go_on_without_its_plugin(
    store: GameStore, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35 finding 3: disabling the plugin does not resume the game without its rules
    (its record would replay differently): reopening it names the missing plugin."""
    session = new_session(store)
    play_ais(session)
    assert session.paused is not None
    monkeypatch.setenv(ENV_DISABLE, PLUGIN)
    reopened = restarted(store_url)
    try:
        with pytest.raises(MissingPlugins, match=PLUGIN):
            GameSession.resume(reopened, session.game_id, bots)
    finally:
        reopened.close()


OMENS = """
    import dataclasses

    from westeros import hookimpl
    from westeros.engine.flow import Step

    @dataclasses.dataclass(frozen=True, slots=True)
    class Omen(Step):
        def run(self, state):
            raise KeyError(f"no omen for round {state.round}")

    @hookimpl
    def rule_planning_steps(options):
        return lambda state: [Omen()] if state.round >= 2 else []
"""


def test_a_failing_step_of_a_plugin_pauses_the_game_naming_the_plugin_and_step(
    store: GameStore, isolated_plugins: Path
) -> None:
    """Issue 35 finding 3: a plugin's own code that the engine runs outside a rule hook (here a
    Planning step it added, run at the start of round 2) is attributed to the plugin too: the
    game pauses naming it and the step's function, and nothing of the failed action is
    stored."""
    install(isolated_plugins, broken=False, version="1.1")
    write_plugin(isolated_plugins, "broken_omens", OMENS)
    session = new_session(store)
    play_ais(session)
    assert session.paused is not None, "the game never paused"
    print("paused:", session.paused)
    assert (session.paused.plugin, session.paused.hook) == ("broken_omens", "Omen.run")
    assert session.paused.kind == "KeyError"
    assert stored_actions(store, session.game_id) == session.serial


def test_a_plugin_fault_crosses_a_process_boundary_with_its_plugin_named() -> None:
    """Issue 35 finding 3: online AI seats decide in a process pool; the fault they raise
    arrives there (pickled) still naming the plugin and hook."""
    fault = PluginFault(PLUGIN, "rule_order_loop_start", "RuntimeError: cursed", "RuntimeError")
    copy = pickle.loads(pickle.dumps(fault))
    assert (copy.plugin, copy.hook, copy.kind) == (PLUGIN, "rule_order_loop_start", "RuntimeError")
    assert str(copy) == str(fault)
