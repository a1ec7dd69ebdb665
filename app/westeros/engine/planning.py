"""The Planning phase (4): secret, simultaneous order placement, the reveal, and the Messenger
Raven (4.4).

Committed placements stay inside the ``OrderPlacement`` step until every house has committed
(0.4.4), so ``player_view`` never shows them before the reveal."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any, ClassVar

from . import tracks
from .actions import Action, Choose
from .choices import ChooseOption
from .content import HouseOrders, OrderToken, Ruleset
from .errors import (
    AreaLeftEmpty,
    ForbiddenOrder,
    IllegalChoice,
    IllegalOrder,
    StarLimitExceeded,
    TokenReused,
)
from .flow import Decision, Prompt, Simultaneous, Step, answering_house, left_out
from .state import Order, State

LOOK = "look_at_wildling_card"
NOTHING = "nothing"
KEEP = "keep_on_top"
BOTTOM = "move_to_bottom"


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceOrders(Action):
    """A house's secret placement (4.1): (area, order-token id) pairs."""

    kind: ClassVar[str] = "place_orders"
    orders: tuple[tuple[str, str], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class ReplaceOrder(Action):
    """Messenger Raven (4.4 a): put the unplaced ``token`` in place of the order in ``area``."""

    kind: ClassVar[str] = "replace_order"
    area: str
    token: str


def forbidden(state: State, token: OrderToken) -> str | None:
    """Why ``token`` may not be placed this round (4.3.2, 3.3), or None if it may."""
    return _forbidden(state.restrictions, token)


def _forbidden(restrictions: frozenset[str], token: OrderToken) -> str | None:
    if not restrictions:
        return None
    for key in (token.type, f"{token.type}{token.bonus:+d}", *sorted(token.restricted_as)):
        if key in restrictions:
            return f"no {key} orders may be placed this round (3.3)"
    return None


def game_tokens(state: State) -> list[OrderToken]:
    """The order tokens of this game (1.4.1): a plugin's token may need a game option."""
    return list(_in_game(state.rules, _options_on(state)))


def _options_on(state: State) -> frozenset[str]:
    """The game options of ``state`` that are on (what ``OrderToken.in_game`` reads)."""
    return frozenset(o for o, value in state.options.items() if value)


def fits(state: State, token: OrderToken, area: str) -> bool:
    """May ``token`` be placed in ``area`` (its kind; MoD sea orders, 4.3.4)?"""
    return token.fits(state.rules.areas[area].kind)


def only_in(state: State, areas: list[str]) -> dict[str, list[str]]:
    """For each token of this game limited to some area kinds: which of ``areas`` it fits."""
    return {
        t.id: [a for a in areas if fits(state, t, a)] for t in game_tokens(state) if t.area_kinds
    }


@functools.lru_cache(maxsize=64)
def _in_game(rules: Ruleset, on: frozenset[str]) -> tuple[OrderToken, ...]:
    """The order tokens of a game of ``rules`` with options ``on`` (shared, read-only)."""
    return tuple(t for t in rules.order_tokens.values() if t.in_game(dict.fromkeys(on, True)))


@functools.lru_cache(maxsize=64)
def _token_index(rules: Ruleset, on: frozenset[str]) -> dict[str, OrderToken]:
    """``game_tokens`` of a game of ``rules`` with options ``on`` by id (shared, read-only)."""
    return {t.id: t for t in _in_game(rules, on)}


def allowed_tokens(state: State) -> tuple[OrderToken, ...]:
    """The order tokens of this game (``game_tokens``) not forbidden this round (4.3.2, 3.3),
    in the same order."""
    return _allowed(state.rules, state.restrictions, _options_on(state))


@functools.lru_cache(maxsize=64)
def _allowed(
    rules: Ruleset, restrictions: frozenset[str], on: frozenset[str]
) -> tuple[OrderToken, ...]:
    """``allowed_tokens`` of a game of ``rules`` with options ``on`` under ``restrictions``."""
    return tuple(t for t in _in_game(rules, on) if _forbidden(restrictions, t) is None)


@functools.lru_cache(maxsize=64)
def _allowed_ids(
    rules: Ruleset, restrictions: frozenset[str], on: frozenset[str]
) -> frozenset[str]:
    """The ids of ``_allowed``."""
    return frozenset(t.id for t in _allowed(rules, restrictions, on))


@functools.lru_cache(maxsize=64)
def _token_table(
    rules: Ruleset, restrictions: frozenset[str], on: frozenset[str]
) -> tuple[dict[str, Any], ...]:
    """Prompt data for every order token of a game with options ``on`` under
    ``restrictions`` (shared, read-only: the placement prompt of every house is rebuilt on each
    ``pending`` call)."""
    return tuple(
        {
            "id": t.id,
            "type": t.type,
            "bonus": t.bonus,
            "star": t.star,
            "forbidden": _forbidden(restrictions, t),
        }
        for t in _in_game(rules, on)
    )


def order_areas(state: State) -> dict[str, list[str]]:
    """Areas holding units of each house (4.1), sorted by area id."""
    out: dict[str, list[str]] = {}
    for area in sorted(state.units):
        out.setdefault(state.units[area][0].house, []).append(area)
    return out


def token_data(state: State) -> list[dict[str, Any]]:
    """Every order token as JSON-ready prompt data: id, type, bonus, star and why it is
    forbidden this round (None if it is not)."""
    return list(_token_table(state.rules, state.restrictions, _options_on(state)))


def house_orders(state: State, house: str) -> HouseOrders | None:
    """How ``house`` places orders by a plugin's rule (``rule_house_orders``; a vassal's
    tokens, 11.10.4), or None for the usual way."""
    for hook in state.rules.hooks.house_orders:
        rule = hook(state, house)
        if rule is not None:
            return rule
    return None


def _after_others(state: State, house: str) -> bool:
    rule = house_orders(state, house)
    return rule is not None and rule.after_others


def next_after(state: State, houses: list[str]) -> list[str]:
    """``houses`` (all placing ``after_others``) in the order they place: by the turn order
    (Iron Throne track) of the house answering for each, then by their own (11.10.4: the
    commanders, in turn order, place their vassals' orders)."""
    order = {h: i for i, h in enumerate(tracks.turn_order(state))}
    return sorted(houses, key=lambda h: (order[answering_house(state, h)], order[h]))


def owns(state: State, house: str, token: str) -> bool:
    """Is ``token`` one of the order tokens ``house`` owns (1.4.1)?"""
    return _owns(house_orders(state, house), token)


def _owns(rule: HouseOrders | None, token: str) -> bool:
    """``owns`` for a house placing orders by ``rule`` (``house_orders``)."""
    return rule is None or token in rule.tokens


def star_limit(state: State, house: str) -> int:
    """Starred orders ``house`` may place: by King's Court (1.6.3) unless a plugin says."""
    return _star_limit(state, house, house_orders(state, house))


def _star_limit(state: State, house: str, rule: HouseOrders | None) -> int:
    """``star_limit`` for ``house`` placing orders by ``rule`` (``house_orders``)."""
    if rule is None or rule.star_limit is None:
        return tracks.star_limit(state, house)
    return rule.star_limit


def house_token_data(state: State, house: str) -> list[dict[str, Any]]:
    """``token_data`` of the tokens ``house`` owns."""
    return _house_token_data(state, house_orders(state, house))


def _house_token_data(state: State, rule: HouseOrders | None) -> list[dict[str, Any]]:
    """``house_token_data`` for a house placing orders by ``rule`` (``house_orders``)."""
    table = token_data(state)
    return table if rule is None else [t for t in table if t["id"] in rule.tokens]


@dataclasses.dataclass(frozen=True, slots=True)
class PlanningPhase(Step):
    """Start the Planning phase (4): every house with units places orders in secret, then the
    orders are revealed and the Raven holder decides (4.4). Plugins' Planning steps
    (``rule_planning_steps``) run first; houses they leave out of orders place none here."""

    def run(self, state: State) -> None:
        areas = order_areas(state)
        houses = tuple(
            h for h in tracks.turn_order(state) if h in areas and not left_out(state, h, "orders")
        )
        steps = [step for hook in state.rules.hooks.planning_steps for step in hook(state)]
        state.push(
            *steps,
            OrderPlacement(houses, tuple((h, tuple(areas[h])) for h in houses)),
            MessengerRaven(),
        )


@dataclasses.dataclass(frozen=True, slots=True)
class OrderPlacement(Simultaneous):
    """Simultaneous, secret order placement (4.1-4.3); the reveal when all have committed.

    ``areas`` holds each deciding house's areas with units (units cannot move while orders are
    placed)."""

    houses: tuple[str, ...]
    areas: tuple[tuple[str, tuple[str, ...]], ...]
    commits: tuple[tuple[str, Action], ...] = ()
    commit_kinds: ClassVar[tuple[str, ...]] = (PlaceOrders.kind,)

    def prompts(self, state: State) -> dict[str, Prompt]:
        """The houses still to commit; houses placing ``after_others`` (``rule_house_orders``)
        only once every other house has committed, and then one at a time (``next_after``:
        commanders place their vassals' orders one after another in turn order, 11.10.4)."""
        done = {h for h, _ in self.commits}
        waiting = [h for h in self.houses if h not in done]
        first = [h for h in waiting if not _after_others(state, h)]
        if first:
            return {h: self.asked(state, h) for h in first}
        return {h: self.asked(state, h) for h in next_after(state, waiting)[:1]}

    def areas_of(self, house: str) -> tuple[str, ...]:
        """The areas in which ``house`` must place orders."""
        for h, areas in self.areas:
            if h == house:
                return areas
        return ()

    def prompt_for(self, state: State, house: str) -> Prompt:
        rule = house_orders(state, house)
        data: dict[str, Any] = {
            "areas": list(self.areas_of(house)),
            "tokens": _house_token_data(state, rule),
            "star_limit": _star_limit(state, house, rule),
            "fill_every_area": rule is None or rule.fill_every_area,
        }
        if rule is not None and rule.max_orders is not None:
            data["max_orders"] = rule.max_orders
        if limited := only_in(state, data["areas"]):
            data["only_in"] = limited
        return Prompt(house, "place_orders", (PlaceOrders.kind,), data)

    def check(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, PlaceOrders)
        areas = self.areas_of(house)
        on = _options_on(state)
        tokens = _token_index(state.rules, on)
        allowed = _allowed_ids(state.rules, state.restrictions, on)
        rule = house_orders(state, house)
        limit = _star_limit(state, house, rule)
        if (
            rule is not None
            and rule.max_orders is not None
            and len(action.orders) > rule.max_orders
        ):
            raise IllegalOrder(f"{house} may place at most {rule.max_orders} orders", "11.10.4")
        filled: set[str] = set()
        used: set[str] = set()
        stars = 0
        for area, token_id in action.orders:
            if area not in areas:
                raise IllegalOrder(f"{house} has no units in {area!r}", "4.1")
            if area in filled:
                raise IllegalOrder(f"two orders in {area!r}", "4.1")
            token = tokens.get(token_id)
            if token is None or not _owns(rule, token_id):
                raise IllegalOrder(f"{house} has no order token {token_id!r}", "1.4.1")
            if token_id in used:
                raise TokenReused(f"order token {token_id!r} is placed twice")
            if not fits(state, token, area):
                raise IllegalOrder(f"{token_id!r} cannot be placed in {area!r}", "4.3.4")
            if token_id not in allowed:
                raise ForbiddenOrder(f"{token_id!r}: {forbidden(state, token)}")
            filled.add(area)
            used.add(token_id)
            stars += token.star
        if stars > limit:
            raise StarLimitExceeded(f"{house} may place {limit} starred order(s), not {stars}")
        if len(filled) < len(areas) and (rule is None or rule.fill_every_area):
            empty = [a for a in areas if a not in filled]
            spare = [
                t.id
                for t in tokens.values()
                if t.id not in used
                and _owns(rule, t.id)
                and t.id in allowed
                and (not t.star or stars < limit)
                and any(fits(state, t, a) for a in empty)
            ]
            if spare:
                raise AreaLeftEmpty(f"{empty} left without an order while {spare} may be placed")

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        areas = list(self.areas_of(house))
        rnd.shuffle(areas)
        rule = house_orders(state, house)
        if rule is not None and rule.max_orders is not None:
            areas = areas[: rnd.randint(0, min(rule.max_orders, len(areas)))]
        limit = _star_limit(state, house, rule)
        allowed = allowed_tokens(state)
        tokens = list(allowed) if rule is None else [t for t in allowed if t.id in rule.tokens]
        rnd.shuffle(tokens)
        defs = state.rules.areas
        orders: list[tuple[str, str]] = []
        stars = 0
        for token in tokens:
            if not areas:
                break
            if token.area_kinds:
                area = next((a for a in areas if token.fits(defs[a].kind)), None)
            else:
                area = areas[0]
            if area is None or (token.star and stars >= limit):
                continue
            stars += token.star
            areas.remove(area)
            orders.append((area, token.id))
        return PlaceOrders(tuple(orders))

    def resolve(self, state: State, commits: dict[str, Action]) -> None:
        for house in self.houses:
            action = commits[house]
            assert isinstance(action, PlaceOrders)
            for area, token in action.orders:
                state.orders[area] = Order(house, token)
            state.placed[house] = frozenset(t for _, t in action.orders)
        state.emit(
            "orders_revealed",
            orders={a: [o.house, o.token] for a, o in sorted(state.orders.items())},
        )


@dataclasses.dataclass(frozen=True, slots=True)
class MessengerRaven(Decision):
    """The Messenger Raven (4.4): after the reveal, the King's Court holder may replace one of
    its orders with an unplaced token, look at the top wildling card, or do nothing."""

    def holder(self, state: State) -> str | None:
        """The house that decides, or None if the Raven was already used this round (1.6.4)."""
        return None if state.raven_used else tracks.holder(state, tracks.KINGS_COURT)

    def options(self, state: State) -> list[str]:
        """The Choose options open to the holder (b and c)."""
        return [LOOK, NOTHING] if state.wildling_deck else [NOTHING]

    def spare_tokens(self, state: State, house: str) -> list[OrderToken]:
        """Unplaced tokens that are not forbidden this round (4.4 a, 4.3.2)."""
        placed = state.placed.get(house, frozenset())
        rule = house_orders(state, house)
        return [t for t in allowed_tokens(state) if t.id not in placed and _owns(rule, t.id)]

    def own_orders(self, state: State, house: str) -> list[str]:
        """Areas holding ``house``'s orders, sorted."""
        return sorted(a for a, o in state.orders.items() if o.house == house)

    def stars_placed(self, state: State, house: str) -> int:
        """Starred orders ``house`` has on the board."""
        tokens = state.rules.order_tokens
        return sum(1 for o in state.orders.values() if o.house == house and tokens[o.token].star)

    def prompts(self, state: State) -> dict[str, Prompt]:
        house = self.holder(state)
        if house is None:
            return {}
        placed = state.placed.get(house, frozenset())
        own = self.own_orders(state, house)
        data: dict[str, Any] = {
            "options": self.options(state),
            "orders": {a: state.orders[a].token for a in own},
            "tokens": [t for t in house_token_data(state, house) if t["id"] not in placed],
            "star_limit": star_limit(state, house),
            "stars_placed": self.stars_placed(state, house),
        }
        if limited := only_in(state, own):
            data["only_in"] = limited
        return {house: Prompt(house, "messenger_raven", (ReplaceOrder.kind, Choose.kind), data)}

    def check_replace(self, state: State, house: str, action: ReplaceOrder) -> None:
        """Raise unless ``action`` is a legal replacement (4.4 a)."""
        current = state.orders.get(action.area)
        if current is None or current.house != house:
            raise IllegalOrder(f"{house} has no order in {action.area!r} to replace", "4.4")
        token = state.rules.order_tokens.get(action.token)
        if (
            token is None
            or not token.in_game(state.options)
            or not owns(state, house, action.token)
        ):
            raise IllegalOrder(f"{house} has no order token {action.token!r}", "1.4.1")
        if not fits(state, token, action.area):
            raise IllegalOrder(f"{action.token!r} cannot be placed in {action.area!r}", "4.3.4")
        if action.token in state.placed.get(house, frozenset()):
            raise TokenReused(f"order token {action.token!r} is already placed")
        reason = forbidden(state, token)
        if reason is not None:
            raise ForbiddenOrder(f"{action.token!r}: {reason}")
        old_star = state.rules.order_tokens[current.token].star
        stars = self.stars_placed(state, house) - old_star + token.star
        limit = star_limit(state, house)
        if stars > limit:
            raise StarLimitExceeded(f"{house} may have {limit} starred order(s), not {stars}")

    def act(self, state: State, house: str, action: Action) -> None:
        if isinstance(action, ReplaceOrder):
            self.check_replace(state, house, action)
            state.pop()
            old = state.orders[action.area].token
            state.orders[action.area] = Order(house, action.token)
            state.placed[house] = state.placed[house] - {old} | {action.token}
            state.raven_used = True
            state.emit("raven_replaced", house=house, area=action.area, old=old, new=action.token)
            return
        assert isinstance(action, Choose)
        if action.option not in self.options(state):
            raise IllegalChoice(f"{action.option!r} is not one of {self.options(state)}", "4.4")
        state.pop()
        state.raven_used = True
        if action.option == NOTHING:
            state.emit("raven_unused", house=house)
            return
        state.wildling_seen = state.wildling_seen | {house}
        state.emit("raven_looked", house=house)
        state.emit("wildling_card_seen", visible_to=frozenset({house}), card=state.wildling_deck[0])
        state.push(WildlingCardPlacement(house, (KEEP, BOTTOM), "4.4 Messenger Raven"))

    def legal_replacements(self, state: State, house: str) -> list[tuple[str, str]]:
        """Every legal replacement (4.4 a) as (area, token id), in a fixed order."""
        rules = state.rules
        tokens = rules.order_tokens
        spare = self.spare_tokens(state, house)
        room = star_limit(state, house) - self.stars_placed(state, house)
        out: list[tuple[str, str]] = []
        for area in self.own_orders(state, house):
            old_star = tokens[state.orders[area].token].star
            kind = rules.areas[area].kind
            out.extend((area, t.id) for t in spare if t.star - old_star <= room and t.fits(kind))
        return out

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        choices: list[Choose | tuple[str, str]] = [Choose(o) for o in self.options(state)]
        choices.extend(self.legal_replacements(state, house))
        choice = rnd.choice(choices)
        return choice if isinstance(choice, Choose) else ReplaceOrder(*choice)


@dataclasses.dataclass(frozen=True, slots=True)
class WildlingCardPlacement(ChooseOption):
    """After looking with the Raven (4.4 b): keep the top wildling card or put it beneath."""

    def chosen(self, state: State, option: str) -> None:
        if option == BOTTOM:
            state.wildling_deck = state.wildling_deck[1:] + state.wildling_deck[:1]
            state.wildling_seen = frozenset()
