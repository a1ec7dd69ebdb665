"""The strong AI: its level's model policy (the baseline AI's for Normal, the Standard AI's for
Hard) improved by search on determinized states (``search``), at a difficulty level
(``difficulty``) and with a personality (``personality``).

Like every player (``protocol.Player``) it answers from its own ``player_view`` and the public
Ruleset only; all the states it simulates are sampled from that view (``determinize``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.actions import Action, Choose
from ..engine.consolidate import ResolveConsolidate
from ..engine.content import Ruleset
from ..engine.raid import ResolveRaid
from . import legal
from .difficulty import NORMAL, Difficulty
from .learned.model import learned_weights
from .opponents import OpponentModels
from .personality import BALANCED, AIPersonality
from .rollout import model_bot
from .search import Search
from .standard.combat import Outcomes

View = Mapping[str, Any]
SEARCHED_ACTIONS = ("raid", "consolidate_power", "declare_support")


class StrongBot:
    """A search-based AI seat (see module docstring). Deterministic for a given ``seed``:
    its work per decision is counted, not timed (``Difficulty``); ``last`` is the search of
    the latest decision (None when it did not search); ``opponents`` the model each other
    house plays like, for a level that reads them; ``outcomes`` the house-card outcomes its
    searches found (``standard.combat.Outcomes``), this seat's alone: every key is a state
    sampled from its own views."""

    def __init__(
        self,
        seed: int = 0,
        level: Difficulty = NORMAL,
        personality: AIPersonality = BALANCED,
    ) -> None:
        self.rnd = random.Random(seed)
        self.level = level
        self.personality = personality
        self.name = level.id if personality is BALANCED else f"{level.id}-{personality.id}"
        self.outcomes = Outcomes()
        self.fallback = model_bot(
            level.model, self.rnd.getrandbits(32), personality.style(), self.outcomes
        )
        self.last: Search | None = None
        self.opponents = OpponentModels(level.model) if level.read_opponents else None

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        """Answer ``view["prompt"]`` from the view alone (protocol.Player)."""
        level = self.level
        self.last = None
        if level.blunder and self.rnd.random() < level.blunder:
            return legal.random_action(view, rules, self.rnd)
        kind = view["prompt"]["kind"]
        if self.opponents is not None:
            self.opponents.observe(view, rules)
        search = self.search(view, rules, budget)
        action = self.searched(search, kind, view, rules)
        if search.predictions and self.opponents is not None:
            self.opponents.expect(view["round"], search.predictions, rules)
        self.last = search
        return action if action is not None else self.fallback.decide(view, rules, budget)

    @property
    def remembers(self) -> bool:
        """Does this seat read the other houses over the game (``session.seats.Recalling``)?"""
        return self.opponents is not None

    def recall(self, past: Iterable[tuple[View, View]], rules: Ruleset) -> None:
        """Read the other houses from the rounds played before this seat was taken (a resumed
        game, a seat taken over): at each earlier Planning view (4) predict their orders with
        every model, as a decision there would have, and score the predictions against the
        orders revealed (4.1)."""
        if self.opponents is None:
            return
        for planning, revealed in past:
            predictions = self.search(planning, rules, 0.0).predict()
            self.opponents.expect(planning["round"], predictions, rules)
            self.opponents.observe(revealed, rules)

    def search(self, view: View, rules: Ruleset, budget: float) -> Search:
        """A search of one decision at ``view``, in this seat's level, personality and reading
        of the other houses."""
        learned = learned_weights() if self.level.learned else None
        return Search(
            view,
            rules,
            random.Random(self.rnd.getrandbits(64)),
            self.level,
            self.personality.style(),
            learned or self.personality.weights(),
            budget,
            self.personality.conviction,
            learned,
            self.opponents.models() if self.opponents is not None else None,
            self.outcomes,
        )

    def searched(self, search: Search, kind: str, view: View, rules: Ruleset) -> Action | None:
        """The search's answer for the prompt kinds this level searches, else None."""
        level = self.level
        data = view["prompt"]["data"]
        if kind == "place_orders" and level.order_candidates:
            return search.orders()
        if kind == "choose_house_card" and level.card_game and "reason" not in data:
            return search.house_card()
        if kind == "bid" and level.bid_game:
            return search.bid()
        if not level.action_candidates:
            return None
        if kind == "march":
            return search.best_of(search.march_candidates(data))
        if kind in SEARCHED_ACTIONS:
            first = self.fallback.decide(view, rules, 0.0)
            options = [first, *(a for a in all_answers(kind, data) if a != first)]
            return search.best_of(options[: level.action_candidates])
        return None


def all_answers(kind: str, data: Mapping[str, Any]) -> list[Action]:
    """Every answer to a Raid, Consolidate Power or support prompt (5.2, 5.6, 5.4.1)."""
    if kind == "raid":
        raids = sorted(data["raids"].items())
        return [ResolveRaid(a, t) for a, r in raids for t in (*r["targets"], None)]
    if kind == "consolidate_power":
        return [
            ResolveConsolidate(a, m)
            for a, o in sorted(data["orders"].items())
            for m in ((True, False) if o["may_muster"] else (False,))
        ]
    return [Choose(o) for o in data["options"]]
