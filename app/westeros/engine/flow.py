"""The step machine: the game is a stack of small frozen steps (DESIGN §2).

An automatic ``Step`` runs as soon as it reaches the top of the stack; it may change the state
and push further steps. A ``Decision`` waits until every house it asks (its prompts) has
answered; ``act`` receives one answer on a private copy of the state. Because steps are plain
data, a state copies, hashes and replays like any other value."""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .actions import Action, field_names
from .errors import AlreadyRevealed, NotPending, WrongActionKind

if TYPE_CHECKING:
    from .state import Event, State

T = TypeVar("T")
S = TypeVar("S", bound="Simultaneous")


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
    house is asked anything, so the decision resolves by itself.

    ``reads_first``: ``act`` reads what a waiting state remembers (``pending``, ``remembered``)
    only before it changes the state, so ``apply`` lets it find the answers worked out for the
    state it was asked in (its legality checks then cost nothing twice)."""

    __slots__ = ()
    reads_first: ClassVar[bool] = False

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


def left_out(state: State, house: str, point: str) -> bool:
    """Does a plugin leave ``house`` out of rule ``point`` (``content.LEFT_OUT_POINTS``;
    ``rule_left_out``)?"""
    return any(hook(state, house, point) for hook in state.rules.hooks.left_out)


def off_limits(state: State, house: str, area: str, kind: str) -> bool:
    """Does a plugin forbid ``house`` to march into ``area`` (``kind`` "march") or raid the
    order in it (``kind`` "raid")? (``rule_off_limits``)"""
    return any(hook(state, house, area, kind) for hook in state.rules.hooks.off_limits)


def answering_house(state: State, house: str) -> str:
    """The house whose player answers the prompts of ``house`` (``rule_answering_house``; a
    commander for its vassal, RULES.md 11.10.8): ``house`` itself unless a plugin names one."""
    for hook in state.rules.hooks.answering_house:
        other = hook(state, house)
        if other is not None:
            return other
    return house


def advance(state: State, kept: dict[Any, Any] | None = None) -> None:
    """Run automatic steps until a decision waits for an answer or the game ends.

    The prompts of the decision it stops at are kept in ``state.cache`` for ``pending``, with
    the ``memo`` of that state (``kept``: a memo that holds for it, see ``apply``); code that
    changes a state by hand afterwards (rule tests) must clear it."""
    state.cache = None
    while state.stack and state.winner is None:
        top = state.stack[-1]
        if isinstance(top, Decision):
            if kept is None:
                kept = {}
            state.cache = (top, None, kept)
            prompts = top.prompts(state)
            if prompts:
                state.cache = (top, prompts, kept)
                return
            state.cache = None
            kept = None
        state.stack = state.stack[:-1]
        top.run(state)


def memo(state: State) -> dict[Any, Any] | None:
    """A dict for answers worked out from ``state`` while it waits for a decision (set up by
    ``advance``; a state is not changed once it waits, DESIGN §2), so that the prompts, a
    random answer and a player's questions share them; None when ``state`` may still change
    (an ``apply`` working on its copy, a state changed by hand). Keys name their function."""
    cached = state.cache
    if cached is not None and state.stack and cached[0] is state.stack[-1]:
        return cached[2]
    return None


_UNKNOWN: Any = object()
"""``remembered``'s mark of an answer not worked out yet (one look-up of the key)."""


def remembered(state: State, key: Hashable, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` about ``state``, done once per waiting state under ``key`` (``memo``);
    done afresh while the state may still change. Callers treat the answer as read-only."""
    cached = state.cache
    if cached is None or not state.stack or cached[0] is not state.stack[-1]:
        return work(*args)
    found = cached[2]
    value = found.get(key, _UNKNOWN)
    if value is _UNKNOWN:
        value = found[key] = work(*args)
    return value


def pending(state: State) -> dict[str, Prompt]:
    """Houses that must decide now and what each is asked (empty when the game is over)."""
    if state.winner is not None or not state.stack:
        return {}
    top = state.stack[-1]
    cached = state.cache
    if cached is not None and cached[0] is top and cached[1] is not None:
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
    prompt = decision_for(state, house)
    if prompt is None:
        raise not_asked(state, house, action)
    if action.kind not in prompt.actions:
        raise WrongActionKind(
            f"{house} is asked for {prompt.kind!r} ({', '.join(prompt.actions)}), "
            f"not {action.kind!r}"
        )
    new = state.copy()
    new.serial += 1
    top = state.stack[-1]
    if top.reads_first:
        new.cache = state.cache
    top.act(new, house, action)
    advance(new, _memo_kept(state, new, house, action) if isinstance(top, Simultaneous) else None)
    events, new.events = new.events, []
    return new, events


def _memo_kept(before: State, after: State, house: str, action: Action) -> dict[Any, Any] | None:
    """The ``memo`` of ``before`` if it holds for ``after``: when ``after`` only adds or replaces
    ``house``'s commitment to the simultaneous decision ``before`` waits for, without the
    reveal (``Simultaneous.act``), the board is the same and each other house is asked the
    same question (it never depends on the others' secret commitments)."""
    cached = before.cache
    top = before.stack[-1]
    if cached is None or len(after.stack) != len(before.stack):
        return None
    now = after.stack[-1]
    if (
        type(now) is not type(top)
        or after.stack[:-1] != before.stack[:-1]
        or dict(now.commits) != {**dict(top.commits), house: action}
        or (read := _other_fields(type(top)))(now) != read(top)
    ):
        return None
    return cached[2]


_OTHER_FIELDS: dict[type, Callable[[Any], Any]] = {}


def _other_fields(cls: type) -> Callable[[Any], Any]:
    """Reads the fields of simultaneous decision class ``cls`` but ``commits`` ("houses" is
    always one of them), made once per class."""
    read = _OTHER_FIELDS.get(cls)
    if read is None:
        names = [name for name in field_names(cls) if name != "commits"]
        read = _OTHER_FIELDS[cls] = operator.attrgetter(*names)
    return read


def with_commits(step: S, commits: tuple[tuple[str, Action], ...]) -> S:
    """``step`` (a simultaneous decision) with ``commits`` in place of its own: what
    ``dataclasses.replace`` makes, without its checks of every field on every commitment."""
    values = {name: getattr(step, name) for name in field_names(type(step))}
    values["commits"] = commits
    return type(step)(**values)


def decision_for(state: State, house: str) -> Prompt | None:
    """What ``house`` may answer now: its pending prompt, or (a take-back) the question of the
    open simultaneous decision it has already committed to (``open_commitment``)."""
    prompt = pending(state).get(house)
    if prompt is None:
        step = open_commitment(state, house)
        if step is not None:
            prompt = step.prompt_for(state, house)
    return prompt


def not_asked(state: State, house: str, action: Action) -> NotPending:
    """The refusal for an answer from a house that is asked nothing: AlreadyRevealed when it
    is a secret commitment that was already revealed (a take-back came too late)."""
    if state.winner is None and any(
        cls.too_late(state, house, action) for cls in _SIMULTANEOUS.values()
    ):
        return AlreadyRevealed(
            f"{house} can no longer change its decision: every house had committed and the "
            "decisions were revealed"
        )
    return NotPending(f"{house} is not asked to decide anything now")


def random_action(state: State, house: str, rnd: random.Random) -> Action:
    """A random legal action for ``house`` (which must be pending)."""
    top = state.stack[-1]
    return top.random_action(state, house, rnd)


class Simultaneous(Decision):
    """A secret, simultaneous decision (orders, bids, house cards; DESIGN §2).

    Subclasses are frozen dataclasses with fields ``houses`` (who decides) and ``commits``
    (a tuple of (house, Action) pairs, kept in the step so that player_view never sees them).
    They implement ``prompt_for``, ``check`` and ``resolve`` and name the Action kinds they
    take in ``commit_kinds`` (for the AlreadyRevealed refusal).

    Take-backs (4.1, 3.6.2, 7.2.1, 5.4.3): a house that committed may commit again, replacing
    its commitment, while the step waits; ``pending`` still lists only the houses that have not
    committed, so an AI is asked once. The last commitment reveals and resolves at once, so the
    window closes exactly then; nothing random happens between commitments and the reveal."""

    __slots__ = ()
    houses: tuple[str, ...]
    commits: tuple[tuple[str, Action], ...]
    commit_kinds: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _SIMULTANEOUS[f"{cls.__module__}.{cls.__qualname__}"] = cls

    @classmethod
    def too_late(cls, state: State, house: str, action: Action) -> bool:
        """Is ``action`` from ``house`` (asked nothing now) a commitment to this kind of
        decision after its reveal? Default: its kind is one of ``commit_kinds``."""
        return action.kind in cls.commit_kinds

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
        return {h: self.asked(state, h) for h in self.houses if h not in done}

    def asked(self, state: State, house: str) -> Prompt:
        """``prompt_for``, worked out once while the decision waits (``flow.memo``, kept
        across the other houses' commitments)."""
        return remembered(state, ("asked", house), self.prompt_for, state, house)

    def act(self, state: State, house: str, action: Action) -> None:
        """Record ``house``'s commitment; a house that already committed replaces its
        commitment (a take-back). The last house's commitment reveals and resolves at once,
        which closes the take-back window."""
        self.check(state, house, action)
        if any(h == house for h, _ in self.commits):
            commits = tuple((h, action if h == house else a) for h, a in self.commits)
        else:
            commits = (*self.commits, (house, action))
        step = with_commits(self, commits)
        state.emit("committed", house=house)
        if len(step.commits) == len(self.houses):
            state.pop()
            step.resolve(state, dict(step.commits))
        else:
            state.replace_top(step)

    def run(self, state: State) -> None:
        self.resolve(state, dict(self.commits))


_SIMULTANEOUS: dict[str, type[Simultaneous]] = {}


def open_commitment(state: State, house: str) -> Simultaneous | None:
    """The simultaneous decision on top of the stack if ``house`` has committed to it and it is
    not revealed yet: until then ``house`` may change its commitment (take-back)."""
    if state.winner is not None or not state.stack:
        return None
    top = state.stack[-1]
    if isinstance(top, Simultaneous) and any(h == house for h, _ in top.commits):
        return top
    return None


def committed(state: State) -> list[str]:
    """The houses that have committed to the open simultaneous decision (never what)."""
    if state.winner is not None or not state.stack:
        return []
    top = state.stack[-1]
    return sorted(h for h, _ in top.commits) if isinstance(top, Simultaneous) else []


def commitment(state: State, house: str) -> Action | None:
    """``house``'s own commitment to the open simultaneous decision (for its own view only)."""
    step = open_commitment(state, house)
    if step is None:
        return None
    return next(a for h, a in step.commits if h == house)
