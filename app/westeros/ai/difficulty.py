"""Difficulty levels of the strong AI (issue: "Easy, Normal, Hard by budget and policy").

A level fixes the *policy* (which decisions are searched, and how often an Easy AI errs) and
the *budget* as counts — candidate order sets and answers, simulated decisions per decision —
so a decision takes the same work, and gives the same answer for the same seed, on any machine.
``time_cap`` is only a safety net under heavy load: a search stops early, keeping the best
candidate found so far, once that share of the protocol's time budget is spent."""

from __future__ import annotations

import dataclasses

from ..engine.content import N_

MAX_HAND = 7


@dataclasses.dataclass(frozen=True, slots=True)
class Difficulty:
    """How much an AI searches (all counts are per decision).

    - ``order_candidates``: own order sets tried in the Planning phase (4); 0 plays the
      model policy without search;
    - ``action_candidates``: choices tried for a March, Raid, Consolidate Power or support
      decision (5.2-5.6); 0 plays the model policy;
    - ``samples``: determinizations per simulated choice (hidden decks, Tides of Battle);
    - ``card_game`` / ``bid_game``: solve house-card choice (5.4.3) and Clash of Kings bids
      (3.6) as simultaneous games; else the model policy decides;
    - ``steps``: most simulated decisions per decision (no new simulation starts after);
    - ``blunder``: share of decisions answered by a random legal choice instead;
    - ``time_cap``: share of the time budget after which a search stops (safety net);
    - ``learned``: score positions with the learned weights (``westeros.ai.learned``) for
      every house instead of the hand-set ones;
    - ``model``: the policy (``rollout.MODELS``: ``baseline`` or ``standard``) that makes the
      search's own candidate plans, predicts the other houses and plays the simulations, and
      answers the prompts the level does not search. Hard models the Standard AI: against
      five Standard seats it won 67.7 % of 300 games with it, 32.0 % of 300 with the baseline
      model (``benchmarks/ai_tournament.py``, hard-vs-standard);
    - ``read_opponents``: predict and simulate each other house with the model policy that
      has matched its revealed orders best (``opponents``), not always with ``model``."""

    id: str
    name: str
    order_candidates: int
    action_candidates: int
    samples: int
    card_game: bool
    bid_game: bool
    steps: int = 0
    blunder: float = 0.0
    time_cap: float = 0.6
    learned: bool = False
    model: str = "baseline"
    read_opponents: bool = False

    @property
    def simulations(self) -> int:
        """Most simulations one decision may run: every order candidate, every action candidate
        in every sample, or every pair of house cards (5.4.3: a hand holds at most the house's
        seven cards)."""
        orders = self.order_candidates
        actions = self.action_candidates * max(1, self.samples)
        cards = MAX_HAND * MAX_HAND if self.card_game else 0
        return max(orders, actions, cards)


EASY = Difficulty("easy", "Easy", 0, 0, 0, False, False, blunder=0.25)
NORMAL = Difficulty("normal", "Normal", 6, 4, 1, True, True, steps=1200)
HARD = Difficulty(
    "hard", "Hard", 20, 8, 2, True, True, steps=2400, model="standard", read_opponents=True
)
STANDARD = "standard"
"""The level id of Standard, the lightest search (``STANDARD_SEARCH``)."""
STANDARD_SEARCH = Difficulty(STANDARD, "Standard", 3, 2, 1, True, True, steps=400)
"""Standard (issue 36 point 3): Normal's search on the baseline policy with half its candidates
and a third of its simulated decisions. Against five sparring bots it won 19.5 % of 600 games
where the rule-based Standard AI won 14.2 % of 1,200 (docs/ai.md, session 31)."""
LEVELS: dict[str, Difficulty] = {d.id: d for d in (EASY, STANDARD_SEARCH, NORMAL, HARD)}
HARD_LEARNED = dataclasses.replace(HARD, id="hard-learned", name="Hard (learned)", learned=True)
"""Hard with the learned evaluation: measured in ``benchmarks/ai_tournament.py``
(hard-learned-vs-hard), not offered for seats until it is shown to play better than Hard
(300 games in session 11: 20.3 % [16.2, 25.2] against five Hard, whose fair share is 16.7 %;
the interval still holds the fair share, so it is not shown to help)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Level:
    """An AI level offered for AI seats: the id a seat records (``baseline`` or a
    ``Difficulty``), its name and a one-line description (both translatable)."""

    id: str
    name: str
    description: str


BASELINE = "baseline"
"""The level id of the baseline AI (``westeros.ai.baseline``), offered as Easy."""

BY_STRENGTH: tuple[Level, ...] = (
    Level(
        BASELINE,
        N_("Easy"),
        N_("Follows sound plans for every phase, without looking ahead."),
    ),
    Level(
        STANDARD,
        N_("Standard"),
        N_("Tries a few plans in short simulated games before it decides."),
    ),
    Level(
        "normal",
        N_("Normal"),
        N_("Tries several plans and answers in simulated games before it decides."),
    ),
    Level(
        "hard",
        N_("Hard"),
        N_("Simulates more plans and more games: the strongest AI, and the slowest."),
    ),
)
"""The levels offered, from the weakest to the strongest: Easy is the baseline policy, Standard
and Normal search on top of it (Standard with the smaller budget) and Hard, with the largest,
on top of the rule-of-thumb Standard AI's (``benchmarks/ai_tournament.py``: standard-vs-baseline,
normal-vs-standard, hard-vs-normal and the LEVEL-vs-sparring scenarios print the figures)."""

RETIRED: tuple[Level, ...] = (
    Level(
        "easy",
        N_("Easy"),
        N_("Plays the standard plans, but one decision in four is a random legal move."),
    ),
)
"""Levels no longer offered that stored games may still name: ``easy`` (the baseline policy
with a quarter of its decisions random, ``EASY``) keeps playing as it did."""

NAMED: tuple[Level, ...] = BY_STRENGTH + RETIRED
"""Every level a seat may record: offered or retired."""
