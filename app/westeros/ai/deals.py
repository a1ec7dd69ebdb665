"""The AI at the table (issue 15 point 4): how an AI seat weighs, makes and keeps deals.

``DealMind`` is one seat's negotiator. It reads only its own ``player_view`` (through
``analysis.Situation``) and its own side of the deal book (``DealBook.seen_by``):

- *what a term is worth* (``term_parts``: what it brings me, what it costs me): a
  non-aggression pact brings what the partner could take from me (a border I cannot hold, by
  the attack and hold estimates of ``analysis``) plus a share when we both face the leading
  house (a common enemy), and costs what I could take from the partner; a schemer counts that
  cost at half (it may break the pact);
- *whether to accept* a proposal (``answer``): never from a house that broke a deal with me
  (``grudges``, kept for the rest of the game), nor one that has me support a house where I
  promised to support another (``torn``); else when what the terms bring, coloured by a
  personality's ``diplomacy``, beats what they cost by a margin — so an honourable seat takes a
  plain pact with a neighbour that threatens it, or costs it nothing; a refused pact may be
  countered (``counter``) by a narrower exchange that binds both houses: the proposer stays out
  of my most threatened area (or supports my best attack) and I stay out of the area of theirs
  that costs me least to spare;
- *what to propose* (``proposals``): a pact with the neighbour it fears most, and a promise of
  support from a third house for its most promising attack paid for by a promise of my own
  (``support_wanted``: a pact with the helper, or staying out of its area), each when worth it.
  Every offer and counter binds my own house to at least one term (``terms.binds``): nothing
  one-sided is ever asked;
- *what it promised* (``bounds``): the areas it may not march into or raid this round, the
  support it owes and the bid caps it accepted.

``DealBot`` is the baseline AI bound by those promises: an honourable personality (``scheming``
0) never marches into, nor raids, an area its deals forbid, gives the support it promised and
bids no more than it agreed; a schemer breaks a march promise when the best march it forbids is
worth more than ``BREAK_GAIN / scheming`` over the best one it allows."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..deals.book import ACCEPT, BROKEN, COUNTER, DECLINE, DealBook, Proposal, Reply, check_kept
from ..deals.terms import NonAggression, SplitBids, StayOut, SupportPromise, Term
from ..engine import board
from ..engine.actions import Action, Bid, Choose
from ..engine.content import LAND, Ruleset
from ..engine.march import Declined, ResolveMarch
from .analysis import Situation, win_chance
from .baseline import BaselineBot
from .personality import BALANCED, AIPersonality

View = Mapping[str, Any]
BREAK_GAIN = 2.0
MARGIN = 0.1
GOODWILL = 0.15
PROPOSE_MARGIN = 0.3
COMMON_ENEMY = 0.5
SCHEMER_COST = 0.5
SUPPORT_COST = 0.3
PROMISED_SUPPORT = 2.5
PROMISED_HELP = 2.0
HELPED_WIN = 0.6
ATTACKER = "attacker"
DEFENDER = "defender"


def clamp(x: float) -> float:
    """``x`` within 0..1."""
    return min(1.0, max(0.0, x))


def hold_of(sit: Situation, area: str, house: str) -> float:
    """How well ``house`` holds ``area`` without orders: units, garrison, half its support."""
    own = sit.area_strength(area) if sit.occupant(area) == house else 0
    return own + sit.garrison(area, house) + 0.5 * sit.support_potential(area, house, area)


def take_chance(sit: Situation, attacker: str, area: str) -> float:
    """0..1: how likely ``attacker`` takes ``area`` from its controller next (``analysis``)."""
    owner = sit.control[area]
    attack = sit.attack_potential(attacker, area)
    if owner is None or owner == attacker or attack <= 0:
        return 0.0
    return clamp((attack - hold_of(sit, area, owner) + 2) / 4)


def pressure(sit: Situation, attacker: str, defender: str) -> float:
    """What ``attacker`` could take from ``defender`` next: the chance of each of its land
    areas falling, weighted by what it is worth to ``defender``."""
    return sum(
        take_chance(sit, attacker, area) * sit.value(area, defender)
        for area, owner in sit.control.items()
        if owner == defender and sit.rules.domain[area] == LAND
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Bounds:
    """What a seat's accepted deals forbid, ask or offer it this round: areas it may not march
    into (5.3) or raid (5.2), the house it owes support to in each combat area (5.4.1), its most
    bid per influence track (3.6), and the areas where another house promised to support it."""

    no_march: frozenset[str] = frozenset()
    no_raid: frozenset[str] = frozenset()
    support: Mapping[str, str] = dataclasses.field(default_factory=dict)
    bids: Mapping[str, int] = dataclasses.field(default_factory=dict)
    helped: frozenset[str] = frozenset()


class DealMind:
    """One seat's negotiator (see module docstring)."""

    def __init__(self, house: str, personality: AIPersonality = BALANCED) -> None:
        self.house = house
        self.personality = personality
        self.grudges: set[str] = set()
        self.owed: dict[tuple[str, int], str] = {}

    def remember(self, book: DealBook, now: int) -> None:
        """Note every house that broke a deal with me (public acts, ``check_kept``) and the
        support I promised (``owed``: by area and round, the house I support there)."""
        for deal in book.deals_of(self.house):
            verdict = check_kept(deal, book.acts, now)
            if verdict.status == BROKEN and verdict.breaker not in (None, self.house):
                self.grudges.add(verdict.breaker)
            for term in deal.terms:
                if isinstance(term, SupportPromise) and term.giver == self.house:
                    self.owed[term.area, term.round] = term.receiver

    def torn(self, terms: tuple[Term, ...]) -> bool:
        """Would ``terms`` have me support (5.4.1) one house where I already promised to
        support another (one of the two promises would be broken)?"""
        return any(
            isinstance(t, SupportPromise)
            and t.giver == self.house
            and self.owed.get((t.area, t.round), t.receiver) != t.receiver
            for t in terms
        )

    # ------------------------------------------------------------------ values
    def common_enemy(self, sit: Situation, other: str) -> float:
        """A bonus when ``other`` and I both border the leading house."""
        leader = sit.leader
        if leader in (None, self.house, other):
            return 0.0
        both = pressure(sit, leader, self.house) > 0 and pressure(sit, leader, other) > 0
        return COMMON_ENEMY if both else 0.0

    @property
    def keep(self) -> float:
        """How much of a promise's cost I count: all of it, half when I may break it."""
        return SCHEMER_COST if self.personality.scheming > 0 else 1.0

    def term_parts(self, sit: Situation, term: Term) -> tuple[float, float]:
        """What ``term`` brings me and what it costs me (both 0 or more)."""
        me = self.house
        if isinstance(term, NonAggression):
            gain = cost = 0.0
            for other in set(term.houses) - {me}:
                gain += pressure(sit, other, me) + self.common_enemy(sit, other)
                cost += self.keep * pressure(sit, me, other)
            return gain, cost
        if isinstance(term, StayOut):
            chance = take_chance(sit, term.house, term.area)
            worth = chance * sit.value(term.area, me)
            if term.house == me:
                return 0.0, self.keep * worth
            return (worth if sit.control[term.area] == me else 0.0), 0.0
        value = self.support_value(sit, term) if isinstance(term, SupportPromise) else 0.0
        if isinstance(term, SplitBids):
            mine = sit.state.power[me]
            richest = max((sit.state.power[h] for h in term.houses if h != me), default=0)
            value = 0.3 if mine < richest else -0.3
        return max(value, 0.0), max(-value, 0.0)

    def term_value(self, sit: Situation, term: Term) -> float:
        """What ``term`` is worth to me: what it spares or brings me, minus what it costs."""
        gain, cost = self.term_parts(sit, term)
        return gain - cost

    def support_value(self, sit: Situation, term: SupportPromise) -> float:
        """A support promise (5.4.1): to receive one is worth half the area; to give one is
        worth it against the leader or a house that threatens me more than the receiver."""
        if term.receiver == self.house:
            return 0.5 * sit.value(term.area, self.house)
        if not sit.supporters(term.area, self.house):
            return -1.0
        enemy = sit.occupant(term.area)
        if enemy is None or enemy in (term.receiver, self.house):
            enemy = sit.control[term.area]
        if enemy is None or enemy in (term.receiver, self.house):
            return -SUPPORT_COST
        worse = pressure(sit, enemy, self.house) > pressure(sit, term.receiver, self.house)
        gain = 0.5 if enemy == sit.leader or enemy in self.grudges or worse else -0.5
        return gain - SUPPORT_COST

    def worth(self, sit: Situation, terms: tuple[Term, ...]) -> float:
        """How much I want ``terms``: what they bring, coloured by my ``diplomacy``, less what
        they cost."""
        parts = [self.term_parts(sit, t) for t in terms]
        gains = sum(g for g, _ in parts)
        costs = sum(c for _, c in parts)
        return self.personality.diplomacy * (gains + GOODWILL) - costs

    # ------------------------------------------------------------------ the table
    def answer(self, proposal: Proposal, view: View, rules: Ruleset) -> Reply:
        """Accept, decline or counter ``proposal`` (made to me) from my view alone."""
        if (
            proposal.proposer in self.grudges
            or self.personality.diplomacy <= 0
            or self.torn(proposal.terms)
        ):
            return Reply(DECLINE)
        sit = Situation(view, rules)
        if self.worth(sit, proposal.terms) > MARGIN:
            return Reply(ACCEPT)
        counter = self.counter(sit, proposal)
        return Reply(COUNTER, counter) if counter is not None else Reply(DECLINE)

    def counter(self, sit: Situation, proposal: Proposal) -> tuple[Term, ...] | None:
        """Instead of a refused pact, an exchange that binds both houses: something I ask of
        the proposer (``asks``) for a promise to stay out of one of its areas (``gifts``), the
        one worth most to me among those worth more than the margin to me and, as far as I can
        tell from my view (a balanced mind in its seat), to the proposer too."""
        other = proposal.proposer
        if not any(isinstance(t, NonAggression) for t in proposal.terms):
            return None
        them = DealMind(other)
        best: tuple[float, tuple[Term, ...]] | None = None
        for ask in self.asks(sit, other):
            for gift in self.gifts(sit, other):
                terms = (ask, gift)
                value = self.worth(sit, terms)
                fair = value > MARGIN and them.worth(sit, terms) > MARGIN
                if fair and (best is None or value > best[0]):
                    best = (value, terms)
        return None if best is None else best[1]

    def gifts(self, sit: Situation, other: str) -> list[StayOut]:
        """My promises to stay out of an area of ``other`` that I could take (5.3): each is
        worth something to it."""
        now = sit.state.round
        return [
            StayOut(self.house, area, now)
            for area, owner in sorted(sit.control.items())
            if owner == other and take_chance(sit, self.house, area) > 0
        ]

    def asks(self, sit: Situation, other: str) -> list[Term]:
        """What I may ask of ``other`` in an exchange: that it stays out of my area it most
        likely takes (5.3), or supports my most promising attack (5.4.1)."""
        now = sit.state.round
        mine = [a for a, o in sit.control.items() if o == self.house]
        out: list[Term] = []
        best = max(mine, key=lambda a: (take_chance(sit, other, a) * sit.value(a), a), default=None)
        if best is not None and take_chance(sit, other, best) > 0:
            out.append(StayOut(other, best, now))
        helped = self.best_help(sit, other)
        if helped is not None:
            out.append(SupportPromise(other, self.house, helped[1], now))
        return out

    def gift(self, sit: Situation, other: str) -> Term | None:
        """What I give ``other`` for its support: a pact between us when it costs me no more
        than it brings me, else a promise to stay out of the area of its that costs me least
        to spare (``gifts``; the one it values most among equals); None when I threaten
        nothing of it and the pact costs me more than it brings."""
        peace = NonAggression(tuple(sorted((self.house, other))), sit.state.round)
        gain, cost = self.term_parts(sit, peace)
        if cost <= gain:
            return peace
        ranked = sorted(
            self.gifts(sit, other),
            key=lambda g: (self.term_parts(sit, g)[1], -DealMind(other).term_value(sit, g)),
        )
        return ranked[0] if ranked else None

    def proposals(
        self, view: View, rules: Ruleset, book: DealBook
    ) -> list[tuple[str, tuple[Term, ...]]]:
        """The deals I offer this round (to whom, what), each only if worth it and to a house I
        have no proposal with yet this round: a pact with the house I most want one with, and a
        request for support paid for by a promise of mine (``support_wanted``)."""
        if self.personality.diplomacy <= 0:
            return []
        sit = Situation(view, rules)
        now = sit.state.round
        taken = {
            h
            for p in book.proposals.values()
            if p.round == now and self.house in p.parties()
            for h in p.parties()
        }
        best: tuple[float, str] | None = None
        for other in sorted(sit.state.houses):
            if other == self.house or other in self.grudges or other in taken:
                continue
            value = self.worth(sit, (NonAggression(tuple(sorted((self.house, other))), now),))
            if value > PROPOSE_MARGIN and (best is None or value > best[0]):
                best = (value, other)
        out: list[tuple[str, tuple[Term, ...]]] = []
        if best is not None:
            out.append((best[1], (NonAggression(tuple(sorted((self.house, best[1]))), now),)))
        ask = self.support_wanted(sit, taken | {h for h, _ in out})
        if ask is not None:
            out.append(ask)
        return out

    def support_wanted(self, sit: Situation, busy: set[str]) -> tuple[str, tuple[Term, ...]] | None:
        """A third house's support (5.4.1) for the attack it would help most (the gain in win
        chance times the area's worth), if the support makes the attack likely to win
        (``HELPED_WIN``), paid for by a promise of mine to the helper (``gift``), and the
        whole exchange is worth more than the proposal margin to me."""
        best: tuple[float, str, str] | None = None
        for helper in sorted(sit.state.houses):
            if helper == self.house or helper in self.grudges or helper in busy:
                continue
            helped = self.best_help(sit, helper)
            if helped is not None and (best is None or helped[0] > best[0]):
                best = (helped[0], helper, helped[1])
        if best is None or self.personality.diplomacy * best[0] <= PROPOSE_MARGIN:
            return None
        helper = best[1]
        gift = self.gift(sit, helper)
        if gift is None:
            return None
        terms = (SupportPromise(helper, self.house, best[2], sit.state.round), gift)
        return (helper, terms) if self.worth(sit, terms) > PROPOSE_MARGIN else None

    def best_help(self, sit: Situation, helper: str) -> tuple[float, str] | None:
        """The attack of mine ``helper``'s support (5.4.1) would help most, as (the gain in
        win chance times the area's worth, the area), among those it makes likely to win
        (``HELPED_WIN``); None if there is none."""
        me = self.house
        best: tuple[float, str] | None = None
        for origin, targets in sorted(sit.reach.items()):
            if sit.occupant(origin) != me:
                continue
            for target in sorted(targets):
                margin = sit.planned_margin(origin, target)
                enemy = sit.defender_of(target)
                if margin is None or enemy is None or helper in (me, enemy):
                    continue
                extra = sit.support_potential(target, helper)
                if extra <= 0:
                    continue
                helped = win_chance(margin + extra)
                gain = (helped - win_chance(margin)) * sit.value(target)
                if helped >= HELPED_WIN and (best is None or gain > best[0]):
                    best = (gain, target)
        return best

    def bounds(self, book: DealBook, sit: Situation) -> Bounds:
        """What my deals of this round forbid or ask of me (see ``Bounds``)."""
        me = self.house
        now = sit.state.round
        no_march: set[str] = set()
        no_raid: set[str] = set()
        support: dict[str, str] = {}
        bids: dict[str, int] = {}
        helped: set[str] = set()
        for deal in book.deals_of(me):
            for term in deal.terms:
                if term.round != now:
                    continue
                if isinstance(term, NonAggression) and me in term.houses:
                    partners = set(term.houses) - {me}
                    no_march |= {a for a, o in sit.control.items() if o in partners}
                    no_raid |= {a for a, o in sit.state.orders.items() if o.house in partners}
                elif isinstance(term, StayOut) and term.house == me:
                    no_march.add(term.area)
                elif isinstance(term, SupportPromise) and term.giver == me:
                    support[term.area] = term.receiver
                elif isinstance(term, SupportPromise) and term.receiver == me:
                    helped.add(term.area)
                elif isinstance(term, SplitBids) and me in term.houses:
                    bids[term.track] = min(term.most, bids.get(term.track, term.most))
        return Bounds(frozenset(no_march), frozenset(no_raid), support, bids, frozenset(helped))


class DealBot(BaselineBot):
    """The baseline AI bound by its deals (see module docstring). Its table (``play`` in
    ``deals_table``) shows it its side of the deal book (``see``) before each decision."""

    def __init__(self, seed: int = 0, personality: AIPersonality = BALANCED) -> None:
        super().__init__(seed, personality.style())
        self.character = personality
        self.name = f"deals-{personality.id}"
        self.book = DealBook()
        self.mind: DealMind | None = None
        self.bounds = Bounds()
        self.keep = True

    def see(self, book: DealBook) -> None:
        """Show me my side of the game's deal book (``DealBook.seen_by``)."""
        self.book = book

    def mind_of(self, house: str) -> DealMind:
        """My negotiator, seated as ``house``."""
        if self.mind is None or self.mind.house != house:
            self.mind = DealMind(house, self.character)
        return self.mind

    def answer(self, proposal: Proposal, view: View, rules: Ruleset) -> Reply:
        """My reply to ``proposal`` (``DealMind.answer``)."""
        mind = self.mind_of(view["house"])
        mind.remember(self.book, view["round"])
        return mind.answer(proposal, view, rules)

    def proposals(self, view: View, rules: Ruleset) -> list[tuple[str, tuple[Term, ...]]]:
        """What I offer this round (``DealMind.proposals``)."""
        mind = self.mind_of(view["house"])
        mind.remember(self.book, view["round"])
        return mind.proposals(view, rules, self.book)

    @property
    def threshold(self) -> float:
        """The least gain for which I break a march promise (infinite when honourable)."""
        scheming = self.character.scheming
        return BREAK_GAIN / scheming if scheming > 0 else float("inf")

    def decide(self, view: View, rules: Ruleset, budget: float) -> Action:
        """Answer ``view["prompt"]`` within my promises (protocol.Player)."""
        kind = view["prompt"]["kind"]
        if kind not in ("place_orders", "march", "raid", "declare_support", "bid"):
            return super().decide(view, rules, budget)
        mind = self.mind_of(view["house"])
        mind.remember(self.book, view["round"])
        sit = Situation(view, rules)
        data = view["prompt"]["data"]
        self.bounds = mind.bounds(self.book, sit)
        self.keep = True
        if kind == "place_orders":
            self.keep = self.planned_gain(sit, data) <= self.threshold
            return self.place_orders(sit, data)
        if kind == "march":
            self.keep = self.march_gain(sit, data) <= self.threshold
            return self.march(sit, data)
        if kind == "raid":
            return self.raid(sit, self.allowed_raids(data))
        if kind == "declare_support":
            return self.promised_support(sit, data)
        action = self.bid(sit, data)
        cap = self.bounds.bids.get(data["track"])
        if cap is not None and isinstance(action, Bid) and action.amount > cap:
            return Bid(max(data["min"], cap))
        return action

    # ------------------------------------------------------------------ promises
    def planned_gain(self, sit: Situation, data: View) -> float:
        """What the best planned march into a forbidden area beats the best allowed one by."""
        if not self.bounds.no_march or self.character.scheming <= 0:
            return 0.0
        gain = 0.0
        for area in data["areas"]:
            ideas = BaselineBot.march_ideas(self, sit, area)
            allowed = [g for g, target, _ in ideas if target not in self.bounds.no_march]
            best = max((g for g, _, _ in ideas), default=0.0)
            gain = max(gain, best - max(allowed, default=0.0))
        return gain

    def march_gain(self, sit: Situation, data: View) -> float:
        """What the best march plan into a forbidden area beats the best allowed one by."""
        if not self.bounds.no_march or self.character.scheming <= 0:
            return 0.0
        self.keep = False
        free = max(p[0] for a, i in data["marches"].items() for p in self.march_plans(sit, a, i))
        self.keep = True
        kept = max(p[0] for a, i in data["marches"].items() for p in self.march_plans(sit, a, i))
        return free - kept

    def march_ideas(self, sit: Situation, area: str) -> list[tuple[float, str, bool]]:
        """The baseline's march ideas, without those my deals forbid (unless I break them) and
        none from an area that is to give a promised support; those on an area where I was
        promised support count ``PROMISED_HELP`` higher."""
        helped = self.bounds.helped
        ideas = [
            (g + PROMISED_HELP if t in helped else g, t, c)
            for g, t, c in super().march_ideas(sit, area)
        ]
        if not self.keep:
            return ideas
        if self.owes_support_from(sit, area):
            return []
        return [i for i in ideas if i[1] not in self.bounds.no_march]

    def march_plans(
        self, sit: Situation, area: str, info: View, refused: Declined = ()
    ) -> list[tuple[float, ResolveMarch]]:
        """The baseline's march plans, without those my deals forbid (unless I break them);
        staying put is always left. A plan into an area where I was promised support counts
        ``PROMISED_HELP`` higher."""
        helped = self.bounds.helped
        plans = [
            (score + PROMISED_HELP * any(dst in helped for dst, _ in plan.moves), plan)
            for score, plan in super().march_plans(sit, area, info, refused)
        ]
        if not self.keep:
            return plans
        forbidden = self.bounds.no_march
        return [p for p in plans if not any(dst in forbidden for dst, _ in p[1].moves)]

    def order_ideas(
        self, sit: Situation, area: str, attacked: set[str]
    ) -> list[tuple[float, str, str, str, str | None]]:
        """The baseline's order ideas, and a Support order where I promised support (5.4.1)."""
        ideas = super().order_ideas(sit, area, attacked)
        if self.owes_support_from(sit, area):
            ideas.append((PROMISED_SUPPORT + sit.value(area), area, "support", "best", None))
        return ideas

    def owes_support_from(self, sit: Situation, area: str) -> bool:
        """Could my units in ``area`` give a support I promised (5.4.1: adjacent, and of a kind
        that may support there)?"""
        kinds = sit.rules.kind(area).supports
        return bool(sit.units(area)) and any(
            sit.rules.areas[target].kind in kinds and target in board.neighbours(sit.state, area)
            for target in self.bounds.support
        )

    def allowed_raids(self, data: View) -> dict[str, Any]:
        """The raid prompt's data without the targets my deals forbid (5.2: a Raid may always
        go without a target)."""
        raids = {
            a: {**r, "targets": [t for t in r["targets"] if t not in self.bounds.no_raid]}
            for a, r in data["raids"].items()
        }
        return {**data, "raids": raids}

    def promised_support(self, sit: Situation, data: View) -> Action:
        """Support (5.4.1): the side I promised, else the baseline's choice."""
        owed = self.bounds.support.get(data["area"])
        for side in (ATTACKER, DEFENDER):
            if owed is not None and data[side] == owed and side in data["options"]:
                return Choose(side)
        return self.declare_support(sit, data)
