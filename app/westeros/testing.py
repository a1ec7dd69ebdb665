"""A pytest plugin for modders: fixtures that build the real engine with your plugin loaded.

Installed through the ``pytest11`` entry point, so ``westeros_ruleset`` is available in any
test suite once ``westeros`` is installed (modder's guide: docs/plugins.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from .engine.content import Ruleset
from .plugins import build_ruleset


@pytest.fixture
def westeros_ruleset() -> Callable[..., Ruleset]:
    """A factory: ``westeros_ruleset(my_plugin, options={...}, disable=(...))`` builds the real
    Ruleset from the default and bundled plugins plus the given plugin objects or modules.

    Installed plugins (entry points, user plugin folder) are not loaded, so the result does not
    depend on the machine; any plugin problem (an exception in a hook, a duplicate id, an unknown
    hook) raises ``westeros.plugins.PluginError`` instead of disabling the plugin quietly."""

    def make(
        *plugins: Any,
        options: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
    ) -> Ruleset:
        return build_ruleset(options, extra=plugins, disable=disable, autoload=False, strict=True)

    return make
