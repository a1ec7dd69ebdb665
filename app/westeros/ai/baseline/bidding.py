"""The baseline AI's bids: Clash of Kings (RULES.md 3.6), wildling attacks (7.2) and ties."""

from __future__ import annotations

import math

from ...engine.actions import Action, Bid
from ...engine.bidding import TrackOrder
from ..analysis import Situation
from .policy import BID_SHARE, CALM_WILDLING_CARDS, Data, Policy


class BiddingPolicy(Policy):
    """Bidding (3.6, 7.2): a share of the power, more where the track matters most."""

    def bid(self, sit: Situation, data: Data) -> Action:
        """Clash of Kings (3.6): a share of the available power, more on King's Court and the
        Iron Throne; the whole track for one more than anyone else can bid when that is cheap."""
        power = data["max"]
        if power <= 0:
            return Bid(0)
        others = [sit.state.power[h] for h in sit.state.houses if h != sit.me]
        richest = max(others, default=0)
        reserve = 2 if sit.state.threat >= 8 else 0
        spend = max(0, power - reserve)
        share = BID_SHARE.get(data["track"], 0.3) * self.personality.ambition
        amount = round(spend * share)
        if richest == 0:
            amount = 1
        elif richest + 1 <= 0.6 * spend:
            amount = richest + 1
        return Bid(max(data["min"], min(power, amount)))

    def wildling_bid(self, sit: Situation, data: Data) -> Action:
        """Wildling attack (7.2): a fair share of the attack's strength when the Night's Watch
        can win, a token not to be the lowest bidder when it cannot; nothing when the top card
        is known to be harmless."""
        power = data["max"]
        strength = data["strength"]
        if power <= 0 or strength <= 0 or sit.view.get("wildling_top") in CALM_WILDLING_CARDS:
            return Bid(0)
        houses = sit.state.houses
        total = sum(sit.state.power[h] for h in houses)
        if total < strength:
            return Bid(min(power, 1))
        fair = math.ceil(strength / len(houses))
        return Bid(min(power, fair + (1 if power >= fair + 4 else 0)))

    def order_ties(self, sit: Situation, data: Data) -> Action:
        """Ties on a track (3.6.3): myself first, then the houses with the fewest castles."""
        order: list[str] = []
        for group in data["groups"]:
            order.extend(
                sorted(group["houses"], key=lambda h: (h != sit.me, sit.castles.get(h, 0), h))
            )
        return TrackOrder(tuple(order))
