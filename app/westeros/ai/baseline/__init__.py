"""The baseline AI: plays every decision legally and sensibly from its own view only.

It defends threatened castles with Defense orders, marches on weaker neighbours, empty areas and
beatable neutral forces, supports its own likely combats, consolidates where safe, raids nearby
enemy orders, musters where units are needed, bids a share of its power, and chooses house cards
by the stakes: the cheapest card that wins, the weakest when the fight is lost or won anyway.
Every figure is a heuristic from ``analysis.Situation``; every action is built from the prompt's
data (``legal``), and any prompt it does not know gets ``legal.fallback_action``.

One policy per phase, each in the module named after it: ``planning`` (4), ``action`` (5),
``mustering`` (3.5), ``bidding`` (3.6, 7.2), ``combat`` (5.4) and ``choices`` (card and rule
options); ``policy`` holds what they share."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...engine.actions import Action
from ...engine.content import Ruleset
from .. import legal
from ..analysis import Situation
from .action import ActionPolicy
from .bidding import BiddingPolicy
from .choices import ChoicePolicy
from .mustering import MusteringPolicy
from .planning import PlanningPolicy
from .policy import BASELINE, Data, Personality


class BaselineBot(PlanningPolicy, ActionPolicy, MusteringPolicy, BiddingPolicy, ChoicePolicy):
    """The sensible baseline AI (see module docstring). Deterministic for a given ``seed``."""

    name = "baseline"

    def decide(self, view: Data, rules: Ruleset, budget: float) -> Action:
        """Answer ``view["prompt"]`` from the view alone (protocol.Player)."""
        return answer(self, HANDLERS, view, rules)


def answer(
    bot: Any,
    handlers: Mapping[str, Callable[[Any, Situation, Data], Action]],
    view: Data,
    rules: Ruleset,
) -> Action:
    """``bot``'s answer to ``view["prompt"]``: the plugin's AI answer for a choice its own rule
    asks (``legal.plugin_answer``: ports, Tides, Mother of Dragons), else its own handler for
    the kind, else a legal fallback."""
    prompt = view["prompt"]
    plugin = legal.plugin_answer(rules, prompt, handlers)
    if plugin is not None:
        return plugin.answer(view, rules, bot.rnd)
    handler = handlers.get(prompt["kind"])
    if handler is None:
        return legal.fallback_action(view, rules)
    return handler(bot, Situation(view, rules), prompt["data"])


HANDLERS: dict[str, Callable[[BaselineBot, Situation, Data], Action]] = {
    "place_orders": BaselineBot.place_orders,
    "messenger_raven": BaselineBot.messenger_raven,
    "raid": BaselineBot.raid,
    "march": BaselineBot.march,
    "consolidate_power": BaselineBot.consolidate_power,
    "muster": BaselineBot.muster,
    "bid": BaselineBot.bid,
    "wildling_bid": BaselineBot.wildling_bid,
    "order_ties": BaselineBot.order_ties,
    "choose_house_card": BaselineBot.choose_house_card,
    "declare_support": BaselineBot.declare_support,
    "destroy_units": BaselineBot.destroy_units,
    "reconcile_supply": BaselineBot.reconcile_supply,
    "choose_area": BaselineBot.choose_area,
    "retreat": BaselineBot.choose_area,
    "choose_option": BaselineBot.choose_option,
    "use_blade": BaselineBot.choose_option,
    "support_neutral_attack": BaselineBot.support_neutral_attack,
    "upgrade_units": BaselineBot.upgrade_units,
    "replace_units": BaselineBot.replace_units,
    "muster_area": BaselineBot.muster_area,
    "destroy_area": BaselineBot.destroy_area,
}


__all__ = ["BASELINE", "HANDLERS", "BaselineBot", "Personality", "answer"]
