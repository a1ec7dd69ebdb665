"""The guided first game (issue 37 point 1): a real game of the engine on the prepared board of
``westeros.base.guide`` (Lannister for the person, Stark and Baratheon played by the passive
bot, so every answer of theirs is fixed), and its script: the step that fits the game's state.

A step names, click by click, the board element the person should use next (a CSS selector of
the real prompt's button) and says what it does and why, with its RULES.md section. The step
is derived from the state alone (the person's open decision and the round), so a guided game
left and continued later resumes at the right step; ``frontend/static/js/guide.js`` shows it.
A click whose ``done`` selector matches (or whose input shows ``equals``) is behind the person;
an ``ack`` click is an explanation the guide's own *Next* button closes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from westeros.ai.seats import GUIDE_LEVEL
from westeros.base.guide import GUIDE, HOUSE, PLAYERS
from westeros.engine import State, pending
from westeros.session import GameSession

from .games import Games
from .i18n import N_

SEED = 37
"""The guided game's fixed seed."""
NEXT = "#guide-next"
"""The guide box's own *Next* button (explanations)."""
COMMIT = '#prompt [data-testid="commit"]'
"""The main button of the open decision."""
NUMBER = '#prompt [data-testid="number"]'
MORE = "#prompt .number-picker button:last-of-type"
"""The "+" of a bid."""

TOPICS = (
    ("orders", N_("Placing orders")),
    ("raid", N_("A raid")),
    ("march", N_("A march")),
    ("support", N_("Support")),
    ("combat", N_("A combat with house cards")),
    ("consolidate", N_("Consolidating power")),
    ("westeros", N_("Westeros cards")),
    ("mustering", N_("Mustering")),
    ("clash", N_("A Clash of Kings bid")),
    ("wildlings", N_("The wildlings")),
)
"""The ten topics of the guide, in the order the game reaches them (issue 37 point 1)."""

LABELS = {
    "title": N_("Guided first game"),
    "next": N_("Next"),
    "leave": N_("Leave the guide"),
    "complete": N_("Guided game complete"),
}
"""The guide box's own words."""


@dataclasses.dataclass(frozen=True, slots=True)
class Click:
    """One thing to do: use ``target``, told why by ``text`` (``topic`` is the one it teaches).
    It is done once ``done`` matches an element, or once the input ``value_of`` shows
    ``equals``; an ``ack`` click is an explanation (``target`` is the guide's *Next*), with
    ``spot`` outlined as what it explains."""

    target: str
    text: str
    topic: str
    done: str = ""
    value_of: str = ""
    equals: str = ""
    ack: bool = False
    spot: str = ""

    def message(self, gettext: Callable[[str], str]) -> dict[str, Any]:
        """The click as guide.js reads it, its text in ``gettext``'s language."""
        ids = [t for t, _ in TOPICS]
        progress = ""
        if self.topic in ids:
            progress = gettext(N_("Topic %(n)s of %(total)s: %(name)s")) % {
                "n": ids.index(self.topic) + 1,
                "total": len(ids),
                "name": gettext(dict(TOPICS)[self.topic]),
            }
        return {
            "target": self.target,
            "text": gettext(self.text),
            "progress": progress,
            "topic": self.topic,
            "done": self.done,
            "value_of": self.value_of,
            "equals": self.equals,
            "ack": self.ack,
            "spot": self.spot,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """The guide at one decision (or pause) of the game: its ``clicks`` in order and the
    RULES.md section it explains; ``complete`` once the guided part of the game is over."""

    id: str
    rule: str
    clicks: tuple[Click, ...] = ()
    text: str = ""
    complete: bool = False

    def message(self, gettext: Callable[[str], str]) -> dict[str, Any]:
        """The step as guide.js reads it (``GET /games/{id}/guide/{house}``)."""
        return {
            "guide": True,
            "step": self.id,
            "rule": self.rule,
            "text": gettext(self.text) if self.text else "",
            "complete": self.complete,
            "clicks": [c.message(gettext) for c in self.clicks],
            "labels": {key: gettext(text) for key, text in LABELS.items()},
        }


def _ack(text: str, topic: str, spot: str = "") -> Click:
    return Click(NEXT, text, topic, ack=True, spot=spot)


def _pressed(testid: str) -> str:
    return f'[data-testid="{testid}"][aria-pressed="true"]'


def _order(area: str, token: str, text: str) -> tuple[Click, Click]:
    """Choose ``area`` in the order list, then put ``token`` there."""
    placed = f'[data-testid="token-{token}"].is-used'
    return (
        Click(
            f'[data-testid="order-area-{area}"]',
            text,
            "orders",
            done=f'.order-row.is-selected[data-area="{area}"], {placed}',
        ),
        Click(f'[data-testid="token-{token}"]', text, "orders", done=placed),
    )


ORDERS = Step(
    "orders",
    "4.1",
    (
        _ack(
            N_(
                "Welcome to Westeros! You play House Lannister, against Stark and "
                "Baratheon. This guide points at what to do next and says why; every button "
                "is the real game's. Each round has a Westeros phase (skipped in round 1), a "
                "Planning phase and an Action phase. First, the Planning phase: you give an "
                "order to every area where you have units (RULES.md 4.1)."
            ),
            "orders",
            spot="#prompt",
        ),
        *_order(
            "lannisport",
            "march+0",
            N_(
                "Lannisport: choose the area, then the March +0 order. A March order moves "
                "the knight and footman there; next to Lannisport, Stark's footman holds "
                "Riverrun, a castle worth taking (RULES.md 4.2, 5.3)."
            ),
        ),
        *_order(
            "stoney-sept",
            "support+0",
            N_(
                "Stoney Sept: a Support order. Its footman cannot march with the others, but "
                "from here it adds its strength to a combat in an area next to it, Riverrun "
                "(RULES.md 5.4.1)."
            ),
        ),
        *_order(
            "the-golden-sound",
            "raid+0",
            N_(
                "The Golden Sound: a Raid order. Your ship will remove an enemy order next to "
                "it before any march happens (RULES.md 5.2)."
            ),
        ),
        *_order(
            "harrenhal",
            "consolidate_power+0",
            N_(
                "Harrenhal: Consolidate Power. At the end of the Action phase it brings power "
                "tokens: one, plus one for each crown in the area (RULES.md 5.6)."
            ),
        ),
        Click(
            COMMIT,
            N_(
                "Commit your orders. The other houses place theirs in secret too; then all "
                "are revealed at once (RULES.md 4.1)."
            ),
            "orders",
        ),
    ),
)

RAID = Step(
    "raid",
    "5.2",
    (
        Click(
            '[data-testid="raid-the-golden-sound"]',
            N_(
                "The Action phase begins with raids, in Iron Throne order. Choose your Raid "
                "order in the Golden Sound (RULES.md 5.2)."
            ),
            "raid",
            done=_pressed("raid-the-golden-sound"),
        ),
        Click(
            '[data-testid="raid-target-searoad-marches"]',
            N_(
                "Baratheon put a Consolidate Power order in the Searoad Marches. Raiding it "
                "removes it, and takes one of Baratheon's power tokens for you (RULES.md 5.2.2)."
            ),
            "raid",
            done=_pressed("raid-target-searoad-marches"),
        ),
        Click(COMMIT, N_("Raid!"), "raid"),
    ),
)

MARCH = Step(
    "march",
    "5.3",
    (
        Click(
            '[data-testid="march-origin-lannisport"]',
            N_("Next come the marches. Choose your March order in Lannisport (RULES.md 5.3)."),
            "march",
            done='[data-testid="march-unit-0"]',
        ),
        Click(
            '[data-testid="march-unit-0"]',
            N_("Select the units that march: this one…"),
            "march",
            done=f'{_pressed("march-unit-0")}, .march-group[data-to="riverrun"]',
        ),
        Click(
            '[data-testid="march-unit-1"]',
            N_("…and this one: both go together."),
            "march",
            done=f'{_pressed("march-unit-1")}, .march-group[data-to="riverrun"]',
        ),
        Click(
            '[data-testid="march-dest-riverrun"]',
            N_(
                "Send them to Riverrun. Marching into an area with enemy units starts a combat "
                "(RULES.md 5.3.5)."
            ),
            "march",
            done='.march-group[data-to="riverrun"]',
        ),
        Click(
            COMMIT,
            N_(
                "March. Lannisport is left empty; a power token could keep it yours, but your "
                "units will be close by (RULES.md 5.3.9)."
            ),
            "march",
        ),
    ),
)

COMBAT = Step(
    "combat",
    "5.4",
    (
        _ack(
            N_(
                "Combat in Riverrun! First each side counts its support: your footman in Stoney "
                "Sept adds its strength to your attack, because its Support order is next to "
                "Riverrun. Your knight counts 2, each footman 1 (RULES.md 5.4.1-5.4.2)."
            ),
            "support",
            spot="#prompt",
        ),
        Click(
            '[data-testid="card-tywin-lannister"]',
            N_(
                "Now both sides choose a house card in secret. Tywin Lannister adds 4 to your "
                "strength and gives you two power tokens if you win (RULES.md 5.4.3)."
            ),
            "combat",
            done='[data-testid="card-tywin-lannister"][aria-checked="true"]',
        ),
        Click(
            COMMIT,
            N_(
                "Play the card. The higher total strength wins; the loser takes casualties and "
                "retreats, and a played card stays used until you have played them all "
                "(RULES.md 5.4.9)."
            ),
            "combat",
        ),
    ),
)

CONSOLIDATE = Step(
    "consolidate",
    "5.6",
    (
        Click(
            '[data-testid="consolidate-area-harrenhal"]',
            N_(
                "Last, Consolidate Power: choose Harrenhal. Power tokens pay for bids and keep "
                "areas you leave (RULES.md 5.6)."
            ),
            "consolidate",
            done=_pressed("consolidate-area-harrenhal"),
        ),
        Click(COMMIT, N_("Collect the power tokens."), "consolidate"),
    ),
)

MUSTER_FIRST = Step(
    "muster-harrenhal",
    "3.4",
    (
        _ack(
            N_(
                "Round 2 begins with the Westeros phase: one card from each of the three "
                "Westeros decks, resolved in order. This round: Mustering, Clash of Kings and "
                "Wildlings Attack (RULES.md 3.2)."
            ),
            "westeros",
            spot="#westeros",
        ),
        Click(
            '[data-testid="muster-footman"]',
            N_(
                "Mustering: each castle gives 1 mustering point, each stronghold 2. Recruit a "
                "footman (1 point) in Harrenhal (RULES.md 3.5)."
            ),
            "mustering",
        ),
    ),
)

MUSTER_LANNISPORT = Step(
    "muster-lannisport",
    "3.5",
    (
        Click(
            '[data-testid="muster-knight"]',
            N_(
                "Lannisport is a stronghold: 2 points, enough for a knight. Your supply limits "
                "how large your armies may be (RULES.md 3.5.2, 8.1)."
            ),
            "mustering",
        ),
    ),
)

MUSTER_DONE = Step(
    "muster-done",
    "3.5",
    (
        Click(
            COMMIT,
            N_(
                "You may also muster in Riverrun, but let's keep the power for the bids: "
                "choose Done mustering."
            ),
            "mustering",
        ),
    ),
)

BID_THRONE = Step(
    "bid-iron_throne",
    "3.6",
    (
        _ack(
            N_(
                "Clash of Kings: the houses bid power tokens for each influence track in turn. "
                "The Iron Throne decides turn order and ties, the Fiefdoms track wins ties in "
                "combat, the King's Court track gives starred orders and the Messenger Raven "
                "(RULES.md 3.6)."
            ),
            "clash",
            spot="#tracks",
        ),
        Click(
            COMMIT,
            N_("Bid nothing for the Iron Throne: keep your tokens for the King's Court."),
            "clash",
        ),
    ),
)

BID_FIEFDOMS = Step(
    "bid-fiefdoms",
    "3.6",
    (Click(COMMIT, N_("Bid nothing for the Fiefdoms track either."), "clash"),),
)

BID_COURT = Step(
    "bid-kings_court",
    "3.6",
    (
        Click(
            MORE,
            N_(
                "For the King's Court, raise your bid to 2 with +. Bids are secret; the "
                "highest takes first place, and bid tokens are lost (RULES.md 3.6.2)."
            ),
            "clash",
            value_of=NUMBER,
            equals="2",
        ),
        Click(COMMIT, N_("Bid 2."), "clash"),
    ),
)

WILDLINGS = Step(
    "wildlings",
    "7",
    (
        Click(
            MORE,
            N_(
                "The wildlings attack with the strength of the wildling track, 2. Together "
                "the houses must bid at least that much, or the lowest bidder suffers. Raise "
                "your bid to 2 (RULES.md 7.2)."
            ),
            "wildlings",
            value_of=NUMBER,
            equals="2",
        ),
        Click(
            COMMIT,
            N_(
                "Bid 2. If the Night's Watch wins, the highest bidder gets the card's reward "
                "(RULES.md 7.3)."
            ),
            "wildlings",
        ),
    ),
)

WAIT = Step("wait", "", text=N_("The other houses are deciding…"))
OTHER = Step(
    "other",
    "",
    (Click(COMMIT, N_("Decide as you like: this question is not part of the guide."), ""),),
)
COMPLETE = Step(
    "complete",
    "",
    text=N_(
        "You have completed the guided first game: orders, raids, marches, support, combat, "
        "power, Westeros cards, bids, mustering and the wildlings. Play on from here, or leave "
        "the guide and start a game of your own from the start screen."
    ),
    complete=True,
)

BY_KIND = {
    "place_orders": ORDERS,
    "raid": RAID,
    "march": MARCH,
    "choose_house_card": COMBAT,
    "consolidate_power": CONSOLIDATE,
    "wildling_bid": WILDLINGS,
}
MUSTER_BY_AREA = {"harrenhal": MUSTER_FIRST, "lannisport": MUSTER_LANNISPORT}
BID_BY_TRACK = {"iron_throne": BID_THRONE, "fiefdoms": BID_FIEFDOMS, "kings_court": BID_COURT}
STEPS = (
    ORDERS,
    RAID,
    MARCH,
    COMBAT,
    CONSOLIDATE,
    MUSTER_FIRST,
    MUSTER_LANNISPORT,
    MUSTER_DONE,
    BID_THRONE,
    BID_FIEFDOMS,
    BID_COURT,
    WILDLINGS,
)
"""The guide's steps with something to do, in the order the guided game reaches them."""


def is_guide(state: State) -> bool:
    """Is ``state`` a guided first game?"""
    return bool(state.options.get(GUIDE))


def step_for(state: State, house: str) -> Step:
    """The guide's step for ``house`` in ``state``: from its open decision and the round."""
    if state.winner is not None or state.round > 2:
        return COMPLETE
    prompt = pending(state).get(house)
    if prompt is None:
        return WAIT
    if state.round == 2 and prompt.kind == "place_orders":
        return COMPLETE
    if prompt.kind == "muster":
        return MUSTER_BY_AREA.get(str(prompt.data.get("area")), MUSTER_DONE)
    if prompt.kind == "bid":
        return BID_BY_TRACK.get(str(prompt.data.get("track")), OTHER)
    return BY_KIND.get(prompt.kind, OTHER)


def create(games: Games, name: str) -> GameSession:
    """Store and start a new guided first game called ``name``."""
    return games.create(
        players=PLAYERS,
        human=HOUSE,
        seed=SEED,
        options={GUIDE: True},
        ai_level=GUIDE_LEVEL,
        name=name,
    )
