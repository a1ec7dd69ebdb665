"""Deals at the table (issue 15 point 4): six-player AI-only games of the deal-aware baseline
AI (``westeros.ai.deals.DealBot``), one seat per personality (the four of the bundled plugin,
the balanced default twice), seats rotated game by game, played once with talks before every
Planning phase and once without, on the same seeds.

Prints, per personality: deals proposed, proposals accepted (as recipient), deals made, deals
kept and broken by it, deals others broke with it, and its wins with deals on and off; then the
totals, the deals by term kind, the offers (counters included) by their terms, the offers that
bind only the other house (issue 36 point 5: must be 0) and illegal actions (must be 0). A
support promise for a combat that never happened counts as kept; the support promises honoured
by an actual declaration are printed apart. Prints figures; asserts nothing.

    python benchmarks/deals.py [--games N]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter, defaultdict

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

import westeros_ai_personalities.plugin as personalities_plugin
from westeros.ai.deals import DealBot
from westeros.ai.deals_table import DealGame, play
from westeros.ai.personality import BALANCED, AIPersonality
from westeros.deals import ACCEPT, BROKEN, KEPT, binds
from westeros.deals.book import SUPPORT
from westeros.deals.terms import TERMS, SupportPromise
from westeros.plugins import build_ruleset

SEED_BASE = 20_000
STYLES: tuple[AIPersonality, ...] = (*personalities_plugin.PERSONALITIES, BALANCED, BALANCED)
COLUMNS = ("proposed", "accepted", "deals", "kept", "broke", "wronged", "wins on", "wins off")


def seating(game: int) -> list[AIPersonality]:
    """The personalities in setup house order for game ``game`` (rotated by one each game)."""
    k = game % len(STYLES)
    return [*STYLES[k:], *STYLES[:k]]


def tally(
    game: DealGame,
    styles: list[AIPersonality],
    counts: dict[str, Counter[str]],
    kinds: Counter[str],
) -> None:
    """Add the deal figures of ``game`` to ``counts`` (by personality id) and ``kinds`` (deals
    and broken deals by term kind)."""
    style = dict(zip(game.seats, (p.id for p in styles), strict=True))
    book = game.book
    for proposal in book.proposals.values():
        counts[style[proposal.proposer]]["proposed"] += 1
        kinds["offer " + " + ".join(t.kind for t in proposal.terms)] += 1
        kinds["one-sided"] += not binds(proposal.terms, proposal.proposer)
        reply = book.replies.get(proposal.id)
        if reply is not None and reply.answer == ACCEPT:
            counts[style[proposal.recipient]]["accepted"] += 1
    verdicts = book.verdicts(game.rounds + 1)
    for deal in book.deals.values():
        verdict = verdicts[deal.id]
        for term in deal.terms:
            kinds[term.kind] += 1
            kinds[f"{term.kind} broken"] += verdict.status == BROKEN
            if isinstance(term, SupportPromise):
                given = (SUPPORT, term.giver, term.round, term.area, term.receiver)
                kinds["support given"] += any(
                    (a.kind, a.house, a.round, a.target, a.other) == given for a in book.acts
                )
        for house in deal.houses:
            counts[style[house]]["deals"] += 1
            if verdict.status == BROKEN and verdict.breaker == house:
                counts[style[house]]["broke"] += 1
            elif verdict.status == BROKEN:
                counts[style[house]]["wronged"] += 1
            elif verdict.status == KEPT:
                counts[style[house]]["kept"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="games with deals and without")
    args = parser.parse_args()
    rules = build_ruleset()
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    kinds: Counter[str] = Counter()
    illegal = 0
    seconds: dict[str, float] = {}
    for deals in (True, False):
        started = time.perf_counter()
        for game in range(args.games):
            styles = seating(game)
            seed = SEED_BASE + game
            bots = [DealBot(seed * 10 + k, p) for k, p in enumerate(styles)]
            result = play(rules, bots, seed, deals=deals)
            illegal += result.illegal
            if deals:
                tally(result, styles, counts, kinds)
            if result.winner is not None:
                winner = styles[list(result.seats).index(result.winner)]
                counts[winner.id]["wins on" if deals else "wins off"] += 1
        seconds["on" if deals else "off"] = time.perf_counter() - started
    seats = {p.id: STYLES.count(p) * args.games for p in STYLES}
    print(f"deals benchmark: {args.games} six-player games with deals, {args.games} without")
    print(f"{'personality':14}" + "".join(f"{c:>10}" for c in COLUMNS) + f"{'seats':>8}")
    for pid in seats:
        row = counts[pid]
        print(f"{pid:14}" + "".join(f"{row[c]:>10}" for c in COLUMNS) + f"{seats[pid]:>8}")
    total = sum((counts[p] for p in seats), Counter())
    print(f"{'total':14}" + "".join(f"{total[c]:>10}" for c in COLUMNS))
    print(
        "deals by term: "
        + ", ".join(f"{k} {kinds[k]} (broken {kinds[k + ' broken']})" for k in sorted(TERMS))
    )
    print(f"support promises honoured by a declared support: {kinds['support given']}")
    offers = sorted(k for k in kinds if k.startswith("offer "))
    print("offers by terms: " + ", ".join(f"{k.removeprefix('offer ')} {kinds[k]}" for k in offers))
    print(f"offers binding only the other house: {kinds['one-sided']}")
    print(f"illegal actions: {illegal}")
    print(f"seconds: with deals {seconds['on']:.1f}, without {seconds['off']:.1f}")


if __name__ == "__main__":
    main()
