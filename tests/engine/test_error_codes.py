"""Stable error codes (issue 11, point 3): every IllegalAction subclass, the engine's and the
bundled plugins', carries its own ``code`` "illegal/<what>", distinct from every other, so that
a client can tell refusals apart without reading class names."""

from __future__ import annotations

import re

import pytest

from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalAction, NeutralForceTooStrong

CODE = re.compile(r"^illegal/[a-z]+(-[a-z]+)*$")


def subclasses(cls: type[IllegalAction]) -> list[type[IllegalAction]]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(subclasses(sub))
    return out


@pytest.fixture(scope="module")
def errors(rules: Ruleset) -> list[type[IllegalAction]]:
    """Every IllegalAction class loaded once the ruleset (ports, Tides) is built."""
    import westeros_ports.rules  # noqa: F401  (the plugin defines its own error)

    return [IllegalAction, *subclasses(IllegalAction)]


def test_every_illegal_action_class_defines_its_own_stable_code(
    errors: list[type[IllegalAction]],
) -> None:
    names = {cls.__name__ for cls in errors}
    assert {"NeutralForceTooStrong", "IllegalTakeover", "SupplyExceeded"} <= names
    for cls in errors:
        assert "code" in vars(cls), f"{cls.__qualname__} inherits its code"
        assert CODE.match(cls.code), f"{cls.__qualname__}: {cls.code!r}"


def test_error_codes_are_distinct(errors: list[type[IllegalAction]]) -> None:
    codes = [cls.code for cls in errors]
    assert len(codes) == len(set(codes))


def test_the_neutral_force_refusal_has_the_documented_code() -> None:
    error = NeutralForceTooStrong("attacking strength 3 is below the neutral force's 5")
    assert error.code == "illegal/neutral-force-too-strong"
    assert error.rule == "5.5.1"
