"""The step machine: the game is a stack of small frozen steps (DESIGN §2).

An automatic ``Step`` runs as soon as it reaches the top of the stack; it may change the state
and push further steps. A ``Decision`` waits until every house it asks (its prompts) has
answered; ``act`` receives one answer on a private copy of the state. Because steps are plain
data, a state copies, hashes and replays like any other value."""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action
from .errors import NotPending, WrongActionKind

if TYPE_CHECKING:
    from .state import Event, State


@dataclasses.dataclass(frozen=True, slots=True)
class Prompt:
    """What one house is asked now. ``kind`` names the question, ``actions`` the Action kinds
    that answer it, ``data`` describes the legal answers (factored, JSON-ready)."""

    house: str
    kind: str
    actions: tuple[str, ...]
    data: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False)


class Step:
    """An automatic step. Subclasses are frozen dataclasses holding only immutable data.
    ``preview_note`` says what a combat preview should tell a player about this step when it
    is still to come and not counted (a plugin's combat step, e.g. a Tides of Battle draw)."""

    __slots__ = ()
    preview_note: ClassVar[str] = ""

    def run(self, state: State) -> None:
        """Do the step's work (the step is already popped)."""
        raise NotImplementedError


class Decision(Step):
    """A step that waits for houses to decide. ``run`` is called (after popping) only when no
    house is asked anything, so the decision resolves by itself."""

    __slots__ = ()

    def prompts(self, state: State) -> dict[str, Prompt]:
        """The question for each house that must answer now."""
        raise NotImplementedError

    def act(self, state: State, house: str, action: Action) -> None:
        """Take ``house``'s answer. The step is on top of ``state.stack``; it must pop or replace
        itself. Raise an IllegalAction subclass for an illegal answer."""
        raise NotImplementedError

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        """A uniformly chosen legal answer (random play, conformance tests)."""
        raise NotImplementedError

    def run(self, state: State) -> None:
        """Nobody is asked: resolve with no answers. Default: nothing happens."""


def advance(state: State) -> None:
    """Run automatic steps until a decision waits for an answer or the game ends.

    The prompts of the decision it stops at are kept in ``state.cache`` for ``pending``; code
    that changes a state by hand afterwards (rule tests) must clear it."""
    state.cache = None
    while state.stack and state.winner is None:
        top = state.stack[-1]
        if isinstance(top, Decision):
            prompts = top.prompts(state)
            if prompts:
                state.cache = (top, prompts)
                return
        state.stack = state.stack[:-1]
        top.run(state)


def pending(state: State) -> dict[str, Prompt]:
    """Houses that must decide now and what each is asked (empty when the game is over)."""
    if state.winner is not None or not state.stack:
        return {}
    top = state.stack[-1]
    cached = state.cache
    if cached is not None and cached[0] is top:
        return cached[1]
    if isinstance(top, Decision):
        return top.prompts(state)
    return {}


def legal(state: State, house: str) -> Prompt | None:
    """The factored description of ``house``'s legal decisions now, or None."""
    return pending(state).get(house)


def apply(state: State, house: str, action: Action) -> tuple[State, list[Event]]:
    """Apply one house's decision; returns the new state and what happened.

    Raises an IllegalAction subclass, naming the rule, and leaves ``state`` unchanged."""
    prompt = pending(state).get(house)
    if prompt is None:
        raise NotPending(f"{house} is not asked to decide anything now")
    if action.kind not in prompt.actions:
        raise WrongActionKind(
            f"{house} is asked for {prompt.kind!r} ({', '.join(prompt.actions)}), "
            f"not {action.kind!r}"
        )
    new = state.copy()
    new.serial += 1
    state.stack[-1].act(new, house, action)
    advance(new)
    events, new.events = new.events, []
    return new, events


def random_action(state: State, house: str, rnd: random.Random) -> Action:
    """A random legal action for ``house`` (which must be pending)."""
    top = state.stack[-1]
    return top.random_action(state, house, rnd)


class Simultaneous(Decision):
    """A secret, simultaneous decision (orders, bids, house cards; DESIGN §2).

    Subclasses are frozen dataclasses with fields ``houses`` (who decides) and ``commits``
    (a tuple of (house, Action) pairs, kept in the step so that player_view never sees them).
    They implement ``prompt_for``, ``check`` and ``resolve``."""

    __slots__ = ()
    houses: tuple[str, ...]
    commits: tuple[tuple[str, Action], ...]

    def prompt_for(self, state: State, house: str) -> Prompt:
        """The question for ``house``."""
        raise NotImplementedError

    def check(self, state: State, house: str, action: Action) -> None:
        """Raise an IllegalAction subclass if ``action`` is not a legal commitment."""
        raise NotImplementedError

    def resolve(self, state: State, commits: dict[str, Action]) -> None:
        """Everyone has committed (the step is popped): reveal and resolve."""
        raise NotImplementedError

    def prompts(self, state: State) -> dict[str, Prompt]:
        done = {h for h, _ in self.commits}
        return {h: self.prompt_for(state, h) for h in self.houses if h not in done}

    def act(self, state: State, house: str, action: Action) -> None:
        self.check(state, house, action)
        step = dataclasses.replace(self, commits=(*self.commits, (house, action)))  # type: ignore[type-var]
        state.emit("committed", house=house)
        if len(step.commits) == len(self.houses):
            state.pop()
            step.resolve(state, dict(step.commits))
        else:
            state.replace_top(step)

    def run(self, state: State) -> None:
        self.resolve(state, dict(self.commits))
