"""Order types in words, for the log: the same English words as the board
(``frontend/static/js/log.js``), so one translation serves both."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .i18n import N_

if TYPE_CHECKING:
    from .narrate import Narrator

ORDER_TYPES = {
    "defense": N_("Defense"),
    "march": N_("March"),
    "march+1": N_("March +1"),
    "support": N_("Support"),
    "raid": N_("Raid"),
    "consolidate_power": N_("Consolidate Power"),
}
"""Order types (RULES.md 1.4) and the kinds a Westeros card may forbid (3.3), as the board
names them."""


def order_type_name(narrator: Narrator, key: Any) -> str:
    """An order type or forbidden kind (``"consolidate_power"``, ``"march+1"``) in words."""
    text = ORDER_TYPES.get(str(key), str(key).replace("_", " "))
    return narrator._(text)
