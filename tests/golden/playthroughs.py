"""Golden playthroughs (DESIGN §6; issue 11, What to build 5): a few recorded games, each its
seed, options and action log, with a checkpoint of every seat's view and the spectator view
every ``every`` actions (and at the end), stored in ``playthroughs/<name>.json``. The test
replays each log through the engine and compares every checkpoint.

Re-record them after an intended change of the views (same actions, new views)::

    python -m tests.golden.playthroughs

and, when a rule change makes a recorded action illegal, with new random actions::

    python -m tests.golden.playthroughs --new-actions
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from westeros.engine import Action, Ruleset, State, apply, new_game, pending, player_view
from westeros.engine.flow import random_action

FOLDER = Path(__file__).resolve().parent / "playthroughs"
SPECTATOR = "spectator"


class Playthrough(NamedTuple):
    """A recorded game: its setup, how many random actions were recorded, checkpoint spacing."""

    name: str
    players: int
    seed: int
    options: dict[str, Any]
    disable: tuple[str, ...]
    actions: int
    every: int


PLAYTHROUGHS = (
    Playthrough("three-base", 3, 11, {}, (), 90, 6),
    Playthrough("six-tides", 6, 12, {"tides_of_battle": True}, (), 120, 10),
    Playthrough("four-no-ports", 4, 13, {}, ("westeros_ports",), 100, 10),
)


def ruleset(game: Playthrough) -> Ruleset:
    """The Ruleset the game is played with (the bundled plugins, as listed)."""
    from westeros.plugins import build_ruleset

    return build_ruleset(game.options, disable=list(game.disable))


def views(state: State) -> dict[str, Any]:
    """Every seat's view and the spectator's, as JSON data."""
    seats: dict[str, Any] = {h: player_view(state, h) for h in state.houses}
    seats[SPECTATOR] = player_view(state, None)
    return json.loads(json.dumps(seats))


def random_log(game: Playthrough, rules: Ruleset) -> list[dict[str, Any]]:
    """``game.actions`` random legal actions from the first state."""
    state = new_game(rules, game.players, game.seed, dict(game.options))
    rnd = random.Random(game.seed)
    log: list[dict[str, Any]] = []
    while pending(state) and len(log) < game.actions:
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        log.append({"house": house, "action": action.to_json()})
    return log


def checkpoints(
    game: Playthrough, rules: Ruleset, log: list[dict[str, Any]]
) -> Iterator[tuple[int, State]]:
    """(actions so far, state) at every checkpoint while replaying ``log`` (0 and the end
    included). Raises AssertionError naming the action the engine refuses now."""
    state = new_game(rules, game.players, game.seed, dict(game.options))
    yield 0, state
    for seq, entry in enumerate(log, start=1):
        try:
            state, _ = apply(state, entry["house"], Action.from_json(entry["action"]))
        except Exception as exc:
            raise AssertionError(
                f"{game.name}: recorded action {seq} ({entry['house']}: {entry['action']}) is "
                f"refused now: {type(exc).__name__}: {exc}"
            ) from exc
        if seq % game.every == 0 or seq == len(log):
            yield seq, state


def path_of(game: Playthrough) -> Path:
    """The file holding ``game``'s recording."""
    return FOLDER / f"{game.name}.json"


def load(game: Playthrough) -> dict[str, Any]:
    """The recording of ``game``: {"log": [...], "checkpoints": {seq: {seat: view}}}."""
    data: dict[str, Any] = json.loads(path_of(game).read_text())
    return data


def record(game: Playthrough, *, new_actions: bool) -> None:
    """Write ``game``'s recording: its log (kept unless ``new_actions``) and fresh views."""
    rules = ruleset(game)
    log = (
        random_log(game, rules) if new_actions or not path_of(game).exists() else load(game)["log"]
    )
    points = {str(seq): views(state) for seq, state in checkpoints(game, rules, log)}
    lines = ["{", f' "setup": {json.dumps(game._asdict(), sort_keys=True)},', ' "log": [']
    lines += [f"  {json.dumps(e, sort_keys=True)}," for e in log]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" ],", ' "checkpoints": {']
    for seq, seats in points.items():
        lines.append(f'  "{seq}": {{')
        lines += [f"   {json.dumps(s)}: {json.dumps(v, sort_keys=True)}," for s, v in seats.items()]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("  },")
    lines[-1] = lines[-1].rstrip(",")
    lines += [" }", "}"]
    FOLDER.mkdir(exist_ok=True)
    path_of(game).write_text("\n".join(lines) + "\n")


def first_difference(recorded: Any, now: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (a path like ``units.winterfell[0]``), or None."""
    todo = [(recorded, now, where)]
    while todo:
        a, b, at = todo.pop(0)
        if type(a) is not type(b):
            return f"{at or 'the view'}: recorded {_short(a)}, now {_short(b)}"
        if isinstance(a, dict):
            for key in sorted(set(a) | set(b)):
                if key not in a or key not in b:
                    side = "now missing" if key not in b else "new"
                    return f"{at}.{key}".lstrip(".") + f": {side}"
                todo.append((a[key], b[key], f"{at}.{key}".lstrip(".")))
        elif isinstance(a, list):
            if len(a) != len(b):
                return f"{at}: recorded {len(a)} items, now {len(b)}"
            todo.extend((x, y, f"{at}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True)))
        elif a != b:
            return f"{at}: recorded {_short(a)}, now {_short(b)}"
    return None


def mismatch(game: Playthrough, recording: dict[str, Any]) -> str | None:
    """The first checkpoint where replaying ``recording``'s log gives a seat another view
    than recorded, said with the action before it and the seat, or None when all agree."""
    log, recorded = recording["log"], recording["checkpoints"]
    replayed = []
    for seq, state in checkpoints(game, ruleset(game), log):
        replayed.append(str(seq))
        now, then = views(state), recorded.get(str(seq), {})
        for seat in sorted(set(then) | set(now)):
            difference = first_difference(then.get(seat), now.get(seat))
            if difference is not None:
                last = log[seq - 1] if seq else None
                after = (
                    f"after action {seq} ({last['house']}: {json.dumps(last['action'])})"
                    if last
                    else "in the first state"
                )
                return f"{game.name}: {after}, the view of {seat} differs at {difference}"
    if replayed != list(recorded):
        return f"{game.name}: checkpoints {list(recorded)} recorded, {replayed} replayed"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(description="Re-record the golden playthroughs.")
    parser.add_argument("--new-actions", action="store_true", help="play new random actions")
    parser.add_argument("names", nargs="*", help="only these playthroughs (default: all)")
    args = parser.parse_args()
    os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    for game in PLAYTHROUGHS:
        if not args.names or game.name in args.names:
            record(game, new_actions=args.new_actions)
            print(f"recorded {path_of(game)}")


if __name__ == "__main__":
    main()
