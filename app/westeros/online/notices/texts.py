"""The words of a turn notice, in its reader's language (issue 40): the server's gettext
catalogs (``server.i18n``), the same titles the board shows for each kind of decision
(``frontend/static/js/prompt-titles.js``)."""

from __future__ import annotations

import dataclasses
import gettext
from collections.abc import Sequence

from westeros.server.i18n import N_

TITLES = {
    "place_orders": N_("Place your orders"),
    "messenger_raven": N_("Messenger Raven"),
    "raid": N_("Raid"),
    "march": N_("March"),
    "consolidate_power": N_("Consolidate Power"),
    "declare_support": N_("Declare your support"),
    "choose_house_card": N_("Choose your house card"),
    "destroy_units": N_("Choose the units you lose"),
    "choose_area": N_("Choose an area"),
    "choose_option": N_("Make a choice"),
    "support_neutral_attack": N_("Support an attack on a neutral force?"),
    "use_blade": N_("Use the Valyrian Steel Blade?"),
    "retreat": N_("Retreat"),
    "muster": N_("Mustering"),
    "reconcile_supply": N_("Reconcile your armies with supply"),
    "bid": N_("Clash of Kings: bid for a track"),
    "order_ties": N_("Break the ties"),
    "wildling_bid": N_("Bid against the wildlings"),
    "muster_area": N_("Choose where to muster"),
    "destroy_area": N_("Choose where you lose two units"),
    "upgrade_units": N_("Upgrade footmen"),
    "replace_units": N_("Downgrade knights"),
}
"""The board's title of each kind of decision; a plugin's own kinds read "Your decision"."""
ANY_DECISION = N_("Your decision")


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """What a notice tells: a person is asked to decide in a game."""

    game_id: str
    lobby_id: str
    lobby_name: str
    house: str
    """The seat asked (a vassal's decision: its commander's seat, 11.10.8)."""
    house_name: str
    kind: str
    round: int


class Words:
    """The texts of notices in one language."""

    def __init__(self, translations: gettext.NullTranslations) -> None:
        self._ = translations.gettext

    def title(self, kind: str) -> str:
        """The board's title of a decision of ``kind``."""
        return self._(TITLES.get(kind, ANY_DECISION))

    def house(self, turn: Turn) -> str:
        """The name of ``turn``'s house."""
        return self._(turn.house_name)

    def subject(self, turn: Turn) -> str:
        """The subject of an e-mail, the title of a push notification."""
        return self._("Your turn in “{game}”").format(game=turn.lobby_name)

    def line(self, turn: Turn) -> str:
        """One sentence: whose turn, in which game, for what."""
        return self._("{house} is asked to decide in “{game}” (round {round}): {what}.").format(
            house=self.house(turn),
            game=turn.lobby_name,
            round=turn.round,
            what=self.title(turn.kind),
        )

    def email(self, turn: Turn, play: str, settings: str, unsubscribe: str) -> str:
        """The text of a notice by e-mail."""
        footer = "\n".join(
            (
                self._("You get this e-mail because you asked for turn notices."),
                self._("Stop them with one click: {link}").format(link=unsubscribe),
                self._("All your notices: {link}").format(link=settings),
            )
        )
        play_line = self._("Open the game: {link}").format(link=play)
        return f"{self.line(turn)}\n\n{play_line}\n\n-- \n{footer}\n"

    def verify_subject(self) -> str:
        """The subject of the e-mail that verifies an address."""
        return self._("Confirm your address for Westeros turn notices")

    def verify_email(self, link: str, hours: int) -> str:
        """The text of the e-mail that verifies an address."""
        return "\n\n".join(
            (
                self._("Someone (you, we hope) asked for Westeros turn notices at this address."),
                self._("Confirm it within {hours} hours: {link}").format(hours=hours, link=link),
                self._("If it was not you, ignore this e-mail: nothing will be sent."),
            )
        )

    def webhook(self, turns: Sequence[tuple[Turn, str | None]]) -> str:
        """A webhook's message: who is asked (with the player's name when known)."""
        lines = []
        for turn, player in turns:
            line = self.line(turn)
            lines.append(f"{line} ({player})" if player else line)
        return "\n".join(lines)

    def label(self, name: str) -> str:
        """A field name of a webhook's embed."""
        return self._(name)


FIELD_GAME = N_("Game")
FIELD_HOUSE = N_("House")
FIELD_DECISION = N_("Decision")
