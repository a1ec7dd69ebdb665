"""Whether a draft decision is legal, and why not (DESIGN §2: one source for each rule).

Every decision checks its answer in one place (its ``act``, or a rule module's ``check`` such as
``march.check``) and raises the IllegalAction subclass naming the rule. ``problem`` asks that
same check without changing anything and returns the refusal as data: the rule, the stable error
code and the message. Clients (the board through the hint reply, the AI) use it instead of a
copy of the rule."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .errors import IllegalAction

if TYPE_CHECKING:
    from .actions import Action
    from .state import State


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """Why a decision is refused: the RULES.md section, the error's stable code, the message."""

    rule: str
    code: str
    message: str

    @classmethod
    def of(cls, error: IllegalAction) -> Problem:
        """The problem ``error`` reports."""
        return cls(error.rule, error.code, error.message)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the hint reply's ``problem``)."""
        return {"rule": self.rule, "code": self.code, "message": self.message}


def problem(state: State, house: str, action: Action) -> Problem | None:
    """Why ``house`` may not decide ``action`` now (not asked, wrong kind, or the decision's own
    check refuses it), or None when it would be accepted. ``state`` is unchanged."""
    from .flow import apply

    try:
        apply(state, house, action)
    except IllegalAction as error:
        return Problem.of(error)
    return None
