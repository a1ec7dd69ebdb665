"""Mother of Dragons in "How to play" (``register_help_sections``; RULES.md 11): Arryn,
Targaryen and Essos, dragons, loyalty and Targaryen's victory, the Iron Bank, sea orders, deck
IV and vassals, each shown on a game's board only when that game has it; the Westeros phase
with four decks in place of the three-deck text in games with Targaryen (11.11); and
Targaryen's A and B decks and the shared vassal deck for the card reference (11.7)."""

from __future__ import annotations

from westeros.engine.content import N_, HouseCard
from westeros.help import HelpDeck, HelpSection, HelpTopic

from . import content, dragons, sea_orders, vassal_cards, vassals

OPTION = "mother_of_dragons"
TARGARYEN = ("targaryen",)

WESTEROS_PHASE = HelpTopic(
    "westeros",
    N_("Westeros phase"),
    "3.2, 11.11",
    (
        N_(
            "Every round but the first starts here. The top card of each of the four "
            "Westeros decks (I, II, III and IV) is revealed; the cards are shown in the "
            "Westeros panel."
        ),
        N_(
            "Deck I brings Supply, Mustering and A Throne of Blades; deck II Game of "
            "Thrones, Clash of Kings and Dark Wings, Dark Words; deck III the cards that "
            "forbid an order type this round, Put to the Sword and Wildlings Attack."
        ),
        N_(
            "Deck IV is Mother of Dragons' deck for games with Targaryen: its cards place "
            "loyalty tokens and offer Targaryen an option (see Westeros deck IV)."
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
            "At 12 the wildlings attack at once. Deck IV's cards have no wildling icon."
        ),
        N_("The cards are resolved in deck order: I, then II, then III, then IV."),
    ),
    "#westeros",
    option=OPTION,
    houses=TARGARYEN,
    replaces="westeros",
)
"""The Westeros phase of a game with deck IV (11.11.1): four decks, not three."""

IRON_BANK_ORDER = HelpTopic(
    "iron_bank",
    N_("Iron Bank order"),
    "11.8, 11.9.4",
    (
        N_(
            "A sea order token, placed only in a sea area or a port. It is resolved in the "
            "Consolidate Power step: you may buy one of the Iron Bank's loans with it, or "
            "nothing. It never gains power tokens, and a Raid removes it without taking any."
        ),
    ),
    show="#map .w-order.order-iron_bank, #prompt .token-button:has(.order-iron_bank)",
    option=OPTION,
    replaces="iron_bank",
)
"""The Iron Bank order in the Orders section (its token is part of every Mother of Dragons
game's content; the sea orders or the Iron Bank option put it in the houses' hands)."""

TOPICS = (
    HelpTopic(
        "arryn",
        N_("House Arryn"),
        "11.1-11.3",
        (
            N_(
                "With 7 or 8 players House Arryn joins the game. The board gains The Bite (a "
                "sea area), the Vale of Arryn (a castle area) and the Port of the Eyrie; the "
                "Eyrie becomes Arryn's home stronghold, with a garrison of 4."
            ),
            N_(
                "Arryn plays like every other house: its own 15 order tokens, power tokens "
                "and seven house cards. With 7 or 8 houses the King's Court track allows 3, "
                "3, 2, 1, 0, 0 and 0 starred orders from its first place down."
            ),
        ),
        show="[data-testid=house-arryn]",
        option=OPTION,
        houses=("arryn",),
    ),
    HelpTopic(
        "targaryen",
        N_("House Targaryen and Essos"),
        "11.2.3, 11.4, 11.6.6",
        (
            N_(
                "With 8 players House Targaryen joins from Essos, a side board that is part "
                "of the board for every rule and meets Westeros only by sea (and by dragon "
                "flight). Targaryen's home is Pentos; Braavos holds a neutral force of 5."
            ),
            N_("Targaryen has 8 footmen, 6 knights, 8 ships and 3 dragons, and no siege engines."),
            N_(
                "Targaryen is always last on all three influence tracks: nothing moves it up, "
                "and it never holds the Iron Throne, the Valyrian Steel Blade or the "
                "Messenger Raven. In a Clash of Kings it still bids; once the bids are "
                "revealed it may share its own bid out among the other houses' bids, which "
                "then decide the track."
            ),
        ),
        show="[data-testid=house-targaryen]",
        option=OPTION,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "dragons",
        N_("Dragons"),
        "11.5",
        (
            N_(
                "Only Targaryen has dragons. They start on the board and can never be "
                "mustered, upgraded into or placed by a loan; a destroyed dragon comes back "
                "only through Fire Made Flesh (deck IV)."
            ),
            N_(
                "Every dragon is as strong as the number of dragon strength tokens in the "
                "dragon strength box. The five tokens wait on the round track and move into "
                "the box when the round marker reaches them, so a dragon's strength is:"
            ),
        ),
        (
            N_("round 1: 0;"),
            N_("rounds 2 and 3: 1;"),
            N_("rounds 4 and 5: 2;"),
            N_("rounds 6 and 7: 3;"),
            N_("rounds 8 and 9: 4;"),
            N_("round 10: 5 (a routed dragon is always 0)."),
        ),
        "#map .w-unit[data-unit=dragon]",
        option=OPTION,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "dragon_flight",
        N_("Dragon flight"),
        "11.5.3-11.5.5",
        (
            N_(
                "When a March order is resolved, a group made only of dragons may fly to any "
                "land area of the board, in Westeros or Essos, whatever lies between. A group "
                "with other units in it marches as usual. Every other march rule still "
                "applies: one combat per march, supply, enough strength against a neutral "
                "force, and no march into an area of your vassal family."
            ),
            N_(
                "Dragons are land units: they never stand in a sea area or a port, support "
                "only adjacent combats, retreat without flying, count for supply and may be "
                "carried by ships. Card effects on footmen or knights do not touch them."
            ),
        ),
        show="#map .w-unit[data-unit=dragon]",
        option=OPTION,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "alternate_dragons",
        N_("Alternate dragon strength"),
        "11.2.2",
        (
            N_(
                "With this option the dragon strength tokens lie on rounds 2, 4, 7, 9 and 10 "
                "instead of 2, 4, 6, 8 and 10, so dragons grow stronger later in the game."
            ),
        ),
        option=dragons.ALTERNATE,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "loyalty",
        N_("Loyalty tokens and Targaryen's victory"),
        "11.6",
        (
            N_(
                "Loyalty tokens are put on areas by the cards of Westeros deck IV; one starts "
                "on King's Landing, and there are 20 in all. They do nothing for the other "
                "houses and never block a march."
            ),
            N_(
                "Targaryen collects the loyalty tokens of every area it controls after each "
                "March order is resolved and at the end of the Westeros phase. Collected "
                "tokens count for good."
            ),
            N_(
                "Targaryen does not count castles. Its victory points are the loyalty tokens "
                "it has collected, plus 1 while it controls Pentos. With 7 points it wins at "
                "once; after round 10 its points are compared with the other houses' castle "
                "areas. The Houses panel and the victory track show Targaryen's points."
            ),
        ),
        show=(
            "#map .w-loyalty, [data-testid=loyalty-tokens], "
            "[data-testid=house-targaryen] [data-stat=points]"
        ),
        option=OPTION,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "iron_bank",
        N_("The Iron Bank and its loans"),
        "11.9",
        (
            N_(
                "The Iron Bank offers up to three loans, in slots that cost 7, 4 and 1 power "
                "tokens. At the start of every round a new loan comes into the 7 slot and the "
                "others move one slot cheaper; the one pushed out of the 1 slot leaves. Every "
                "house starts with 7 power tokens."
            ),
            N_(
                "A loan is bought only by resolving an Iron Bank order in the Consolidate "
                "Power step: pay its slot's cost and its effect takes place at once. The "
                "house that controls Braavos pays 1 less. Vassals cannot take loans. Every "
                "house has the Iron Bank order token, even without the sea orders."
            ),
            N_(
                "Interest: from round 2, at the start of each round, a house pays 1 power "
                "token for every loan it has bought. For each token it cannot pay, the holder "
                "of the Valyrian Steel Blade destroys one of its units. The card reference "
                "lists every loan."
            ),
        ),
        show="[data-testid=plugin-panel-iron_bank]",
        option=sea_orders.IRON_BANK,
    ),
    HelpTopic(
        "sea_orders",
        N_("Sea orders"),
        "11.8",
        (
            N_(
                "Each house gets three more order tokens, for sea areas and ports only: Sea "
                "March -1, Sea Support +0 and the Iron Bank order. They are never starred, "
                "so a house may place up to 18 orders, still one per area."
            ),
            N_(
                "The Westeros cards forbid them like their usual kinds: Web of Lies forbids "
                "Sea Support, but Rains of Autumn does not forbid Sea March -1 (it is not a "
                "+1). Feast for Crows does not forbid the Iron Bank order."
            ),
        ),
        option=sea_orders.SEA_ORDERS,
    ),
    HelpTopic(
        "deck_iv",
        N_("Westeros deck IV"),
        "11.11",
        (
            N_(
                "Games with Targaryen use a fourth Westeros deck. Each Westeros phase reveals "
                "one card of deck IV after decks I to III, and it is resolved last. Its cards "
                "carry no wildling icon, and none is used twice."
            ),
            N_(
                "Each card first puts loyalty tokens on the areas printed on it, then offers "
                "Targaryen an option, mostly paid with power tokens: more loyalty tokens, "
                "moving tokens, or, with Fire Made Flesh, a dragon destroyed or brought back."
            ),
        ),
        show="#westeros",
        option=OPTION,
        houses=TARGARYEN,
    ),
    HelpTopic(
        "vassals",
        N_("Vassals"),
        "11.10",
        (
            N_(
                "With 3 to 6 players every house no player takes, Targaryen aside, is a "
                "vassal. A vassal cannot win, has no power tokens of its own and never bids."
            ),
            N_(
                "At the start of every Planning phase the players claim the vassals in Iron "
                "Throne order; the last player takes the rest. A player commands its vassals "
                "for that round and makes all their choices."
            ),
            N_(
                "After every player has placed its own orders, the commanders place at most "
                "2 orders for each of their vassals, from its four: March +0, Raid/Support +1, "
                "Defense +1/Muster and Defense +3. None is starred."
            ),
            N_(
                "A commander and its vassals are a family: none of them attacks, raids or "
                "marches into an area another of them controls, and a vassal supporting in a "
                "family member's combat supports that member. Vassals never enter ports."
            ),
            N_(
                "In a vassal's combat its commander draws 3 cards from the shared vassal deck "
                "and plays one; every drawn card goes back after the combat. When a vassal "
                "wins a combat, its commander gains 1 power token."
            ),
        ),
        show="[data-testid=vassal-commanders]",
        option=vassals.OPTION,
    ),
)


def _deck(ids: tuple[str, ...], cards: list[HouseCard]) -> tuple[HouseCard, ...]:
    by_id = {c.id: c for c in cards}
    return tuple(by_id[i] for i in ids)


def decks() -> tuple[HelpDeck, ...]:
    """Arryn's cards (11.7.1), Targaryen's A and B decks (11.7.2-11.7.3) and the shared vassal
    deck (11.7.4), labelled for the card reference."""
    cards = content.cards()
    arryn = tuple(c for c in cards if c.house == "arryn")
    return (
        HelpDeck("arryn", N_("Arryn"), arryn),
        HelpDeck(
            "targaryen-a", N_("Targaryen: A deck"), _deck(content.targaryen_deck(False), cards)
        ),
        HelpDeck(
            "targaryen-b",
            N_("Targaryen: B deck (with the Targaryen B deck option)"),
            _deck(content.targaryen_deck(True), cards),
        ),
        HelpDeck(
            "vassal-deck",
            N_("Vassal deck, shared by every vassal"),
            tuple(vassal_cards.house_cards()),
            option=vassals.OPTION,
        ),
    )


def sections() -> list[HelpSection]:
    """The Mother of Dragons section of "How to play"."""
    return [
        HelpSection(
            OPTION,
            N_("Mother of Dragons (expansion)"),
            (*TOPICS, WESTEROS_PHASE, IRON_BANK_ORDER),
            decks(),
        )
    ]
