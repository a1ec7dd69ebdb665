"""The Standard AI seat: one handler per prompt kind, from the phase modules (``planning``,
``action``, ``bidding``, ``combat``, ``mustering``) on top of the baseline AI's answers for the
rest (card and rule options, retreats, casualties)."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.actions import Action
from ...engine.content import Ruleset
from ..analysis import Situation
from ..baseline import HANDLERS as BASELINE_HANDLERS
from ..baseline import answer
from ..baseline.policy import Data
from .action import StandardAction
from .bidding import StandardBidding
from .combat import StandardCombat
from .mustering import StandardMustering


class StandardBot(StandardAction, StandardMustering, StandardBidding, StandardCombat):
    """A rule-of-thumb AI stronger than the baseline: plans attacks with their support, defends
    where the threat map says so, bids by track value, plays house cards by margin. It decides
    from its own ``player_view`` only and asks the engine for every rule; deterministic for a
    given ``seed``."""

    name = "standard"

    def decide(self, view: Data, rules: Ruleset, budget: float) -> Action:
        """Answer ``view["prompt"]`` from the view alone (protocol.Player)."""
        return answer(self, HANDLERS, view, rules)


def _own(kind: str) -> Callable[[StandardBot, Situation, Data], Action]:
    """The Standard AI's method answering prompts of ``kind`` (the baseline's name for it)."""
    method: Callable[[StandardBot, Situation, Data], Action] = getattr(
        StandardBot, BASELINE_HANDLERS[kind].__name__
    )
    return method


HANDLERS: dict[str, Callable[[StandardBot, Situation, Data], Action]] = {
    kind: _own(kind) for kind in BASELINE_HANDLERS
}

__all__ = ["HANDLERS", "StandardBot"]
