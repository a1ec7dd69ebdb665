"""Errors raised by the engine. Every illegal decision raises a subclass of IllegalAction
that names the RULES.md section it breaks; the state it was tried on is never changed.

Each subclass has a stable ``code`` ("illegal/<what>") that clients may rely on: it is what
the wire error carries, it never changes when a class is renamed, and every subclass (plugins'
too) defines its own."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A decision the rules do not allow. ``rule`` is the RULES.md section it breaks, ``code``
    the stable error code of the class."""

    rule = ""
    code = "illegal/action"

    def __init__(self, message: str, rule: str | None = None) -> None:
        if rule is not None:
            self.rule = rule
        super().__init__(f"{message} (RULES.md {self.rule})" if self.rule else message)
        self.message = message


class NotPending(IllegalAction):
    """The house is not asked to decide anything now."""

    rule = "5.1"
    code = "illegal/not-pending"


class AlreadyRevealed(NotPending):
    """A take-back after the reveal: a committed order set, bid or house card may be changed
    only until the last house commits; then everything is revealed at once (4.1, 3.6.2,
    7.2.1, 5.4.3)."""

    rule = "4.1"
    code = "illegal/already-revealed"


class WrongActionKind(IllegalAction):
    """The action does not answer the question the house is asked."""

    rule = "0.4"
    code = "illegal/wrong-action-kind"


class IllegalOrder(IllegalAction):
    """An order placement the Planning rules forbid (4.1-4.3)."""

    rule = "4.1"
    code = "illegal/order"


class IllegalTarget(IllegalAction):
    """A raid, support or card target the rules forbid."""

    rule = "5.2.1"
    code = "illegal/target"


class IllegalMove(IllegalAction):
    """A march or retreat destination the rules forbid (5.3, 5.4.10)."""

    rule = "5.3"
    code = "illegal/move"


class SupplyExceeded(IllegalAction):
    """The result would break the house's supply limit (1.7)."""

    rule = "1.7.5"
    code = "illegal/supply-exceeded"


class UnitUnavailable(IllegalAction):
    """No unit of that type is left in the house's pool (1.2.2)."""

    rule = "1.2.2"
    code = "illegal/unit-unavailable"


class NotEnoughPower(IllegalAction):
    """The house has fewer available power tokens than the decision needs (1.5)."""

    rule = "1.5.3"
    code = "illegal/not-enough-power"


class IllegalChoice(IllegalAction):
    """An option that is not among the ones offered."""

    rule = "0.4.2"
    code = "illegal/choice"


class MalformedAction(IllegalAction):
    """The action could not be read (unknown kind, missing or mistyped field)."""

    rule = "0.4"
    code = "illegal/malformed-action"


class ContentError(EngineError):
    """Content registered by plugins is inconsistent (duplicate id, unknown reference)."""


class TokenReused(IllegalOrder):
    """An order token that is already on the board (each physical token once a round, 1.4.1)."""

    rule = "1.4.1"
    code = "illegal/token-reused"


class StarLimitExceeded(IllegalOrder):
    """More starred orders than the King's Court position allows (4.3.1, 1.6.3)."""

    rule = "4.3.1"
    code = "illegal/star-limit-exceeded"


class ForbiddenOrder(IllegalOrder):
    """An order type this round's Westeros cards forbid (4.3.2, 3.3)."""

    rule = "4.3.2"
    code = "illegal/forbidden-order"


class AreaLeftEmpty(IllegalOrder):
    """An area with units left without an order while legal tokens remain (4.2)."""

    rule = "4.2"
    code = "illegal/area-left-empty"


class NotYourOrder(IllegalAction):
    """The area holds no order of the deciding house of the type being resolved (5.1)."""

    rule = "5.1"
    code = "illegal/not-your-order"


class CannotMuster(IllegalAction):
    """Mustering through a Consolidate Power order that is not starred or not in a castle
    area (5.6.2, 6.2.2)."""

    rule = "5.6.2"
    code = "illegal/cannot-muster"


class UnitsCannotMove(IllegalAction):
    """A march names units that are not in its area, are routed (1.2.4) or move twice (5.3.1)."""

    rule = "5.3.1"
    code = "illegal/units-cannot-move"


class TooManyCombats(IllegalAction):
    """A march may trigger at most one combat, neutral forces included (5.3.3)."""

    rule = "5.3.3"
    code = "illegal/too-many-combats"


class NeutralForceTooStrong(IllegalAction):
    """The attacking strength is below the neutral force token's value (5.5.1)."""

    rule = "5.5.1"
    code = "illegal/neutral-force-too-strong"


class PowerTokenNotAllowed(IllegalAction):
    """A power token may not be left in the area the march leaves (5.3.9)."""

    rule = "5.3.9"
    code = "illegal/power-token-not-allowed"
