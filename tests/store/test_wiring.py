"""The store's place in the layers (issue 11, acceptance 7): it imports neither the plugin
manager nor the server, is handed the function that builds rulesets (``westeros.saves`` wires
it to the plugins), and a resumed game's Ruleset is built once."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from westeros.ai import BaselineBot
from westeros.engine import Ruleset
from westeros.saves import ruleset_for
from westeros.session import GameSession
from westeros.store import GameStore

from .helpers import play, record, three_player_setup

REPO = Path(__file__).resolve().parents[2]


def test_the_store_imports_neither_the_plugin_manager_nor_the_server() -> None:
    code = (
        "import json, sys, westeros.store; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('westeros'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    loaded = json.loads(done.stdout)
    assert "westeros.store" in loaded
    assert [m for m in loaded if m.startswith(("westeros.plugins", "westeros.server"))] == []
    assert [m for m in loaded if m.startswith(("westeros.base", "westeros.session"))] == []


def test_a_resumed_game_builds_its_ruleset_once(tmp_path: Path, rules: Ruleset) -> None:
    calls: list[tuple[Any, ...]] = []

    def counting(plugins: Sequence[tuple[str, str]], options: Mapping[str, Any]) -> Ruleset:
        calls.append((tuple(plugins), dict(options)))
        return ruleset_for(plugins, options)

    url = f"sqlite:///{tmp_path / 'westeros.db'}"
    first = GameStore.open(url, rulesets=ruleset_for)
    game = first.create_game(three_player_setup(rules, seed=3))
    record(first, game.info.id, play(game.state, 40, seed=3))
    first.close()

    store = GameStore.open(url, rulesets=counting)
    session = GameSession.resume(store, game.info.id, lambda h, s: BaselineBot(seed=1))
    assert session.history()  # the log history is re-run from the first state too
    assert session.serial == 40
    assert len(calls) == 1
