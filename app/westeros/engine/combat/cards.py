"""Steps 3-4 of a combat: the secret house-card choice (5.4.3) and the ability windows (5.4.4,
also used for the windows of 5.4.8 and 5.4.11).

The chosen cards live only inside the ``ChooseHouseCards`` step until both are revealed, so
``player_view`` never shows them. A played card leaves its owner's hand at the reveal and goes to
the discard pile when the victor is determined (8.3.1)."""

from __future__ import annotations

import dataclasses
import random

from ..actions import Action, Choose
from ..errors import IllegalChoice
from ..flow import Decision, Prompt, Simultaneous, Step
from ..state import State
from .abilities import ability_of
from .context import SIDES, Combat
from .strength import turn_sides


@dataclasses.dataclass(frozen=True, slots=True)
class StartCardChoice(Step):
    """Ask both combatants for a card; a house with a single card plays it without being
    asked (5.4.3)."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        houses = tuple(
            combat.side(w).house for w in SIDES if len(state.hands[combat.side(w).house]) > 1
        )
        state.push(ChooseHouseCards(houses))


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseHouseCards(Simultaneous):
    """Both combatants secretly choose a card from their hand; both are revealed together
    (5.4.3). ``houses`` are those with a real choice."""

    houses: tuple[str, ...]
    commits: tuple[tuple[str, Action], ...] = ()

    def prompt_for(self, state: State, house: str) -> Prompt:
        combat: Combat = state.combat
        which = combat.side_of(house)
        assert which is not None
        return Prompt(
            house,
            "choose_house_card",
            (Choose.kind,),
            {
                "cards": list(state.hands[house]),
                "side": which,
                "opponent": combat.side(combat.other(which)).house,
                "area": combat.area,
            },
        )

    @classmethod
    def too_late(cls, state: State, house: str, action: Action) -> bool:
        """A house card chosen by a combatant whose card is already revealed (5.4.3)."""
        combat: Combat | None = state.combat
        which = combat.side_of(house) if combat is not None else None
        return (
            isinstance(action, Choose)
            and which is not None
            and combat is not None
            and combat.side(which).card is not None
        )

    def check(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        if action.option not in state.hands[house]:
            raise IllegalChoice(f"{action.option!r} is not in {house}'s hand", rule="5.4.3")

    def resolve(self, state: State, commits: dict[str, Action]) -> None:
        combat: Combat = state.combat
        for which in SIDES:
            side = combat.side(which)
            hand = state.hands[side.house]
            chosen = commits.get(side.house)
            card = chosen.option if isinstance(chosen, Choose) else (hand[0] if hand else None)
            if card is not None:
                state.hands[side.house] = tuple(c for c in hand if c != card)
            combat = combat.with_side(which, dataclasses.replace(side, card=card))
        state.combat = combat
        state.emit(
            "house_cards_revealed",
            attacker=[combat.attacker.house, combat.attacker.card],
            defender=[combat.defender.house, combat.defender.card],
        )

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice(state.hands[house]))


@dataclasses.dataclass(frozen=True, slots=True)
class Window(Step):
    """One timing window (abilities.WINDOWS): each played card's ability for ``name`` runs once,
    in turn order (5.4.4). ``sides`` are the sides still to go (None: both, in the turn order
    read when the window opens). A card that replaces another mid-window gets its own turn."""

    name: str
    sides: tuple[str, ...] | None = None

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        sides = self.sides if self.sides is not None else turn_sides(state, combat)
        if not sides:
            return
        which, rest = sides[0], sides[1:]
        if rest:
            state.push(Window(self.name, rest))
        card = combat.side(which).card
        if card is None:
            return
        key = (self.name, which, card)
        resolved = combat.get("resolved", ())
        if key in resolved:
            return
        state.combat = combat.with_data("resolved", (*resolved, key))
        getattr(ability_of(state, card), self.name)(state, state.combat, which)


def play(state: State, which: str, card: str, window: str) -> None:
    """``which`` plays ``card`` from its hand in place of its current card (already returned or
    discarded by the caller); the new card's abilities resolve from ``window`` on (5.4.4)."""
    combat: Combat = state.combat
    side = combat.side(which)
    state.hands[side.house] = tuple(c for c in state.hands[side.house] if c != card)
    state.combat = combat.with_side(which, dataclasses.replace(side, card=card))
    state.emit("house_card_replaced", house=side.house, card=card)
    state.push(Window(window, (which,)))


def replace_card(state: State, which: str, exclude: str, window: str, reason: str) -> None:
    """``which`` must play another card from its hand than ``exclude``: at once if there is one
    candidate, by a decision if several; with none it fights without a card (§12.28)."""
    combat: Combat = state.combat
    house = combat.side(which).house
    options = tuple(c for c in state.hands[house] if c != exclude)
    if not options:
        side = combat.side(which)
        state.combat = combat.with_side(which, dataclasses.replace(side, card=None))
        state.emit("no_house_card", house=house, reason=reason)
    elif len(options) == 1:
        play(state, which, options[0], window)
    else:
        state.push(ChooseReplacementCard(house, which, options, window, reason))


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseReplacementCard(Decision):
    """``house`` openly picks the card it plays instead (Tyrion Lannister, Aeron Damphair)."""

    house: str
    which: str
    options: tuple[str, ...]
    window: str
    reason: str

    def prompts(self, state: State) -> dict[str, Prompt]:
        return {
            self.house: Prompt(
                self.house,
                "choose_house_card",
                (Choose.kind,),
                {"cards": list(self.options), "side": self.which, "reason": self.reason},
            )
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        if action.option not in self.options:
            raise IllegalChoice(
                f"{action.option!r} is not one of {list(self.options)}", rule="5.4.4"
            )
        state.pop()
        play(state, self.which, action.option, self.window)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice(self.options))
