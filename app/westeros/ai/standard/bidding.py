"""The Standard AI's Clash of Kings bids (RULES.md 3.6): each position on the track has a worth
(the Iron Throne's turn order and ties, the Fiefdoms' combat ties and Valyrian Steel Blade,
the King's Court's special orders and Messenger Raven, 3.6.1), each opponent is expected to
bid a share of the power it holds (public), and the bid is the one whose expected position is
worth most for its price, the price falling as the power I hold grows, plus a safety margin
that grows with the power left; some power is kept for the tracks still to come."""

from __future__ import annotations

from ...engine.actions import Action, Bid
from ..analysis import Situation
from ..baseline.bidding import BiddingPolicy
from ..baseline.policy import Data

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
POSITION_WORTH = {
    "iron_throne": (3.0, 1.6, 1.1, 0.7, 0.3, 0.0),
    "fiefdoms": (3.0, 2.0, 1.4, 0.8, 0.3, 0.0),
    "kings_court": (3.2, 2.6, 1.8, 0.6, 0.1, 0.0),
}
OPPONENT_SHARE = 0.35
"""Share of its power an opponent is expected to bid on one track."""
SAFETY = 0.2
"""Share of the power left to spend on this track added to a bid, against opponents bidding
more than expected: the more power I hold, the safer my bid."""
KEEP = {"iron_throne": 0.45, "fiefdoms": 0.3, "kings_court": 0.0}
"""Share of my power kept back for the tracks after this one."""


class StandardBidding(BiddingPolicy):
    """Clash of Kings bids by track value and power held (see module docstring)."""

    def bid(self, sit: Situation, data: Data) -> Action:
        """Clash of Kings (3.6): the bid with the best worth of its expected position minus
        its price (see module docstring)."""
        power = data["max"]
        track = data["track"]
        if power <= 0:
            return Bid(data["min"])
        s = sit.state
        others = sorted(
            (round(OPPONENT_SHARE * s.power[h]) for h in s.houses if h != sit.me), reverse=True
        )
        worth = POSITION_WORTH.get(track, POSITION_WORTH["iron_throne"])
        holder = s.tracks["iron_throne"][0] == sit.me  # the holder breaks ties (3.6.3)
        spend = power - int(KEEP.get(track, 0.3) * power)
        price = 1.2 / (1.0 + 0.25 * power) * (1.5 if s.threat >= 8 else 1.0)
        best = (float("-inf"), 0)
        for amount in range(data["min"], max(data["min"], spend) + 1):
            ahead = sum(1 for b in others if b > amount or (b == amount and not holder))
            score = worth[min(ahead, len(worth) - 1)] * self.personality.ambition
            score -= price * amount
            if score > best[0] + 1e-9:
                best = (score, amount)
        amount = best[1] + (round(SAFETY * (spend - best[1])) if best[1] else 0)
        return Bid(max(data["min"], min(power, amount)))
