"""A pytest plugin for modders: fixtures that build the real engine with your plugin loaded.

Installed through the ``pytest11`` entry point, so ``westeros_ruleset`` is available in any
test suite once ``westeros`` is installed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .engine.content import Ruleset
from .plugins import build_ruleset


@pytest.fixture
def westeros_ruleset() -> Callable[..., Ruleset]:
    """A factory: ``westeros_ruleset(my_plugin, options={...})`` builds the real Ruleset with the
    default and bundled plugins plus the given plugin objects or modules."""

    def make(*plugins: Any, options: dict[str, Any] | None = None, disable: tuple[str, ...] = ()) -> Ruleset:
        return build_ruleset(options, extra=plugins, disable=disable)

    return make
