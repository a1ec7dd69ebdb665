"""Where saved games meet the plugin manager: the one place that wires the store to it.

The store (``westeros.store``) never loads plugins; it is handed ``ruleset_for``, which rebuilds
the Ruleset of a stored game from the plugins and options it recorded. The server
(``server.app.create_app``), the crash harness and the benchmarks open their store here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from westeros.engine import Ruleset
from westeros.plugins import PluginError, PluginHost, build_ruleset, check_requirements
from westeros.store import GameStore


def ruleset_for(plugins: Sequence[tuple[str, str]], options: Mapping[str, Any]) -> Ruleset:
    """The Ruleset of a game set up with ``plugins`` ((name, version) pairs) and ``options``.

    Raises MissingPlugins when one of them is not installed, and PluginError when they no
    longer load together. Installed plugins the game did not use are left out (the Ruleset
    is built once, with only the game's plugins)."""
    host = PluginHost()
    check_requirements(plugins, available=[(n, host.info[n].version) for n in host.names])
    wanted = {name for name, _ in plugins}
    rules = build_ruleset(options, disable=[n for n in host.names if n not in wanted])
    loaded = {name for name, _ in rules.plugins}
    if loaded != wanted:
        raise PluginError(
            "the game's plugins do not load together now: "
            + ", ".join(sorted(wanted - loaded))
            + " failed to load"
        )
    return rules


def open_store(
    url: str | None = None, *, schema: str | None = None, migrate: bool = True
) -> GameStore:
    """The game store at ``url`` (default: ``WESTEROS_DATABASE_URL`` or the user's SQLite
    file), rebuilding games with the installed plugins (``ruleset_for``)."""
    return GameStore.open(url, schema=schema, migrate=migrate, rulesets=ruleset_for)
