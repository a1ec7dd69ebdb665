"""The plugin manager (DESIGN §3): default plugins, bundled plugins and the Ruleset they build."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

import pluggy

from . import hookspecs
from .engine.content import RuleHooks, Ruleset

DEFAULT_PLUGINS = ("westeros.base.plugin",)
BUNDLED_PLUGINS = ("westeros_ports.plugin", "westeros_tides_of_battle.plugin")


def plugin_manager(disable: Iterable[str] = (), extra: Iterable[Any] = ()) -> pluggy.PluginManager:
    """A manager with the default and bundled plugins (minus ``disable``) and ``extra`` objects."""
    pm = pluggy.PluginManager("westeros")
    pm.add_hookspecs(hookspecs)
    skip = set(disable)
    for path in DEFAULT_PLUGINS + BUNDLED_PLUGINS:
        name = path.split(".")[0] if not path.startswith("westeros.") else path
        if name in skip or path in skip:
            continue
        pm.register(importlib.import_module(path), name=name)
    for obj in extra:
        pm.register(obj)
    return pm


def _collect(results: list[list[Any] | None]) -> list[Any]:
    return [item for result in results if result for item in result]


def build_ruleset(
    options: Mapping[str, Any] | None = None,
    *,
    disable: Iterable[str] = (),
    extra: Iterable[Any] = (),
) -> Ruleset:
    """Merge every plugin's content and rule hooks into one Ruleset for a game with ``options``."""
    pm = plugin_manager(disable, extra)
    h = pm.hook
    opts = dict(options or {})

    def rule(hook: Any) -> tuple[Any, ...]:
        # pluggy returns results last-registered first; keep registration order instead.
        return tuple(f for f in reversed(hook(options=opts)) if f is not None)

    hooks = RuleHooks(
        strength_modifiers=rule(h.rule_strength_modifier),
        icon_modifiers=rule(h.rule_icon_modifier),
        combat_steps=rule(h.rule_combat_step),
        after_casualties=rule(h.rule_after_casualties),
        after_resolution=rule(h.rule_after_resolution),
        round_start=rule(h.rule_round_start),
        round_end=rule(h.rule_round_end),
        victory_checks=rule(h.rule_victory_check),
        power_income=rule(h.rule_power_income),
        muster_targets=rule(h.rule_muster_targets),
        setup=rule(h.rule_setup),
    )

    def content(hook: Any) -> list[Any]:
        return _collect(list(reversed(hook())))

    return Ruleset(
        area_kinds=content(h.register_area_kinds),
        areas=content(h.register_areas),
        adjacent=content(h.register_adjacency),
        unit_types=content(h.register_unit_types),
        order_tokens=content(h.register_order_tokens),
        houses=content(h.register_houses),
        house_cards=content(h.register_house_cards),
        starting_units=content(h.register_starting_units),
        setups=content(h.register_setups),
        westeros_cards=content(h.register_westeros_cards),
        wildling_cards=content(h.register_wildling_cards),
        options=content(h.register_game_options),
        hooks=hooks,
        plugins=tuple((name, "") for name, _ in pm.list_name_plugin()),
    )
