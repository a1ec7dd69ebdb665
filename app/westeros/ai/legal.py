"""Legal actions built from a prompt's factored ``data`` only (DESIGN §2), never from a game
state: uniformly random ones (``random_action``, for RandomBot), minimal ones
(``minimal_action``, for PassiveBot and as every bot's fallback), and the checks the bots share
(``march_problem``, ``complete_orders``).

Where the data alone does not settle legality (supply limits of a march), the check runs the
engine's own board queries on the seat's public state (``public.public_state``), which holds
nothing a seat may not see."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ..engine import board
from ..engine.actions import Action, Bid, Choose, SelectArea, SelectUnits
from ..engine.bidding import TrackOrder
from ..engine.consolidate import ResolveConsolidate
from ..engine.content import Ruleset
from ..engine.march import NEUTRAL, ResolveMarch
from ..engine.mustering import DONE, MusterUnit
from ..engine.planning import NOTHING, PlaceOrders, ReplaceOrder
from ..engine.raid import ResolveRaid
from ..engine.state import State, Unit
from .public import public_state

Moves = tuple[tuple[str, tuple[str, ...]], ...]
PASSIVE_OPTIONS = ("none", "nothing", "pass", "no", "keep", "keep_on_top", "done")
PASSIVE_ORDER_TYPES = ("consolidate_power", "defense", "support", "raid", "march")


# ---------------------------------------------------------------------------------- orders (4)


def usable_tokens(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The order tokens of a ``place_orders`` / ``messenger_raven`` prompt not forbidden this
    round (4.3.2)."""
    return [t for t in data["tokens"] if not t["forbidden"]]


def complete_orders(
    chosen: dict[str, str],
    data: Mapping[str, Any],
    rank: Callable[[str, Mapping[str, Any]], float],
) -> PlaceOrders:
    """Keep the legal part of ``chosen`` (area → token id) and fill every other area while a
    legal token remains (4.2), best ``rank(area, token)`` first; the star limit (4.3.1) holds."""
    areas = list(data["areas"])
    tokens = {t["id"]: t for t in usable_tokens(data)}
    room = data["star_limit"]
    orders: dict[str, str] = {}
    for area, token in chosen.items():
        t = tokens.get(token)
        if area not in areas or t is None or area in orders or (t["star"] and room < 1):
            continue
        orders[area] = token
        room -= t["star"]
        del tokens[token]
    for area in areas:
        if area in orders:
            continue
        spare = [t for t in tokens.values() if not t["star"] or room > 0]
        if not spare:
            continue
        best = max(spare, key=lambda t: (rank(area, t), not t["star"], t["id"]))
        orders[area] = best["id"]
        room -= best["star"]
        del tokens[best["id"]]
    return PlaceOrders(tuple(sorted(orders.items())))


def raven_replacements(data: Mapping[str, Any], rules: Ruleset) -> list[ReplaceOrder]:
    """Every legal Messenger Raven replacement (4.4 a) described by the prompt ``data``."""
    room = data["star_limit"] - data["stars_placed"]
    out = []
    for area, old in sorted(data["orders"].items()):
        old_star = rules.order_tokens[old].star
        out.extend(
            ReplaceOrder(area, t["id"]) for t in usable_tokens(data) if t["star"] - old_star <= room
        )
    return out


# ---------------------------------------------------------------------------------- march (5.3)


def entries(info: Mapping[str, Any]) -> dict[str, dict[str, Mapping[str, Any]]]:
    """The destinations of one March order: unit domain → destination area → its entry."""
    return {dom: {e["area"]: e for e in lst} for dom, lst in info["destinations"].items()}


def march_problem(
    state: State,
    house: str,
    area: str,
    info: Mapping[str, Any],
    moves: Moves,
    leave_power: bool = False,
) -> str | None:
    """Why the march ``moves`` of the order in ``area`` is illegal (5.3, 5.5), or None.

    ``info`` is the order's entry of the ``march`` prompt; ``state`` the seat's public state
    (used for army sizes and the supply limit only, 1.7)."""
    rules = state.rules
    pool = Counter(info["units"])
    used: Counter[str] = Counter()
    reach = entries(info)
    seen: set[str] = set()
    override: dict[str, int] = {}
    fight: tuple[Mapping[str, Any], tuple[str, ...]] | None = None
    for dst, types in moves:
        if not types or dst in seen:
            return "each group needs units and its own destination (5.3.1)"
        seen.add(dst)
        used.update(types)
        if any(n > pool[t] for t, n in used.items()):
            return "more units than may march (5.3.1)"
        found = [reach.get(rules.unit_types[t].domain, {}).get(dst) for t in types]
        if any(e is None for e in found):
            return f"{dst} is out of reach (5.3.2)"
        entry = found[0]
        assert entry is not None
        if entry["room"] is not None and len(types) > entry["room"]:
            return f"{dst} is full (6.1.3)"
        own = len(state.units[dst]) if board.occupant(state, dst) == house else 0
        override[dst] = own + len(types)
        if entry["combat"] is not None:
            if fight is not None:
                return "one combat per march (5.3.3)"
            fight = (entry, tuple(types))
    if fight is not None and fight[0]["combat"] == NEUTRAL:
        entry, types = fight
        strength = sum(board.unit_strength(state, Unit(house, t), entry["castle"]) for t in types)
        if strength + info["bonus"] + entry["support"] < entry["neutral"]:
            return "too weak for the neutral force (5.5.1)"
    moved = sum(used.values())
    if leave_power and (
        not info["may_leave_power"] or info["staying"] or moved != len(info["units"])
    ):
        return "no power token may stay (5.3.9)"
    if moved:
        override[area] = len(state.units[area]) - moved
        if not board.within_supply(state, house, override):
            return "supply (5.3.7)"
    return None


def random_march(
    state: State, house: str, data: Mapping[str, Any], rnd: random.Random, tries: int = 24
) -> ResolveMarch:
    """A random legal march: a random order, a random destination (or none) for each unit."""
    area = rnd.choice(sorted(data["marches"]))
    info = data["marches"][area]
    units = list(info["units"])
    if not units or rnd.random() < 0.125:
        return ResolveMarch(area, ())
    rules = state.rules
    reach = entries(info)
    for _ in range(tries):
        groups: dict[str, list[str]] = {}
        fight: str | None = None
        for t in rnd.sample(units, len(units)):
            options: list[str | None] = [None]
            for dst, e in reach.get(rules.unit_types[t].domain, {}).items():
                if e["combat"] is not None and fight not in (None, dst):
                    continue
                if e["room"] is not None and len(groups.get(dst, ())) >= e["room"]:
                    continue
                options.append(dst)
            pick = rnd.choice(options)
            if pick is None:
                continue
            groups.setdefault(pick, []).append(t)
            if reach[rules.unit_types[t].domain][pick]["combat"] is not None:
                fight = pick
        moves = tuple((d, tuple(sorted(g))) for d, g in sorted(groups.items()))
        leave = rnd.random() < 0.5 and march_problem(state, house, area, info, moves, True) is None
        if march_problem(state, house, area, info, moves, leave) is None:
            return ResolveMarch(area, moves, leave)
    return ResolveMarch(area, ())


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
        return random_march(public_state(view, rules), view["house"], data, rnd)
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
    raise ValueError(f"no legal answer can be built from the data of prompt {kind!r}")
