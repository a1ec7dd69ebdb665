"""Errors raised by the engine. Every illegal decision raises a subclass of IllegalAction
that names the RULES.md section it breaks; the state it was tried on is never changed."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A decision the rules do not allow. ``rule`` is the RULES.md section it breaks."""

    rule = ""

    def __init__(self, message: str, rule: str | None = None) -> None:
        if rule is not None:
            self.rule = rule
        super().__init__(f"{message} (RULES.md {self.rule})" if self.rule else message)
        self.message = message


class NotPending(IllegalAction):
    """The house is not asked to decide anything now."""

    rule = "5.1"


class WrongActionKind(IllegalAction):
    """The action does not answer the question the house is asked."""

    rule = "0.4"


class IllegalOrder(IllegalAction):
    """An order placement the Planning rules forbid (4.1-4.3)."""

    rule = "4.1"


class IllegalTarget(IllegalAction):
    """A raid, support or card target the rules forbid."""

    rule = "5.2.1"


class IllegalMove(IllegalAction):
    """A march or retreat destination the rules forbid (5.3, 5.4.10)."""

    rule = "5.3"


class SupplyExceeded(IllegalAction):
    """The result would break the house's supply limit (1.7)."""

    rule = "1.7.5"


class UnitUnavailable(IllegalAction):
    """No unit of that type is left in the house's pool (1.2.2)."""

    rule = "1.2.2"


class NotEnoughPower(IllegalAction):
    """The house has fewer available power tokens than the decision needs (1.5)."""

    rule = "1.5.3"


class IllegalChoice(IllegalAction):
    """An option that is not among the ones offered."""

    rule = "0.4.2"


class MalformedAction(IllegalAction):
    """The action could not be read (unknown kind, missing or mistyped field)."""

    rule = "0.4"


class ContentError(EngineError):
    """Content registered by plugins is inconsistent (duplicate id, unknown reference)."""


class TokenReused(IllegalOrder):
    """An order token that is already on the board (each physical token once a round, 1.4.1)."""

    rule = "1.4.1"


class StarLimitExceeded(IllegalOrder):
    """More starred orders than the King's Court position allows (4.3.1, 1.6.3)."""

    rule = "4.3.1"


class ForbiddenOrder(IllegalOrder):
    """An order type this round's Westeros cards forbid (4.3.2, 3.3)."""

    rule = "4.3.2"


class AreaLeftEmpty(IllegalOrder):
    """An area with units left without an order while legal tokens remain (4.2)."""

    rule = "4.2"


class NotYourOrder(IllegalAction):
    """The area holds no order of the deciding house of the type being resolved (5.1)."""

    rule = "5.1"


class CannotMuster(IllegalAction):
    """Mustering through a Consolidate Power order that is not starred or not in a castle
    area (5.6.2, 6.2.2)."""

    rule = "5.6.2"


class UnitsCannotMove(IllegalAction):
    """A march names units that are not in its area, are routed (1.2.4) or move twice (5.3.1)."""

    rule = "5.3.1"


class TooManyCombats(IllegalAction):
    """A march may trigger at most one combat, neutral forces included (5.3.3)."""

    rule = "5.3.3"


class NeutralForceTooStrong(IllegalAction):
    """The attacking strength is below the neutral force token's value (5.5.1)."""

    rule = "5.5.1"


class PowerTokenNotAllowed(IllegalAction):
    """A power token may not be left in the area the march leaves (5.3.9)."""

    rule = "5.3.9"
