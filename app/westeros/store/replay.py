"""Rebuilding a game from its setup and log (DESIGN §2, §5): a game is its seed plus its action
log, so loading one replays the log through the engine and checks, after every action, that the
state hash is the one recorded when the action was accepted."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from westeros.engine import Action, IllegalAction, Ruleset, State, apply, new_game
from westeros.plugins import PluginError, build_ruleset, check_requirements

from .errors import StoreError


class LogEntry(NamedTuple):
    """One action of a log: its number (from 1), who sent it, the action's JSON and the hash of
    the state it led to."""

    seq: int
    house: str
    action: dict[str, Any]
    state_hash: str


def ruleset_for(plugins: Sequence[tuple[str, str]], options: Mapping[str, Any]) -> Ruleset:
    """The Ruleset of a game set up with ``plugins`` ((name, version) pairs) and ``options``.

    Raises MissingPlugins when one of them is not installed, and PluginError when they no
    longer load together. Installed plugins the game did not use are left out."""
    everything = build_ruleset(options)
    check_requirements(plugins, available=everything.plugins)
    wanted = {name for name, _ in plugins}
    unused = [name for name, _ in everything.plugins if name not in wanted]
    rules = build_ruleset(options, disable=unused) if unused else everything
    loaded = {name for name, _ in rules.plugins}
    if loaded != wanted:
        raise PluginError(
            "the game's plugins do not load together now: "
            + ", ".join(sorted(wanted - loaded))
            + " failed to load"
        )
    return rules


def start(
    rules: Ruleset,
    players: int,
    seed: int | str,
    options: Mapping[str, Any],
    fail: type[StoreError],
) -> State:
    """The game's first state; ``fail`` is raised if the engine refuses the setup."""
    try:
        return new_game(rules, players, seed, dict(options))
    except Exception as exc:
        raise fail(f"the game cannot be set up ({type(exc).__name__}: {exc})") from exc


def replay(
    state: State,
    log: Iterable[LogEntry],
    fail: type[StoreError],
    checkpoints: Mapping[int, str] | None = None,
) -> State:
    """Apply every action of ``log`` to ``state`` (the first state), checking each recorded hash
    and the ``checkpoints`` ({seq: state hash}, seq 0 being the first state).

    Any action that cannot be read, is illegal, makes the engine fail or leads to another state
    than recorded raises ``fail`` naming the action."""
    checks = dict(checkpoints or {})
    if 0 in checks and state.hash() != checks[0]:
        raise fail("the game's first state is not the one recorded (setup or seed differ)")
    for entry in log:
        where = f"action {entry.seq} ({entry.house})"
        try:
            action = Action.from_json(entry.action)
            state, _ = apply(state, entry.house, action)
        except IllegalAction as exc:
            raise fail(f"{where} is not legal: {exc}") from exc
        except Exception as exc:
            raise fail(f"{where} could not be replayed ({type(exc).__name__}: {exc})") from exc
        digest = state.hash()
        if digest != entry.state_hash:
            raise fail(f"{where} does not lead to the state recorded with it")
        if checks.get(entry.seq, digest) != digest:
            raise fail(f"the state after {where} differs from the snapshot taken there")
    return state
