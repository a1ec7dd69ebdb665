"""Steps 3-5 of the session's checks and the commit (DESIGN §4, §5): is the house pending,
is the action legal (the engine decides), is it fresh; then the action is appended to the
store and committed *before* anything is broadcast. A refusal changes nothing."""

from __future__ import annotations

import dataclasses
import logging

from westeros.engine import Action, IllegalAction, State, apply
from westeros.engine.errors import EngineError, NotPending
from westeros.engine.flow import decision_for
from westeros.engine.state import Event
from westeros.plugin_faults import PluginFault, attributed
from westeros.store import CorruptGame, GameStore, StoreError

from .errors import InternalError, NotSaved, StaleState

log = logging.getLogger("westeros.session")


@dataclasses.dataclass(frozen=True, slots=True)
class Accepted:
    """One accepted, committed action and what it led to (for server-side observers: the AI
    runner, tests). Never sent to a client as is: it holds the true state."""

    serial: int
    house: str
    action: Action
    events: tuple[Event, ...]
    state: State
    digest: str  # ``state.hash()``, computed once for the store and the bus


def check_pending(state: State, house: str) -> None:
    """Step 3: is ``house`` asked to decide now?"""
    if state.winner is not None:
        raise NotPending("the game is over")
    if decision_for(state, house) is None:  # pending, or changing a commitment (take-back)
        raise NotPending(f"{house} is not asked to decide anything now")


def apply_and_save(
    store: GameStore,
    game_id: str,
    state: State,
    house: str,
    action: Action,
    state_id: int,
    changed_at: int,
) -> Accepted:
    """Steps 3-5 and the commit: ``house`` decides ``action`` on its view ``state_id`` of
    ``state`` (its view last changed at ``changed_at``). Raises NotPending, an IllegalAction
    subclass, StaleState, NotSaved, InternalError or (a plugin's rule failed) PluginFault, and
    then nothing is stored."""
    if state.winner is not None:
        raise NotPending("the game is over")
    try:  # the engine refuses a house not asked (NotPending, AlreadyRevealed)
        new, events = apply(state, house, action)
    except (IllegalAction, PluginFault):
        raise
    except Exception as exc:
        fault = attributed(exc)
        if fault is not None:
            raise fault from exc
        log.exception("engine failed on %s %s", house, action)
        kind = "engine error" if isinstance(exc, EngineError) else type(exc).__name__
        raise InternalError(f"the action could not be carried out ({kind})") from exc
    if state_id > state.serial or state_id < changed_at:
        raise StaleState(
            f"the game has changed since state {state_id}; decide again on state {state.serial}"
        )
    digest = new.hash()
    try:  # the store snapshots a state that starts a round, in the same transaction
        store.append_action(game_id, new.serial, house, action, new, digest=digest)
    except StoreError as exc:
        log.exception("could not store action %s of game %s", new.serial, game_id)
        raise NotSaved(f"the action could not be saved: {exc}") from exc
    return Accepted(new.serial, house, action, tuple(events), new, digest)


def apply_recorded(
    game_id: str, state: State, seq: int, house: str, action: Action, digest: str
) -> Accepted:
    """An action already in the store (written by another process of the same game) applied
    to ``state``: it must be the next one (``seq``) and lead to the state hash the log
    recorded (``digest``). CorruptGame otherwise (PluginFault if a plugin's code failed on it),
    and nothing changes."""
    if seq != state.serial + 1:
        raise CorruptGame(f"game {game_id}: action {seq} after state {state.serial}")
    try:
        new, events = apply(state, house, action)
    except Exception as exc:
        fault = attributed(exc)
        if fault is None:
            raise
        raise fault from exc
    if new.hash() != digest:
        raise CorruptGame(f"game {game_id}: action {seq} does not lead to its state")
    return Accepted(new.serial, house, action, tuple(events), new, digest)
