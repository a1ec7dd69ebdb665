"""Legal actions built from a prompt's factored ``data`` only (DESIGN §2), never from a game
state: uniformly random ones (``random_action``, for RandomBot), minimal ones
(``minimal_action``, for PassiveBot and as every bot's fallback), and the helpers the bots share
(``complete_orders``, ``entries``).

Where the data alone does not settle legality (a march: supply, neutral forces), the engine's
own check (``march.check`` / ``march.problem``, ``march.random_march``) runs on the seat's public
state (``engine.public.public_state``), which holds nothing a seat may not see."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from typing import Any

from ..engine import march
from ..engine.actions import Action, Bid, Choose, SelectArea, SelectUnits
from ..engine.bidding import TrackOrder
from ..engine.consolidate import ResolveConsolidate
from ..engine.content import AiAnswer, Ruleset
from ..engine.march import ResolveMarch
from ..engine.mustering import DONE, MusterUnit
from ..engine.planning import NOTHING, PlaceOrders, ReplaceOrder
from ..engine.public import public_state
from ..engine.raid import ResolveRaid

Moves = tuple[tuple[str, tuple[str, ...]], ...]
PASSIVE_OPTIONS = ("none", "nothing", "pass", "no", "keep", "keep_on_top", "done")
PASSIVE_ORDER_TYPES = ("consolidate_power", "defense", "support", "raid", "march")


# ---------------------------------------------------------------------------------- orders (4)


def usable_tokens(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The order tokens of a ``place_orders`` / ``messenger_raven`` prompt not forbidden this
    round (4.3.2)."""
    return [t for t in data["tokens"] if not t["forbidden"]]


def fits(data: Mapping[str, Any], area: str, token: str) -> bool:
    """May ``token`` go in ``area`` by the prompt's ``only_in`` (tokens limited to some area
    kinds, MoD sea orders 4.3.4; absent: any area)?"""
    only = data.get("only_in", {}).get(token)
    return only is None or area in only


def complete_orders(
    chosen: dict[str, str],
    data: Mapping[str, Any],
    rank: Callable[[str, Mapping[str, Any]], float],
) -> PlaceOrders:
    """Keep the legal part of ``chosen`` (area → token id) and fill every other area while a
    legal token remains (4.2), best ``rank(area, token)`` first; the star limit (4.3.1) and a
    prompt's ``max_orders`` hold."""
    areas = list(data["areas"])
    tokens = {t["id"]: t for t in usable_tokens(data)}
    room = data["star_limit"]
    orders: dict[str, str] = {}
    for area, token in chosen.items():
        t = tokens.get(token)
        if area not in areas or t is None or area in orders or (t["star"] and room < 1):
            continue
        if not fits(data, area, token):
            continue
        orders[area] = token
        room -= t["star"]
        del tokens[token]
    for area in areas:
        if area in orders:
            continue
        spare = [
            t for t in tokens.values() if (not t["star"] or room > 0) and fits(data, area, t["id"])
        ]
        if not spare:
            continue
        best = max(spare, key=lambda t: (rank(area, t), not t["star"], t["id"]))
        orders[area] = best["id"]
        room -= best["star"]
        del tokens[best["id"]]
    kept = list(orders.items())[: data.get("max_orders", len(orders))]  # a vassal's 2 (11.10.4)
    return PlaceOrders(tuple(sorted(kept)))


def raven_replacements(data: Mapping[str, Any], rules: Ruleset) -> list[ReplaceOrder]:
    """Every legal Messenger Raven replacement (4.4 a) described by the prompt ``data``."""
    room = data["star_limit"] - data["stars_placed"]
    out: list[ReplaceOrder] = []
    for area, old in sorted(data["orders"].items()):
        old_star = rules.order_tokens[old].star
        out.extend(
            ReplaceOrder(area, t["id"])
            for t in usable_tokens(data)
            if t["star"] - old_star <= room and fits(data, area, t["id"])
        )
    return out


# ---------------------------------------------------------------------------------- march (5.3)


def entries(info: Mapping[str, Any]) -> dict[str, dict[str, Mapping[str, Any]]]:
    """The destinations of one March order: unit domain → destination area → its entry."""
    return {dom: {e["area"]: e for e in lst} for dom, lst in info["destinations"].items()}


def declined(data: Mapping[str, Any]) -> march.Declined:
    """The houses that refused to support an attack on a neutral force, from a ``march``
    prompt's data (5.5.1)."""
    return tuple((area, house) for area, house in data.get("declined", ()))


# ---------------------------------------------------------------------------------- any prompt


def _prompt(view: Mapping[str, Any]) -> tuple[str, Mapping[str, Any], tuple[str, ...]]:
    p = view["prompt"]
    return p["kind"], p["data"], tuple(p["actions"])


def random_action(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """A uniformly random legal answer to ``view["prompt"]``, built from its data."""
    kind, data, actions = _prompt(view)
    if kind == "place_orders":
        ids = [t["id"] for t in usable_tokens(data)]
        rnd.shuffle(ids)
        rank = {token: -float(i) for i, token in enumerate(ids)}
        return complete_orders({}, data, lambda area, t: rank[t["id"]])
    if kind == "messenger_raven":
        choices: list[Action] = [Choose(o) for o in data["options"]]
        choices.extend(raven_replacements(data, rules))
        return rnd.choice(choices)
    if kind == "raid":
        return rnd.choice(
            [
                ResolveRaid(a, t)
                for a, r in sorted(data["raids"].items())
                for t in (None, *r["targets"])
            ]
        )
    if kind == "march":
        state = public_state(view, rules)
        return march.random_march(state, view["house"], rnd, declined(data))
    if kind == "consolidate_power":
        return rnd.choice(
            [
                ResolveConsolidate(a, m)
                for a, o in sorted(data["orders"].items())
                for m in ((False, True) if o["may_muster"] else (False,))
            ]
        )
    if kind == "muster":
        options: list[Action] = [Choose(DONE)]
        options.extend(MusterUnit(r["unit"], a) for r in data["recruits"] for a in r["areas"])
        options.extend(MusterUnit(u["to"], data["area"], u["from"]) for u in data["upgrades"])
        return rnd.choice(options)
    if kind in ("bid", "wildling_bid"):
        return Bid(rnd.randint(data["min"], data["max"]))
    if kind == "order_ties":
        order: list[str] = []
        for group in data["groups"]:
            order.extend(rnd.sample(group["houses"], len(group["houses"])))
        return TrackOrder(tuple(order))
    if kind == "choose_house_card":
        return Choose(rnd.choice(data["cards"]))
    if kind in ("reconcile_supply", "destroy_units", "replace_units", "upgrade_units"):
        count = data["count"] if "count" in data else rnd.randint(data["min"], data["max"])
        picks = rnd.sample(list(data["units"]), count)
        return SelectUnits(tuple((a, t) for a, t in picks))
    if "options" in data and Choose.kind in actions:
        return Choose(rnd.choice(data["options"]))
    if "areas" in data and SelectArea.kind in actions:
        areas: list[str | None] = list(data["areas"])
        if data.get("optional"):
            areas.append(None)
        return SelectArea(rnd.choice(areas))
    if "min" in data and "max" in data:
        return _amount(actions, rnd.randint(data["min"], data["max"]), rules)
    return fallback_action(view, rules)


def _amount(actions: tuple[str, ...], amount: int, rules: Ruleset) -> Action:
    """An answer carrying one number: a Bid, or a plugin action with a ``count`` field."""
    if Bid.kind in actions:
        return Bid(amount)
    return Action.from_json({"kind": actions[0], "count": amount}, rules.action_kinds)


def minimal_action(view: Mapping[str, Any], rules: Ruleset) -> Action:
    """The least active legal answer: orders that do not march where possible (4.2 still fills
    every area), marches and raids that do nothing, no bids, no musters, no support, passing
    on every optional effect, the first units or area where a choice is forced."""
    kind, data, _ = _prompt(view)
    if kind == "place_orders":
        prefer = {t: i for i, t in enumerate(reversed(PASSIVE_ORDER_TYPES))}
        return complete_orders({}, data, lambda area, t: prefer.get(t["type"], 0) - t["bonus"])
    if kind == "messenger_raven":
        return Choose(NOTHING)
    if kind == "raid":
        return ResolveRaid(min(data["raids"]))
    if kind == "march":
        return ResolveMarch(min(data["marches"]), ())
    if kind == "consolidate_power":
        return ResolveConsolidate(min(data["orders"]))
    if kind == "declare_support":
        return Choose("none")
    return fallback_action(view, rules)


def plugin_answer(
    rules: Ruleset, prompt: Mapping[str, Any], handled: Collection[str]
) -> AiAnswer | None:
    """The plugin's AI answer to ``prompt``, if any: one registered for its kind when the bot
    has no handler of its own for it (``handled``: a plugin's own prompt kind), else one for
    the prompt's ``reason`` (a choice the plugin's own rule or card asks through a kind the
    bot knows, e.g. a ``choose_option``)."""
    found = None if prompt["kind"] in handled else rules.ai_answers.get(prompt["kind"])
    reason = prompt["data"].get("reason")
    if found is None and isinstance(reason, str):
        found = rules.ai_answers.get(reason)
    return found


def fallback_action(view: Mapping[str, Any], rules: Ruleset) -> Action:
    """A legal answer derived from the prompt data by its shape alone, for any prompt kind a
    bot does not know: a passive option, the lowest amount, the fewest units, no area if that
    is allowed. Raises ValueError when the data does not describe the choices."""
    kind, data, actions = _prompt(view)
    if kind in ("place_orders", "messenger_raven", "raid", "march", "consolidate_power"):
        return minimal_action(view, rules)
    if kind == "muster":
        return Choose(DONE)
    if kind == "order_ties":
        return TrackOrder(tuple(h for g in data["groups"] for h in g["houses"]))
    if Choose.kind in actions:
        options = data.get("options") or data.get("cards")
        if options:
            passive = [o for o in PASSIVE_OPTIONS if o in options]
            return Choose(passive[0] if passive else options[0])
    if SelectArea.kind in actions and "areas" in data:
        return SelectArea(None if data.get("optional") else data["areas"][0])
    if SelectUnits.kind in actions and "units" in data:
        count = data.get("min", data.get("count", 0))
        return SelectUnits(tuple((a, t) for a, t in list(data["units"])[:count]))
    if "min" in data:
        return _amount(actions, data["min"], rules)
    plugin = rules.ai_answers.get(kind)
    if plugin is not None:  # a plugin prompt of its own shape: the plugin's AI answer
        return plugin.answer(view, rules, random.Random(kind))
    raise ValueError(f"no legal answer can be built from the data of prompt {kind!r}")
