"""How the golden saves of format 1 were made (run once, with the code of main at 5150529).

Never re-run it: the files it wrote are saves "from today's format" that every later version
must keep loading with the same result (issue 11, acceptance 4). It stored four games of random
legal play in ``westeros-v1.db`` (snapshots as the store wrote them then), exported each to
``<name>.v1.json`` and wrote ``expected.json``: what loading each game must give."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from westeros.engine import State, apply, pending, random_action
from westeros.plugins import build_ruleset
from westeros.store import GameSetup, GameStore, SeatSpec

HERE = Path(__file__).resolve().parent
GAMES: tuple[dict[str, Any], ...] = (
    {"name": "three-mid", "players": 3, "seed": 7, "options": {}, "disable": [], "actions": 120},
    {
        "name": "six-tides-finished",
        "players": 6,
        "seed": 21,
        "options": {"tides_of_battle": True},
        "disable": [],
        "actions": None,
    },
    {
        "name": "four-no-ports-mid",
        "players": 4,
        "seed": "winter is coming",
        "options": {},
        "disable": ["westeros_ports"],
        "actions": 210,
    },
    {
        "name": "five-finished",
        "players": 5,
        "seed": 5,
        "options": {},
        "disable": [],
        "actions": None,
    },
)


def facts(state: State) -> dict[str, Any]:
    """Board facts of a state, independent of any encoding or view layout."""
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


def main() -> None:
    target = HERE / "westeros-v1.db"
    if target.exists():
        sys.exit(f"{target} exists: golden saves are never re-recorded")
    store = GameStore.open(f"sqlite:///{target}")  # type: ignore[call-arg]  # API of 5150529
    expected: dict[str, Any] = {}
    for spec in GAMES:
        rules = build_ruleset(spec["options"], disable=spec["disable"])
        houses = rules.setups[spec["players"]].houses
        seats = tuple(
            SeatSpec(h, "human" if i == 0 else "ai", "Ann" if i == 0 else "baseline")
            for i, h in enumerate(houses)
        )
        setup = GameSetup(
            spec["players"], seats, spec["seed"], rules.plugins, spec["options"], spec["name"]
        )
        game = store.create_game(setup)
        state = game.state
        rnd = random.Random(spec["players"])
        while pending(state) and (spec["actions"] is None or state.serial < spec["actions"]):
            house = sorted(pending(state))[0]
            action = random_action(state, house, rnd)
            state, _ = apply(state, house, action)
            store.append_action(game.info.id, state.serial, house, action, state)
        (HERE / f"{spec['name']}.v1.json").write_text(store.export_json(game.info.id) + "\n")
        expected[spec["name"]] = {
            "id": game.info.id,
            "action_count": state.serial,
            "status": "finished" if state.winner else "active",
            "hash_v1": state.hash(),
            "facts": facts(state),
        }
    store.close()
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
