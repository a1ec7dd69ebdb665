"""Game records of ``ai_tournament.py`` kept on disk, so that a long scenario can be played in
parts (``--first``, ``--record``) on different days and reported as one (``--merge``).

A record file holds one JSON object per line, one per finished game, written as each game ends:
a run that is stopped keeps every game it finished. Each record names its scenario, its game
number, whether Tides of Battle was on, and the digest of the code that played it (the engine,
the AIs and the bundled plugins); parts merge only when all of these agree and no game is
counted twice."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CODE = (ROOT / "app" / "westeros", ROOT / "plugins")
SUFFIXES = {".py", ".json"}
"""The files that decide how a game is played: code and data (not translations or pages)."""


class RecordError(ValueError):
    """Record files that cannot be merged: the message says which file, line and why."""


def code_digest(roots: Iterable[Path] = CODE) -> str:
    """A digest of every source and data file under ``roots``: two runs with the same digest
    played with the same engine, AIs and plugins."""
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file()):
            digest.update(path.relative_to(root.parent).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def append(path: Path, record: dict[str, Any]) -> None:
    """Add one game's ``record`` to the file at ``path``, on disk before returning. Decision
    times are kept per house and prompt kind, to the tenth of a millisecond."""
    times: dict[str, dict[str, list[float]]] = {}
    for house, decisions in record["times"].items():
        kinds = times.setdefault(house, {})
        for seconds, kind in decisions:
            kinds.setdefault(kind, []).append(round(seconds, 4))
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({**record, "times": times}, separators=(",", ":")) + "\n")
        out.flush()
        os.fsync(out.fileno())


def load(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every game recorded in ``paths``, checked to merge (see the module docstring)."""
    games: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], str] = {}
    first: dict[str, Any] | None = None
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            where = f"{path}, line {number}"
            try:
                record = json.loads(line)
                key = (str(record["scenario"]), int(record["game"]))
                shared = {k: record[k] for k in ("code", "tides")}
                record["times"] = {
                    house: [(t, kind) for kind, ts in kinds.items() for t in ts]
                    for house, kinds in record["times"].items()
                }
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise RecordError(f"{where} is not a complete game record ({exc})") from exc
            if first is None:
                first = shared
            elif shared != first:
                raise RecordError(
                    f"{where} was played by other code or options ({shared}) than the first "
                    f"record ({first}); parts merge only when they agree"
                )
            if key in seen:
                raise RecordError(f"{where} repeats game {key[1]} of {key[0]} ({seen[key]})")
            seen[key] = where
            games.append(record)
    return games
