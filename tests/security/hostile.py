"""Hostile data for the escaping probes (issue 14, Why 3): a plugin whose name and option texts
are markup, and database rows tampered to hold markup. Each payload, if it ever ran, would
set ``window.pwned``; as text it must show literally."""

from __future__ import annotations

import sqlite3
from typing import Any

from westeros import hookimpl
from westeros.engine.content import GameOption

SCRIPT = "<script>window.pwned = 'script'</script>"
IMAGE = "<img src=x onerror=\"window.pwned='img'\">"
ATTRIBUTE = '"><img src=x onerror="window.pwned=\'attribute\'">'
PAYLOADS = (SCRIPT, IMAGE, ATTRIBUTE)


class HostileOptions:
    """A plugin whose game option has markup for its name and description."""

    NAME = "hostile_options"

    @hookimpl
    def register_game_options(self) -> list[GameOption]:
        return [GameOption("hostile_flag", SCRIPT + IMAGE, False, ATTRIBUTE)]


class HostileName:
    """A plugin (switchable on the start screen) whose name is markup."""

    NAME = IMAGE

    @hookimpl
    def rule_round_start(self, options: Any) -> None:
        return None


def tamper(database: str, game_id: str) -> None:
    """Write markup into a stored game's rows, as a hand-edited database file would: its
    name, its winner and every seat's house and name."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET name = ?, winner = ? WHERE id = ?", (SCRIPT, IMAGE, game_id))
        db.execute(
            "UPDATE seats SET house = ?, name = ? WHERE game_id = ?", (IMAGE, SCRIPT, game_id)
        )
