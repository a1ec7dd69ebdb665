"""House-card abilities (8.1-8.2): the ``CardAbility`` protocol and small tools for card authors.

An ability is a stateless object attached to a ``HouseCard``. It has two kinds of members:

- *window methods* (``cancel``, ``immediately``, ``before_combat``, ``after_winner``,
  ``after_combat``), called once per played card in the matching window of 5.4.4, 5.4.8 and
  5.4.11, in turn order. Each gets ``(state, combat, side)`` (``side`` is the card's own side,
  ``combat`` is ``state.combat`` at that moment) and may change the state or push decisions.
- *constant modifiers* (8.1 "K"), consulted whenever strength or icons are computed (8.3.4):
  ``strength_bonus``, ``icon_bonus``, ``order_bonus``, ``unit_strength``, ``nullifies_unit``,
  ``zeroes_opponent_card``; and flags read by the combat steps: ``prevents_casualties``
  (The Blackfish, 5.4.9; plugins such as Tides of Battle read it too), ``chooses_retreat``
  (Robb Stark, 5.4.10), ``blocks_move_in`` (Arianne Martell, 5.4.11) and ``uses_strength_gap``
  (a card whose effect depends on the gap between the final strengths: the Valyrian Steel Blade
  is then offered even when it cannot change the victor, 5.4.6).

Every default is a no-op, so a card overrides only what it changes."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

from ..actions import Action, SelectArea
from ..errors import IllegalAction, IllegalChoice
from ..flow import Decision, Prompt
from ..state import State, Unit
from .context import Combat

CANCEL = "cancel"
IMMEDIATELY = "immediately"
BEFORE_COMBAT = "before_combat"
AFTER_WINNER = "after_winner"
AFTER_COMBAT = "after_combat"
WINDOWS = (CANCEL, IMMEDIATELY, BEFORE_COMBAT, AFTER_WINNER, AFTER_COMBAT)


class CardAbility:
    """Base class of every house-card ability; see the module docstring."""

    __slots__ = ()

    text: ClassVar[str] = ""
    prevents_casualties: ClassVar[bool] = False
    chooses_retreat: ClassVar[bool] = False
    blocks_move_in: ClassVar[bool] = False
    uses_strength_gap: ClassVar[bool] = False

    # ------------------------------------------------------------------ windows (5.4.4-5.4.11)
    def cancel(self, state: State, combat: Combat, side: str) -> None:
        """Cancel window, first after the reveal (Tyrion Lannister)."""

    def immediately(self, state: State, combat: Combat, side: str) -> None:
        """ "Immediately" window (Aeron Damphair, Doran Martell, Mace Tyrell, Queen of Thorns)."""

    def before_combat(self, state: State, combat: Combat, side: str) -> None:
        """Before-combat window (none in the base game)."""

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        """After the winner is determined (Tywin, Renly, Cersei, Roose Bolton); 5.4.8."""

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        """After combat, once the attacker moved in and hands were recycled (Patchface,
        Ser Loras Tyrell); 5.4.11."""

    # ------------------------------------------------------------------ constant modifiers
    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        """Added to this card's own printed strength (the sum never goes below 0, 5.4.7)."""
        return 0

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        """(swords, fortifications) added to this card's own icons (5.4.9)."""
        return (0, 0)

    def order_bonus(
        self, state: State, combat: Combat, side: str, for_side: str, bonus: int
    ) -> int:
        """The order bonus of ``for_side`` (March or Defense, 5.4.2) given its current value."""
        return bonus

    def unit_strength(
        self,
        state: State,
        combat: Combat,
        side: str,
        for_side: str,
        unit: Unit,
        supporting: bool,
        value: int,
    ) -> int:
        """The strength of ``unit`` fighting (or ``supporting``) for ``for_side``, given its
        current ``value`` (1.2.1 plus earlier cards in turn order)."""
        return value

    def nullifies_unit(
        self, state: State, combat: Combat, side: str, for_side: str, unit: Unit
    ) -> bool:
        """True if ``unit`` on ``for_side`` has strength 0 whatever else applies."""
        return False

    def zeroes_opponent_card(self, state: State, combat: Combat, side: str) -> bool:
        """True if the opponent's card's printed strength counts as 0 (its own bonuses stay)."""
        return False


NO_ABILITY = CardAbility()


def ability_of(state: State, card_id: str) -> CardAbility:
    """The ability of house card ``card_id`` (a no-op ability for a card without one)."""
    ability = state.rules.house_cards[card_id].ability
    return ability if ability is not None else NO_ABILITY


@dataclasses.dataclass(frozen=True, slots=True)
class ChooseArea(Decision):
    """``house`` picks one of ``areas`` for a card ability (``optional``: or none, with a null
    area). Subclasses implement ``chosen`` and set ``rule`` (the section an illegal pick breaks)."""

    house: str
    areas: tuple[str, ...]
    optional: bool
    reason: str

    rule: ClassVar[str] = "8.2"
    error: ClassVar[type[IllegalAction]] = IllegalChoice

    def prompts(self, state: State) -> dict[str, Prompt]:
        return {
            self.house: Prompt(
                self.house,
                "choose_area",
                (SelectArea.kind,),
                {"areas": list(self.areas), "optional": self.optional, "reason": self.reason},
            )
        }

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectArea)
        if action.area is None and not self.optional:
            raise self.error(f"{self.reason}: an area must be chosen", rule=self.rule)
        if action.area is not None and action.area not in self.areas:
            raise self.error(
                f"{self.reason}: {action.area!r} is not one of {list(self.areas)}", rule=self.rule
            )
        state.pop()
        self.chosen(state, action.area)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        options: list[str | None] = list(self.areas)
        if self.optional:
            options.append(None)
        return SelectArea(rnd.choice(options))

    def chosen(self, state: State, area: str | None) -> None:
        """Carry out the choice (the step is already popped)."""
        raise NotImplementedError
