"""What the in-app "How to play" explains: each phase of a round (RULES.md 3-5), each order
type (1.4, 5.2-5.6) and each track (1.6-1.9), in plain words, then the plugins' own sections
(``register_help_sections``: an expansion's rules), and the card reference (every house,
Westeros and wildling card of the loaded content, 1.11, the plugins' decks labelled).

The texts are gettext literals (``N_``) translated where they are shown (``help_body.html``).
Phase, order and track names are the board's own catalog entries: order types and influence
tracks come from ``narrate`` (the names the log and the board use), the phases are the steps
``engine.round.Round`` queues. Each topic may name the board element it explains (``show``,
a CSS selector on the board page), which ``frontend/static/js/help.js`` highlights."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from westeros.engine import Ruleset
from westeros.engine.action_phase import ActionPhase
from westeros.engine.content import N_, HouseCard, ReferenceCard
from westeros.engine.flow import Step
from westeros.engine.planning import PlanningPhase
from westeros.engine.round import CleanUp
from westeros.engine.state import TRACKS
from westeros.engine.westeros_phase import WesterosPhase
from westeros.help import HelpDeck, HelpSection, HelpTopic

from .narrate import ORDER_TYPES, TRACK_NAMES

PHASE_STEPS: dict[str, type[Step]] = {
    "westeros": WesterosPhase,
    "planning": PlanningPhase,
    "action": ActionPhase,
    "clean_up": CleanUp,
}
"""The phases by help id: the steps ``engine.round.Round`` queues for a round (3.1)."""

PHASES = (
    HelpTopic(
        "westeros",
        N_("Westeros phase"),
        "3.2",
        (
            N_(
                "Every round but the first starts here. The top card of each of the three "
                "Westeros decks (I, II and III) is revealed; the cards are shown in the "
                "Westeros panel."
            ),
            N_(
                "Deck I brings Supply, Mustering and A Throne of Blades; deck II Game of "
                "Thrones, Clash of Kings and Dark Wings, Dark Words; deck III the cards that "
                "forbid an order type this round, Put to the Sword and Wildlings Attack."
            ),
        ),
        (
            N_("The round marker moves on by one."),
            N_(
                "One card of each deck is revealed. Winter is Coming shuffles its deck and "
                "another card of that deck is revealed instead."
            ),
            N_(
                "Every wildling icon on the revealed cards raises the wildling threat by 2. "
                "At 12 the wildlings attack at once."
            ),
            N_("The cards are resolved in deck order: I, then II, then III."),
        ),
        "#westeros",
    ),
    HelpTopic(
        "planning",
        N_("Planning phase"),
        "4",
        (
            N_(
                "Every house secretly puts one order token face down in each area that holds "
                "its units. Your starred orders are limited by your place on the King's Court "
                "track, and this round's Westeros cards may forbid some orders."
            ),
        ),
        (
            N_("Place your orders and commit them."),
            N_("When every house has committed, all orders are revealed together."),
            N_(
                "The holder of the Messenger Raven may then swap one of its orders for an "
                "unused one, or look at the top wildling card and keep it on top or put it at "
                "the bottom of the deck."
            ),
        ),
        "#map",
    ),
    HelpTopic(
        "action",
        N_("Action phase"),
        "5.1",
        (
            N_(
                "The revealed orders are carried out in three rounds of their own. In each, "
                "the houses take turns in Iron Throne order, each resolving one of its orders "
                "of that kind, until none is left."
            ),
        ),
        (
            N_("Raid orders are resolved."),
            N_(
                "March orders are resolved; a march into an enemy area or a neutral force "
                "starts a combat."
            ),
            N_("Consolidate Power orders are resolved."),
        ),
        "#map",
    ),
    HelpTopic(
        "clean_up",
        N_("Clean Up"),
        "5.7",
        (
            N_(
                "Every order left on the board is removed, routed units recover, and the "
                "Valyrian Steel Blade and the Messenger Raven can be used again. The game ends "
                "after the Clean Up of round 10."
            ),
        ),
        (),
        "[data-testid=round-track]",
    ),
)

COMBAT = HelpTopic(
    "combat",
    N_("Combat"),
    "5.4",
    (
        N_(
            "The marching house is the attacker; the house that holds the area is the "
            "defender. A tie goes to the house higher on the Fiefdoms track."
        ),
    ),
    (
        N_("Call for support: adjacent Support orders may add their strength to either side."),
        N_(
            "Each side counts its strength: its units, its order bonus, its support and, for "
            "the defender, a garrison."
        ),
        N_("Both sides choose a house card in secret; the cards are revealed together."),
        N_("The cards' abilities are resolved; the Valyrian Steel Blade may add 1."),
        N_(
            "The higher total wins. The loser destroys one unit for each sword of the winner "
            "beyond its own fortifications, then retreats; retreating units are routed."
        ),
    ),
    "#combat",
)

ORDER_TEXTS: dict[str, tuple[tuple[str, ...], str]] = {
    "march": (
        (
            N_(
                "Move any of the units in the area into adjacent areas; land units may cross "
                "seas where your ships form a chain. One move may enter an area with enemy "
                "units, which starts a combat."
            ),
            N_(
                "The order's bonus (-1, +0, or +1 on the starred one) adds to your strength "
                "when you attack. When every unit leaves a land area you may leave a power "
                "token there to keep it."
            ),
        ),
        "5.3",
    ),
    "defense": (
        (
            N_(
                "Adds its bonus (+1, or +2 on the starred one) to your strength when the area "
                "is attacked. It does nothing else."
            ),
        ),
        "5.4.2",
    ),
    "support": (
        (
            N_(
                "The units of the area lend their strength (and the order's bonus: +0, or +1 "
                "on the starred one) to a combat in an adjacent area, to either side. You "
                "choose whom you support; you never support against yourself."
            ),
        ),
        "5.4.1",
    ),
    "raid": (
        (
            N_(
                "Removes one enemy Support, Raid or Consolidate Power order in an adjacent "
                "area; the starred Raid may remove a Defense order too. A March order can "
                "never be raided."
            ),
            N_(
                "Raiding a Consolidate Power order takes one power token from its owner and "
                "gives you one."
            ),
        ),
        "5.2",
    ),
    "consolidate_power": (
        (
            N_(
                "Gains power tokens: one, plus one for each crown in the area (none at sea). "
                "A starred one in an area with a castle or stronghold may muster new units "
                "there instead."
            ),
        ),
        "5.6",
    ),
}
"""What each base order type does, and its RULES.md section."""

SPECIAL_ORDERS = HelpTopic(
    "special",
    N_("Special orders"),
    "1.4.1",
    (
        N_(
            "Each house has 15 order tokens; five of them carry a star and are stronger: "
            "March +1, Defense +2, Support +1, the starred Raid and the starred Consolidate "
            "Power."
        ),
        N_(
            "How many starred orders you may place in a round depends on your place on the "
            "King's Court track, shown by the stars beside it."
        ),
    ),
    (),
    "[data-track=kings_court], #map .w-order:has(.w-order-star), "
    '#prompt .token-button[data-token$="*"]',
)

UNKNOWN_ORDER = N_("An order a game extension adds; the board shows what it does.")

TRACK_TOPICS: dict[str, tuple[tuple[str, ...], str]] = {
    "iron_throne": (
        (
            N_(
                "Turn order: the houses resolve their orders in this order. The first house "
                "holds the Iron Throne token and breaks every tie that is not a combat."
            ),
        ),
        "1.6.2",
    ),
    "fiefdoms": (
        (
            N_(
                "Wins tied combats for the house placed higher. The first house holds the "
                "Valyrian Steel Blade: once a round it may add 1 to its strength in a combat."
            ),
        ),
        "1.6.2",
    ),
    "kings_court": (
        (
            N_(
                "Limits how many starred orders each house may place. The first house holds "
                "the Messenger Raven: after the orders are revealed it may swap one of its "
                "orders or look at the top wildling card."
            ),
        ),
        "1.6.3",
    ),
}
"""What each influence track does (the Clash of Kings bids rebuild them, 3.6)."""

OTHER_TRACKS = (
    HelpTopic(
        "supply",
        N_("Supply"),
        "1.7",
        (
            N_(
                "Your supply position is the number of barrels in the areas you control (at "
                "most 6). It limits how many armies of two or more units you may have, and how "
                "large. It moves only when a Supply card is resolved."
            ),
        ),
        (),
        '#tracks .scale:has(use[href="#icon-barrel"])',
    ),
    HelpTopic(
        "victory",
        N_("Victory (castles)"),
        "9",
        (
            N_(
                "Counts the areas with a castle or stronghold each house controls. A house "
                "that controls 7 wins at once; otherwise the most after round 10 wins (ties: "
                "most land areas, then supply, then power tokens, then the Iron Throne track)."
            ),
        ),
        (),
        '#tracks .scale:has(use[href="#icon-castle"])',
    ),
    HelpTopic(
        "wildlings",
        N_("Wildling threat"),
        "7",
        (
            N_(
                "Starts at 2 and rises by 2 for each wildling icon on the revealed Westeros "
                "cards. When it reaches 12, or a Wildlings Attack card comes up, every house "
                "bids power tokens in secret."
            ),
            N_(
                "If the bids add up to the threat or more, the Night's Watch wins: the highest "
                "bidder gets the card's reward and the threat drops to 0. Otherwise the "
                "wildlings win: the lowest bidder and then everyone else suffer the card's "
                "penalty, and the threat drops by 4."
            ),
        ),
        (),
        "[data-testid=wildling-track]",
    ),
    HelpTopic(
        "round",
        N_("Round"),
        "1.9",
        (N_("The game lasts at most 10 rounds; the marker shows the current one."),),
        (),
        "[data-testid=round-track]",
    ),
)

POWER = HelpTopic(
    "power",
    N_("Power tokens"),
    "1.5",
    (
        N_(
            "Power tokens are spent on bids (Clash of Kings and the wildlings) and left on the "
            "board to keep control of an area you leave. You gain them with Consolidate Power "
            "orders, Game of Thrones and raids. The houses panel shows how many each house has."
        ),
    ),
    (),
    "#houses",
)


def order_types(rules: Ruleset) -> list[str]:
    """The order types of the content's order tokens, in the order they first appear."""
    return list(dict.fromkeys(t.type for t in rules.order_tokens.values()))


def order_topics(rules: Ruleset) -> list[HelpTopic]:
    """One topic per order type of the content (1.4), then the starred orders."""
    topics = []
    for kind in order_types(rules):
        paragraphs, rule = ORDER_TEXTS.get(kind, ((UNKNOWN_ORDER,), "1.4"))
        title = ORDER_TYPES.get(kind, kind.replace("_", " ").capitalize())
        show = f"#map .w-order.order-{kind}, #prompt .token-button:has(.order-{kind})"
        topics.append(HelpTopic(kind, title, rule, paragraphs, show=show))
    return [*topics, SPECIAL_ORDERS]


def track_topics() -> list[HelpTopic]:
    """The influence tracks (``engine.state.TRACKS``), then supply, victory, wildlings, round."""
    influence = [
        HelpTopic(
            t, TRACK_NAMES[t], TRACK_TOPICS[t][1], TRACK_TOPICS[t][0], show=f"[data-track={t}]"
        )
        for t in TRACKS
    ]
    return [*influence, *OTHER_TRACKS, POWER]


def sections(
    rules: Ruleset,
    extra: Sequence[HelpSection] = (),
    options: Mapping[str, Any] | None = None,
    houses: Collection[str] | None = None,
) -> list[dict[str, Any]]:
    """The help's sections in reading order: {"id", "title", "topics"}: the game's own, then
    the plugins' (``extra``, ``register_help_sections``). With a game's ``options`` and
    ``houses`` only the plugins' topics of that game are shown, each replacing topic in the
    place of the one it replaces; without (the start screen) every plugin topic but those."""
    game = options is not None and houses is not None
    shown = {s.id: [t for t in s.topics if t.applies(options, houses)] for s in extra}
    replacing = {t.replaces: t for ts in shown.values() for t in ts if t.replaces and game}
    own: list[tuple[str, str, list[HelpTopic]]] = [
        ("phases", N_("The round"), [*PHASES, COMBAT]),
        ("orders", N_("Orders"), order_topics(rules)),
        ("tracks", N_("Tracks"), track_topics()),
    ]
    base = [
        {"id": i, "title": title, "topics": [replacing.get(t.id, t) for t in topics]}
        for i, title, topics in own
    ]
    plugins = [
        {"id": s.id, "title": s.title, "topics": [t for t in shown[s.id] if not t.replaces]}
        for s in extra
    ]
    return base + [p for p in plugins if p["topics"]]


def house_cards_of(rules: Ruleset, house: str) -> list[HouseCard]:
    """A house's cards, strongest first (8.2)."""
    return strongest_first([c for c in rules.house_cards.values() if c.house == house])


def strongest_first(cards: Sequence[HouseCard]) -> list[HouseCard]:
    """House cards strongest first, then by name (8.2)."""
    return sorted(cards, key=lambda c: (-c.strength, c.name))


def deck_entry(deck: HelpDeck, rules: Ruleset | None = None) -> dict[str, Any]:
    """A labelled deck as the card reference lists it: {"id", "title", "cards"}, its cards as
    ``rules`` has them (None: as the plugin registered them)."""
    cards = list(deck.cards)
    if rules is not None:
        cards = [rules.house_cards[c.id] for c in cards if c.id in rules.house_cards]
    return {"id": deck.id, "title": deck.title, "cards": strongest_first(cards)}


def card_reference(
    rules: Ruleset,
    others: Sequence[ReferenceCard] = (),
    decks: Sequence[HelpDeck] = (),
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Every card of the content (1.11): house cards by house (``decks``: the plugins' labelled
    decks, e.g. a house's second deck, listed under their titles; those of no house in
    ``rules``, e.g. a deck shared by houses without a player, after the houses when their
    option is on in ``options``), Westeros cards by deck, wildling cards, then the plugins'
    other decks (``others``, e.g. Tides of Battle, 10.1); names and texts as English gettext
    messages."""
    labelled = [
        entry
        for deck in decks
        if options is None or not deck.option or options.get(deck.option)
        if (entry := deck_entry(deck, rules))["cards"]
    ]
    houses = []
    for house in rules.houses.values():
        own = [d for d in labelled if d["cards"][0].house == house.id]
        grouped = {c.id for d in own for c in d["cards"]}
        cards = house_cards_of(rules, house.id)
        loose = [c for c in cards if c.id not in grouped]
        if len(own) == 1 and not loose:  # one deck: the house's heading says it
            own, loose = [], cards
        houses.append(
            {"id": house.id, "name": house.name, "cards": cards, "loose": loose, "decks": own}
        )
    westeros = sorted({c.deck for c in rules.westeros_cards.values()})
    return {
        "houses": [h for h in houses if h["cards"]],
        "shared": [d for d in labelled if d["cards"][0].house not in rules.houses],
        "westeros": [
            {"deck": d, "cards": [c for c in rules.westeros_cards.values() if c.deck == d]}
            for d in westeros
        ],
        "wildlings": list(rules.wildling_cards.values()),
        "others": [
            {"deck": deck, "cards": [c for c in others if c.deck == deck]}
            for deck in dict.fromkeys(c.deck for c in others)
        ],
    }


def plugin_decks(extra: Sequence[HelpSection]) -> dict[str, list[dict[str, Any]]]:
    """The start screen's lists of the plugins' decks, by section id: the cards each plugin
    registered, for content no game is loaded with yet."""
    return {s.id: [deck_entry(d) for d in s.decks] for s in extra if s.decks}
