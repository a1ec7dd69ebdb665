"""Golden saves (issue 11, acceptance 4): games stored and exported by the format of the day
they were recorded (``saves/make_v1.py``) keep loading, with the same final state, in every
later version. These files are never re-recorded; when the format changes, the store migrates
them on reading."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from westeros.engine import State, apply, pending, random_action
from westeros.saves import open_store
from westeros.store import GameStore, OutOfSequence
from westeros.store.legacy import hash_v1

SAVES = Path(__file__).resolve().parent / "saves"
EXPECTED: dict[str, dict[str, Any]] = json.loads((SAVES / "expected.json").read_text())


def facts(state: State) -> dict[str, Any]:
    """The board facts ``make_v1.py`` recorded (the same fields, the same layout)."""
    return {
        "round": state.round,
        "winner": state.winner,
        "serial": state.serial,
        "houses": list(state.houses),
        "tracks": {k: list(v) for k, v in sorted(state.tracks.items())},
        "units": {
            a: sorted([u.house, u.type, u.routed] for u in us)
            for a, us in sorted(state.units.items())
        },
        "power": dict(sorted(state.power.items())),
        "supply": dict(sorted(state.supply.items())),
        "threat": state.threat,
        "power_tokens": dict(sorted(state.power_tokens.items())),
    }


@pytest.fixture
def v1_store(tmp_path: Path) -> GameStore:
    """The golden format-1 database, copied (opening it migrates it in place)."""
    shutil.copy(SAVES / "westeros-v1.db", tmp_path / "westeros.db")
    return open_store(f"sqlite:///{tmp_path / 'westeros.db'}")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_format_1_database_game_loads_to_the_recorded_state(
    v1_store: GameStore, name: str
) -> None:
    expected = EXPECTED[name]
    info = v1_store.game(expected["id"])
    assert (info.action_count, info.status) == (expected["action_count"], expected["status"])
    loaded = v1_store.load_game(expected["id"])
    assert facts(loaded.state) == expected["facts"]
    assert hash_v1(loaded.state) == expected["hash_v1"]
    again = v1_store.load_game(expected["id"])  # upgraded: resumes from a snapshot now
    assert again.resumed_from > 0
    assert again.state.hash() == loaded.state.hash()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_format_1_export_file_imports_to_the_recorded_state(tmp_path: Path, name: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'fresh.db'}")
    info = store.import_game((SAVES / f"{name}.v1.json").read_bytes())
    expected = EXPECTED[name]
    assert (info.action_count, info.status) == (expected["action_count"], expected["status"])
    state = store.load_game(info.id).state
    assert facts(state) == expected["facts"]
    assert hash_v1(state) == expected["hash_v1"]


def test_an_upgraded_game_exports_in_the_current_format_and_imports_again(
    v1_store: GameStore, tmp_path: Path
) -> None:
    expected = EXPECTED["six-tides-finished"]
    document = v1_store.export_game(expected["id"])
    assert document["version"] == 2
    other = open_store(f"sqlite:///{tmp_path / 'other.db'}")
    info = other.import_game(json.dumps(document))
    assert facts(other.load_game(info.id).state) == expected["facts"]


def test_a_format_1_game_takes_no_new_action_before_it_is_upgraded(v1_store: GameStore) -> None:
    expected = EXPECTED["three-mid"]
    game_id = expected["id"]
    state = v1_store.load_game(game_id).state  # upgrades it
    with v1_store.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE games SET hash_format = 1 WHERE id = :id"), {"id": game_id}
        )
    house = sorted(pending(state))[0]
    action = random_action(state, house, random.Random(1))
    after, _ = apply(state, house, action)
    with pytest.raises(OutOfSequence, match="older format"):
        v1_store.append_action(game_id, state.serial + 1, house, action, after)
