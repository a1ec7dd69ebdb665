"""Mother of Dragons sea order tokens (RULES.md 11.8): three extra tokens per house, placed
only in sea areas and ports, never starred: Sea March −1, Sea Support +0 and Iron Bank.

They are ordinary March and Support tokens for every other rule, so the Westeros restrictions
of their counterparts apply as they are (3.3: Rains of Autumn forbids "March +1" only, Web of
Lies forbids every Support). The Iron Bank token is an order of its own type, resolved in the
Consolidate Power loop (5.6.3) and raidable without pillage (11.9.4), so Feast for Crows does
not forbid it. Its token comes with either option (11.8.3)."""

from __future__ import annotations

from westeros.engine.content import SEA, OrderToken

SEA_ORDERS = "mod_sea_orders"
IRON_BANK = "mod_iron_bank"
PORT = "port"
SEA_KINDS = frozenset({SEA, PORT})
IRON_BANK_TYPE = "iron_bank"
IRON_BANK_TOKEN = "iron-bank"
SEA_MARCH = "sea-march-1"
SEA_SUPPORT = "sea-support+0"


def order_tokens() -> list[OrderToken]:
    """The three sea order tokens of every house (11.8.1, 11.8.3)."""
    sea_only = frozenset({SEA_ORDERS})
    return [
        OrderToken(SEA_MARCH, "march", -1, False, area_kinds=SEA_KINDS, options=sea_only),
        OrderToken(SEA_SUPPORT, "support", 0, False, area_kinds=SEA_KINDS, options=sea_only),
        OrderToken(
            IRON_BANK_TOKEN,
            IRON_BANK_TYPE,
            0,
            False,
            area_kinds=SEA_KINDS,
            options=frozenset({SEA_ORDERS, IRON_BANK}),
            raidable=True,
            resolved_in="consolidate_power",
        ),
    ]
