"""The combat in progress (5.4), kept in ``state.combat`` while a combat resolves.

Frozen data: steps replace it with ``dataclasses.replace``. Plugin and step data live in ``data``
as (key, value) pairs; keys starting with ``_`` are secret and never shown by ``view``.

The attacking army is off the board while the combat resolves (the march lifted it out of
``origin``, 5.3.8); ``attacker.units`` is the only record of it until it moves in (5.4.11) or
retreats (5.4.10). The defending units stand in ``area`` and are mirrored in ``defender.units``."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..state import Unit

ATTACKER = "attacker"
DEFENDER = "defender"
SIDES = (ATTACKER, DEFENDER)


@dataclasses.dataclass(frozen=True, slots=True)
class Side:
    """One combatant: its house, participating units, revealed house card (None before the
    reveal, or when fighting without one, §12.28) and the support areas declared for it."""

    house: str
    units: tuple[Unit, ...]
    card: str | None = None
    support: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Combat:
    """A combat between two houses in ``area``; the attacker marched from ``origin`` with the
    March order ``march_token``. ``winner`` is ``attacker`` or ``defender`` once decided."""

    area: str
    origin: str
    march_token: str
    attacker: Side
    defender: Side
    winner: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def side(self, which: str) -> Side:
        """The ``attacker`` or ``defender`` side."""
        return self.attacker if which == ATTACKER else self.defender

    def other(self, which: str) -> str:
        """The opposite side's name."""
        return DEFENDER if which == ATTACKER else ATTACKER

    def side_of(self, house: str) -> str | None:
        """Which side ``house`` fights on, or None."""
        if house == self.attacker.house:
            return ATTACKER
        if house == self.defender.house:
            return DEFENDER
        return None

    def where(self, which: str) -> str:
        """The area a side's participating units are named by in prompts (and their answers):
        the embattled area for the defender, the origin for the (lifted) attacking army. Their
        losses are logged in the embattled area (``units.destroy``)."""
        return self.origin if which == ATTACKER else self.area

    def loser(self) -> str | None:
        """The losing side once the winner is known."""
        return None if self.winner is None else self.other(self.winner)

    def with_side(self, which: str, side: Side) -> Combat:
        """A copy with ``which`` side replaced."""
        attacker, defender = (side, self.defender) if which == ATTACKER else (self.attacker, side)
        return Combat(
            self.area, self.origin, self.march_token, attacker, defender, self.winner, self.data
        )

    def get(self, key: str, default: Any = None) -> Any:
        """Plugin or step data stored under ``key``."""
        for k, v in self.data:
            if k == key:
                return v
        return default

    def with_data(self, key: str, value: Any) -> Combat:
        """A copy with ``key`` set to ``value``."""
        data = (*((k, v) for k, v in self.data if k != key), (key, value))
        return Combat(
            self.area,
            self.origin,
            self.march_token,
            self.attacker,
            self.defender,
            self.winner,
            data,
        )

    def view(self, house: str | None) -> dict[str, Any]:
        """What ``house`` may see of this combat: everything but secret data."""

        def side(s: Side) -> dict[str, Any]:
            return {
                "house": s.house,
                "units": [[u.type, u.routed] for u in s.units],
                "card": s.card,
                "support": list(s.support),
            }

        return {
            "area": self.area,
            "origin": self.origin,
            "march_token": self.march_token,
            "attacker": side(self.attacker),
            "defender": side(self.defender),
            "winner": self.winner,
            "data": {k: _plain(v) for k, v in self.data if not k.startswith("_")},
        }


def _plain(value: Any) -> Any:
    """``value`` with tuples turned into lists (JSON-ready)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
