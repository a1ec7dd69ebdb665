"""The plugin manager (DESIGN §3; modder's guide: docs/plugins.md).

Plugins are registered in a fixed order: the default plugins (the base game registers itself
through the hooks), the bundled plugins, plugin objects passed by the caller, then — unless
autoloading is turned off — installed plugins of the entry-point group ``westeros.plugins`` and
single-file plugins from the user plugin folder. Earlier plugins win: a later plugin that
registers an id an earlier one already registered is refused, with an error naming both.

A plugin that fails (raises — even ``SystemExit`` — at import or in a hook, returns the wrong
type or items of the wrong type, takes longer than ``WESTEROS_PLUGIN_TIME_LIMIT`` seconds to
import or to answer a hook, implements an unknown hook, refers to content nobody registered) is
disabled with a clear message naming it; the message is logged and kept in
``LoadedPlugins.errors`` for the UI (the start screen shows it), and the app runs on with the
others. A plugin that ran over its time limit is not called again in this process: its code
may still be running in the background thread it was given.

Every rule callable is wrapped so that what it raises during a game names its plugin
(``plugin_faults.RuleCall``, issue 35 finding 3).

Environment variables:

- ``WESTEROS_DISABLE_PLUGIN_AUTOLOAD``: any non-empty value other than ``0`` turns off entry
  points and the user plugin folder (tests set it, so that they never see installed plugins).
- ``WESTEROS_PLUGIN_DIR``: the user plugin folder (default:
  ``platformdirs.user_data_dir("westeros")/plugins``).
- ``WESTEROS_TRACE_HOOKS``: any non-empty value other than ``0`` logs every hook call and its
  result (pluggy tracing) to the ``westeros.hooks`` logger at INFO level.
- ``WESTEROS_PLUGIN_TIME_LIMIT``: seconds a plugin may take to import or to answer one hook
  (default 10).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.metadata
import importlib.util
import logging
import os
import queue
import sys
import threading
import typing
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .ai.personality import AIPersonality
from .engine.actions import Action
from .engine.content import AiAnswer, EventText, ReferenceCard, RuleHooks, Ruleset
from .engine.errors import ContentError
from .help import HelpSection
from .plugin_env import (
    ENV_DISABLE,
    ENV_NO_AUTOLOAD,
    ENV_TIME_LIMIT,
    ENV_TRACE,
    env_flag,
    user_plugin_dir,
)
from .plugin_env import (
    ENV_PLUGIN_DIR as ENV_PLUGIN_DIR,  # re-exported: tests and testing.py set it
)
from .plugin_faults import PluginFailure, RuleCall, describe, remember_package

log = logging.getLogger("westeros.plugins")
trace_log = logging.getLogger("westeros.hooks")

PROJECT = "westeros"
ENTRY_POINT_GROUP = "westeros.plugins"
DEFAULT_TIME_LIMIT = 10.0

DEFAULT_PLUGINS = ("westeros.base.plugin",)
BUNDLED_PLUGINS = (
    "westeros_ports.plugin",
    "westeros_tides_of_battle.plugin",
    "westeros_ai_personalities.plugin",
    "westeros_mother_of_dragons.plugin",
)

DEFAULT = "default"
BUNDLED = "bundled"
EXTRA = "extra"
ENTRY_POINT = "entry point"
USER_FOLDER = "user folder"

# Content hooks: hook name -> (Ruleset keyword, id attribute or None, what the id names).
CONTENT_HOOKS: dict[str, tuple[str, str | None, str]] = {
    "register_area_kinds": ("area_kinds", "id", "area kind"),
    "register_areas": ("areas", "id", "area"),
    "register_adjacency": ("adjacent", None, "adjacency"),
    "register_area_overrides": ("area_overrides", "id", "area override"),
    "register_removed_adjacency": ("removed_adjacent", None, "removed adjacency"),
    "register_unit_types": ("unit_types", "id", "unit type"),
    "register_order_tokens": ("order_tokens", "id", "order token"),
    "register_houses": ("houses", "id", "house"),
    "register_house_cards": ("house_cards", "id", "house card"),
    "register_starting_units": ("starting_units", None, "starting unit"),
    "register_setups": ("setups", "player_count", "setup for player count"),
    "register_westeros_cards": ("westeros_cards", "id", "Westeros card"),
    "register_wildling_cards": ("wildling_cards", "id", "wildling card"),
    "register_game_options": ("options", "id", "game option"),
    "register_action_kinds": ("action_kinds", "kind", "action kind"),
    "register_event_texts": ("event_texts", "kind", "event text"),
    "register_ai_personalities": ("ai_personalities", "id", "AI personality"),
    "register_ai_answers": ("ai_answers", "kind", "AI answer"),
    "register_templates": ("templates", None, "template folder"),
    "register_static": ("static", None, "static folder"),
    "register_translations": ("translations", None, "translation folder"),
    "register_client_scripts": ("client_scripts", None, "client script"),
    "register_reference_cards": ("reference_cards", "id", "reference card"),
    "register_help_sections": ("help_sections", "id", "help section"),
    "register_setup_overrides": ("setup_overrides", "player_count", "setup override"),
    "register_removed_cards": ("removed_cards", None, "removed card"),
}
UI_FIELDS = (
    "ai_personalities",
    "templates",
    "static",
    "translations",
    "client_scripts",
    "reference_cards",
    "help_sections",
)
# What a plugin that stays out of a game (``plugin_in_game`` False) still contributes.
KEPT_OUT_OF_GAME = (
    "register_game_options",
    "register_translations",
    "register_static",
    "register_client_scripts",
    "register_reference_cards",
    "register_help_sections",
)
"""What a plugin that is not part of a game with the loaded options still adds: its options,
and its browser and help parts, which the pages pick by the game's own plugins
(``scripts_for``, ``reference_cards_for``)."""

# Rule hooks: hook name -> RuleHooks field.
RULE_HOOKS: dict[str, str] = {
    "rule_strength_modifier": "strength_modifiers",
    "rule_icon_modifier": "icon_modifiers",
    "rule_combat_step": "combat_steps",
    "rule_after_casualties": "after_casualties",
    "rule_after_resolution": "after_resolution",
    "rule_round_start": "round_start",
    "rule_round_end": "round_end",
    "rule_victory_check": "victory_checks",
    "rule_power_income": "power_income",
    "rule_muster_targets": "muster_targets",
    "rule_setup": "setup",
    "rule_left_out": "left_out",
    "rule_planning_steps": "planning_steps",
    "rule_answering_house": "answering_house",
    "rule_house_orders": "house_orders",
    "rule_off_limits": "off_limits",
    "rule_support_options": "support_options",
    "rule_order_loop_start": "order_loop_start",
    "rule_unit_strength": "unit_strength",
    "rule_march_reach": "march_reach",
    "rule_track_order": "track_order",
    "rule_resolve_order": "resolve_order",
    "rule_area_changes": "area_changes",
    "rule_victory_points": "victory_points",
    "rule_bids_revealed": "bids_revealed",
    "rule_combat_start": "combat_start",
    "rule_combat_end": "combat_end",
    "rule_hand_viewers": "hand_viewers",
}


class PluginError(ContentError):
    """Plugins could not be loaded as asked (strict loading, missing plugins)."""


class MissingPlugins(PluginError):
    """A saved game needs plugins that are not loaded."""


@dataclasses.dataclass(frozen=True, slots=True)
class PluginInfo:
    """A loaded plugin: its name, version, where it came from and the hooks it implements."""

    name: str
    version: str
    source: str
    hooks: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PluginProblem:
    """Why a plugin was disabled (shown in the log, ``westeros plugins`` and the UI)."""

    plugin: str
    source: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} ({self.source}) disabled: {self.message}"


def autoload_enabled() -> bool:
    """False when ``WESTEROS_DISABLE_PLUGIN_AUTOLOAD`` is set."""
    return not env_flag(ENV_NO_AUTOLOAD)


def disabled_by_environment() -> set[str]:
    """The plugin names ``WESTEROS_DISABLE_PLUGINS`` lists."""
    return {name.strip() for name in os.environ.get(ENV_DISABLE, "").split(",") if name.strip()}


def _version_of(obj: Any, module_path: str | None) -> str:
    """``__version__`` of the plugin or of the nearest package above it, else ``""``."""
    version = getattr(obj, "__version__", None)
    path = module_path or getattr(obj, "__name__", None)
    while version is None and path:
        module = sys.modules.get(path)
        version = getattr(module, "__version__", None)
        path = path.rpartition(".")[0]
    return str(version) if version is not None else ""


def _name_of(obj: Any) -> str:
    """A plugin object's name: its ``NAME``, else its ``__name__``, else its class name."""
    return str(getattr(obj, "NAME", None) or getattr(obj, "__name__", None) or type(obj).__name__)


_user_modules: dict[Path, tuple[int, ModuleType]] = {}


def _load_file(path: Path) -> ModuleType:
    """Import a single-file plugin (cached until the file changes)."""
    mtime = path.stat().st_mtime_ns
    cached = _user_modules.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    name = f"westeros_user_plugins.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    _user_modules[path] = (mtime, module)
    return module


class PluginTimeout(Exception):
    """A plugin took longer than its time limit (it keeps running in its own thread)."""


_overdue: dict[str, str] = {}
"""Plugins (by name or module path) that ran over their time limit in this process."""
_overdue_lock = threading.Lock()


def time_limit() -> float:
    """Seconds a plugin may take to import or answer one hook (``WESTEROS_PLUGIN_TIME_LIMIT``)."""
    try:
        value = float(os.environ.get(ENV_TIME_LIMIT, "") or DEFAULT_TIME_LIMIT)
    except ValueError:
        return DEFAULT_TIME_LIMIT
    return value if value > 0 else DEFAULT_TIME_LIMIT


Call = tuple[Callable[[], Any], dict[str, Any], threading.Event]


def _serve_calls(calls: queue.SimpleQueue[Call | None]) -> None:
    """A worker thread's loop: run each call, put what it returned or raised in its box, say
    it is done; stop at None."""
    while (item := calls.get()) is not None:
        call, box, done = item
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the caller, who decides
            box["error"] = exc
        done.set()


class _Worker:
    """A daemon thread that runs the guarded calls of one calling thread, one at a time: a new
    thread for each call costs more than most hooks take (the start screen makes hundreds;
    issue 37 point 5). Its thread stops once this object is dropped: when the calling thread
    ends, or when a call ran over its time limit (after that call, if it ever returns)."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        threading.Thread(
            target=_serve_calls, args=(self.calls,), name="westeros-plugin-calls", daemon=True
        ).start()
        weakref.finalize(self, self.calls.put, None)

    def run(self, call: Callable[[], Any], limit: float) -> dict[str, Any] | None:
        """Run ``call``: its box (``value`` or ``error``), or None if it is still running after
        ``limit`` seconds."""
        box: dict[str, Any] = {}
        done = threading.Event()
        self.calls.put((call, box, done))
        return box if done.wait(limit) else None


_workers = threading.local()
"""Each calling thread's ``_Worker`` (``worker``), made at its first guarded call."""


def _guarded(what: str, call: Callable[[], Any]) -> Any:
    """``call()`` in a worker thread, waiting at most ``time_limit()`` seconds: its result, or
    what it raised (SystemExit included), or PluginTimeout (and ``what`` is remembered as
    overdue, so it is not called again; the worker is left to the call)."""
    with _overdue_lock:
        if what in _overdue:
            raise PluginTimeout(_overdue[what])
    worker: _Worker | None = getattr(_workers, "worker", None)
    if worker is None:
        worker = _workers.worker = _Worker()
    limit = time_limit()
    box = worker.run(call, limit)
    if box is None:
        _workers.worker = None
        message = f"did not finish within {limit:g} s (an endless loop or a blocking call?)"
        with _overdue_lock:
            _overdue[what] = message
        raise PluginTimeout(message)
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _failure(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, PluginTimeout) else describe(exc)


class PluginHost:
    """A pluggy manager with the plugins registered in order, and the problems met on the way.

    ``disable`` names plugins (or their module paths) not to load; ``extra`` are plugin objects
    (modules, classes or instances with ``@hookimpl`` functions) registered after the bundled
    ones; ``autoload`` None follows ``WESTEROS_DISABLE_PLUGIN_AUTOLOAD``. The plugins named in
    ``WESTEROS_DISABLE_PLUGINS`` are never loaded either."""

    def __init__(
        self,
        disable: Iterable[str] = (),
        extra: Iterable[Any] = (),
        *,
        autoload: bool | None = None,
    ) -> None:
        self.pm = pluggy.PluginManager(PROJECT)
        self.pm.add_hookspecs(hookspecs)
        if env_flag(ENV_TRACE):
            self.pm.trace.root.setwriter(lambda text: trace_log.info(text.rstrip()))
            self.pm.enable_tracing()
        self.skip = set(disable) | disabled_by_environment()
        self.info: dict[str, PluginInfo] = {}  # loaded plugins, in registration order
        self.errors: list[PluginProblem] = []
        for path in DEFAULT_PLUGINS:
            self._import(path, DEFAULT)
        for path in BUNDLED_PLUGINS:
            self._import(path, BUNDLED)
        for obj in extra:
            if not self.pm.is_registered(obj):
                self.add(obj, _name_of(obj), EXTRA)
        if autoload_enabled() if autoload is None else autoload:
            self._entry_points()
            self._user_folder()

    # ------------------------------------------------------------------ registration
    def _skipped(self, name: str, path: str = "") -> bool:
        return name in self.skip or (bool(path) and path in self.skip)

    def _import(self, path: str, source: str) -> None:
        fallback = path.removesuffix(".plugin") if source == DEFAULT else path.split(".")[0]
        if self._skipped(fallback, path):
            return
        try:
            module = _guarded(path, lambda: importlib.import_module(path))
        except PluginFailure as exc:
            self.record(fallback, source, f"cannot be imported ({_failure(exc)})")
            return
        name = _name_of(module) if getattr(module, "NAME", None) else fallback
        if not self._skipped(name):
            self.add(module, name, source, path)

    def _entry_points(self) -> None:
        points = sorted(
            importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name
        )
        failed = {p.plugin for p in self.errors}
        for ep in points:
            if self._skipped(ep.name, ep.value) or self.pm.has_plugin(ep.name) or ep.name in failed:
                continue
            try:
                obj = _guarded(ep.value, ep.load)
            except PluginFailure as exc:
                self.record(ep.name, ENTRY_POINT, f"cannot be imported ({_failure(exc)})")
                continue
            if self.pm.is_registered(obj):
                continue
            version = ep.dist.version if ep.dist is not None else ""
            self.add(obj, ep.name, ENTRY_POINT, ep.module, version)

    def _user_folder(self) -> None:
        folder = user_plugin_dir()
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_") or self._skipped(path.stem):
                continue
            try:
                module = _guarded(str(path), lambda p=path: _load_file(p))  # type: ignore[misc]
            except PluginFailure as exc:
                self.record(path.stem, USER_FOLDER, f"{path} cannot be imported ({_failure(exc)})")
                continue
            self.add(module, path.stem, USER_FOLDER)

    def add(
        self, obj: Any, name: str, source: str, module_path: str | None = None, version: str = ""
    ) -> bool:
        """Register ``obj`` as plugin ``name``; on failure record the problem and return False."""
        if name in self.info:
            self.record(name, source, f"the name is taken by the {self.info[name].source} plugin")
            return False
        try:
            self.pm.register(obj, name=name)
        except Exception as exc:
            self.record(name, source, f"cannot be registered ({describe(exc)})")
            return False
        callers = self.pm.get_hookcallers(obj) or []
        unknown = sorted(c.name for c in callers if not c.has_spec())
        if unknown:
            self.pm.unregister(obj)
            self.record(name, source, f"implements unknown hook(s) {', '.join(unknown)}")
            return False
        self.info[name] = PluginInfo(
            name,
            version or _version_of(obj, module_path),
            source,
            tuple(sorted(c.name for c in callers)),
        )
        remember_package(obj, name, module_path)
        return True

    def record(self, name: str, source: str, message: str) -> None:
        """Record (and log) why plugin ``name`` is not loaded."""
        problem = PluginProblem(name, source, message)
        self.errors.append(problem)
        log.error("%s", problem)

    def fail(self, name: str, message: str) -> None:
        """Disable the loaded plugin ``name`` and record why."""
        self.pm.unregister(self.pm.get_plugin(name))
        self.record(name, self.info.pop(name).source, message)

    # ------------------------------------------------------------------ calling
    @property
    def names(self) -> tuple[str, ...]:
        """Loaded plugins in registration order."""
        return tuple(self.info)

    def call_each(self, hook: str, **kwargs: Any) -> dict[str, Any]:
        """Call ``hook`` on each plugin separately: {plugin name: result} for plugins that
        implement it, in registration order. A plugin that raises is disabled."""
        out: dict[str, Any] = {}
        caller = getattr(self.pm.hook, hook)
        implementers = {impl.plugin_name for impl in caller.get_hookimpls()}
        for name in self.names:
            if name not in implementers or name not in self.info:
                continue
            others = [p for n, p in self.pm.list_name_plugin() if n != name and p is not None]
            subset = self.pm.subset_hook_caller(hook, others)
            try:
                results = _guarded(name, functools.partial(subset, **kwargs))
            except PluginTimeout as exc:
                self.fail(name, f"{hook} {exc}")
                continue
            except PluginFailure as exc:
                self.fail(name, f"{hook} raised {_failure(exc)}")
                continue
            out[name] = results[0] if results else None
        return out


# ---------------------------------------------------------------------------------- building


@dataclasses.dataclass(frozen=True)
class LoadedPlugins:
    """Everything the plugins contributed for one game configuration.

    ``ruleset`` is ready for ``new_game``; ``plugins`` are the plugins that loaded, in order;
    ``errors`` explain every plugin that was disabled. The UI lists come from the
    ``register_ai_personalities``/``templates``/``static``/``translations`` hooks;
    ``client_scripts`` are (plugin name, URL, game option or None) of
    ``register_client_scripts``."""

    ruleset: Ruleset
    plugins: tuple[PluginInfo, ...]
    errors: tuple[PluginProblem, ...]
    ai_personalities: tuple[Any, ...] = ()
    templates: tuple[str, ...] = ()
    static: tuple[tuple[str, str], ...] = ()
    translations: tuple[str, ...] = ()
    client_scripts: tuple[tuple[str, str, str | None], ...] = ()
    reference_cards: tuple[tuple[str, ReferenceCard], ...] = ()
    """(plugin name, card) of ``register_reference_cards``."""
    help_sections: tuple[tuple[str, HelpSection], ...] = ()
    """(plugin name, section) of ``register_help_sections``."""

    def reference_cards_for(
        self, rules: Ruleset, options: Mapping[str, Any] | None = None
    ) -> list[ReferenceCard]:
        """The reference cards of the plugins that are part of the game of ``rules`` whose
        game option, if they name one, is on in ``options`` (None: all of them)."""
        names = {name for name, _ in rules.plugins}
        return [
            card
            for name, card in self.reference_cards
            if name in names
            and (options is None or card.option is None or bool(rules.option(options, card.option)))
        ]

    def help_sections_for(self, rules: Ruleset) -> list[HelpSection]:
        """The help sections of the plugins loaded with ``rules`` (each topic says which
        games it is part of: ``HelpTopic.applies``)."""
        names = {name for name, _ in rules.plugins}
        return [section for name, section in self.help_sections if name in names]

    def scripts_for(self, rules: Ruleset, options: Mapping[str, Any]) -> list[str]:
        """The client scripts of the plugins that are part of the game of ``rules`` (and whose
        game option, if they name one, is on in ``options``)."""
        names = {name for name, _ in rules.plugins}
        return [
            url
            for name, url, option in self.client_scripts
            if name in names and (option is None or rules.option(options, option))
        ]


def _script(item: Any) -> tuple[str, str | None]:
    """A ``register_client_scripts`` item as (URL, game option or None)."""
    return (item, None) if isinstance(item, str) else (item[0], item[1])


def _fits(value: Any, hint: Any) -> bool:
    """Does ``value`` have the type ``hint`` (a class, ``str``, ``tuple[...]`` or Any)?"""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        return (
            isinstance(value, list | tuple)
            and len(value) == len(args)
            and all(_fits(v, a) for v, a in zip(value, args, strict=True))
        )
    if hint is Any:
        return True
    if hint is str:
        return isinstance(value, str | os.PathLike)  # folders may be given as paths
    return not isinstance(hint, type) or isinstance(value, hint)


@functools.cache
def _item_type(hook: str) -> Any:
    """The item type a content hook's specification promises (``list[X]``: X)."""
    returns = typing.get_type_hints(getattr(hookspecs, hook)).get("return")
    args = typing.get_args(returns)
    return args[0] if typing.get_origin(returns) is list and args else Any


def _checked_list(hook: str, value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise TypeError(f"{hook} returned {type(value).__name__}, expected a list")
    expected = _item_type(hook)
    for item in value:
        if not _fits(item, expected):
            name = getattr(expected, "__name__", str(expected))
            raise TypeError(f"{hook} returned a {type(item).__name__} item, expected {name}")
    return list(value)


def _contributions(
    host: PluginHost, options: Mapping[str, Any]
) -> tuple[dict[str, dict[str, list[Any]]], dict[str, Any]]:
    """Every plugin's content, by plugin and hook; and the options with their defaults."""
    content: dict[str, dict[str, list[Any]]] = {}
    for hook in CONTENT_HOOKS:
        for name, value in host.call_each(hook).items():
            try:
                items = _checked_list(hook, value)
            except TypeError as exc:
                host.fail(name, str(exc))
                continue
            content.setdefault(name, {})[hook] = items
    defaults = {
        o.id: o.default
        for name in host.names
        for o in content.get(name, {}).get("register_game_options", ())
    }
    return content, defaults | dict(options)


def _clash(
    name: str, content: dict[str, list[Any]], owners: dict[tuple[str, Any], str]
) -> tuple[str, dict[tuple[str, Any], str]]:
    """The first id of plugin ``name`` already registered (a message, or ""), and its ids."""
    mine: dict[tuple[str, Any], str] = {}
    for hook, (_, attr, what) in CONTENT_HOOKS.items():
        if attr is None:
            continue
        for item in content.get(hook, ()):
            key = (what, getattr(item, attr, None))
            if key in owners:
                first = owners[key]
                return (
                    f"registers {what} {key[1]!r}, which plugin {first!r} already registers "
                    f"(plugins {first!r} and {name!r} conflict; {name!r} is refused)"
                ), mine
            if key in mine:
                return f"registers {what} {key[1]!r} twice", mine
            mine[key] = name
    return "", mine


def _refuse_conflicts(host: PluginHost, content: dict[str, dict[str, list[Any]]]) -> None:
    """Refuse every plugin that registers an id an earlier plugin registered (DESIGN §3)."""
    owners: dict[tuple[str, Any], str] = {}
    for name in host.names:
        clash, mine = _clash(name, content.get(name, {}), owners)
        if clash:
            host.fail(name, clash)
            content.pop(name, None)
        else:
            owners.update(mine)


def _refuse_dangling(host: PluginHost, content: dict[str, dict[str, list[Any]]]) -> None:
    """Refuse plugins whose areas or adjacency name kinds or areas nobody registered."""
    changed = True
    while changed:
        changed = False
        live = [n for n in host.names if n in content]
        kinds = {k.id for n in live for k in content[n].get("register_area_kinds", ())}
        areas = {a.id for n in live for a in content[n].get("register_areas", ())}
        for name in live:
            bad = (
                [
                    f"area {a.id!r} has unknown kind {a.kind!r}"
                    for a in content[name].get("register_areas", ())
                    if a.kind not in kinds
                ]
                + [
                    f"adjacency {a!r}-{b!r} names an unknown area"
                    for hook in ("register_adjacency", "register_removed_adjacency")
                    for a, b in content[name].get(hook, ())
                    if a not in areas or b not in areas
                ]
                + [
                    f"area override {a.id!r} names an unknown area"
                    for a in content[name].get("register_area_overrides", ())
                    if a.id not in areas
                ]
                + [
                    f"area override {a.id!r} has unknown kind {a.kind!r}"
                    for a in content[name].get("register_area_overrides", ())
                    if a.kind not in kinds
                ]
            )
            if bad:
                host.fail(name, bad[0])
                content.pop(name)
                changed = True
                break


def _malformed(hook: str, item: Any) -> str:
    """Why ``item`` returned by ``hook`` cannot be used ("" when it can)."""
    if hook == "register_action_kinds":
        if not (isinstance(item, type) and issubclass(item, Action) and item.kind):
            return f"{hook}: {item!r} is not an Action subclass with a kind"
    elif hook == "register_event_texts":
        if not (isinstance(item, EventText) and callable(item.describe)):
            return f"{hook}: {item!r} is not an EventText with a callable describe"
    elif hook == "register_ai_answers":
        if not (isinstance(item, AiAnswer) and callable(item.answer)):
            return f"{hook}: {item!r} is not an AiAnswer with a callable answer"
    elif hook == "register_client_scripts":
        pair = isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str)
        url = item[0] if pair else item
        if not (isinstance(url, str) and url.startswith("/static/") and ".." not in url):
            return f"{hook}: {item!r} is not a URL under /static/ (or a (URL, option) pair)"
    elif hook == "register_ai_personalities":
        words = (getattr(item, field, None) for field in ("id", "name", "description"))
        if not (isinstance(item, AIPersonality) and all(isinstance(w, str) for w in words)):
            return (
                f"{hook}: {item!r} is not an AIPersonality (westeros.ai.personality) whose id, "
                "name and description are text"
            )
    return ""


def _refuse_malformed(host: PluginHost, content: dict[str, dict[str, list[Any]]]) -> None:
    """Refuse plugins whose action kinds, event texts, AI answers, client scripts or AI
    personalities are not usable."""
    for name in list(content):
        for hook in (
            "register_action_kinds",
            "register_event_texts",
            "register_ai_answers",
            "register_client_scripts",
            "register_ai_personalities",
        ):
            problems = [m for item in content[name].get(hook, ()) if (m := _malformed(hook, item))]
            if problems:
                host.fail(name, problems[0])
                content.pop(name)
                break


def _rule_hooks(host: PluginHost, options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every plugin's rule callables, by plugin and hook (None results dropped)."""
    out: dict[str, dict[str, Any]] = {}
    for hook in RULE_HOOKS:
        for name, value in host.call_each(hook, options=options).items():
            if value is None:
                continue
            if not callable(value):
                host.fail(
                    name,
                    f"{hook} returned {type(value).__name__}, expected a callable or None",
                )
                continue
            out.setdefault(name, {})[hook] = value
    return out


def _out_of_game(host: PluginHost, options: Mapping[str, Any]) -> list[str]:
    """The plugins whose ``plugin_in_game`` says they are not part of a game with
    ``options``."""
    return [
        name
        for name, value in host.call_each("plugin_in_game", options=options).items()
        if value is False
    ]


def load(
    options: Mapping[str, Any] | None = None,
    *,
    disable: Iterable[str] = (),
    extra: Iterable[Any] = (),
    autoload: bool | None = None,
) -> LoadedPlugins:
    """Load the plugins and merge their content and rule hooks for a game with ``options``."""
    host = PluginHost(disable, extra, autoload=autoload)
    content, opts = _contributions(host, options or {})
    rules = _rule_hooks(host, opts)
    for name in _out_of_game(host, opts):
        content[name] = {h: v for h, v in content.get(name, {}).items() if h in KEPT_OUT_OF_GAME}
        rules.pop(name, None)
    content = {n: c for n, c in content.items() if n in host.info}
    _refuse_malformed(host, content)
    _refuse_conflicts(host, content)
    _refuse_dangling(host, content)
    live = host.names  # only plugins that survived every check

    def merged(hook: str) -> list[Any]:
        return [item for n in live for item in content.get(n, {}).get(hook, ())]

    def rule(hook: str) -> tuple[Callable[..., Any], ...]:
        return tuple(RuleCall(n, hook, rules[n][hook]) for n in live if hook in rules.get(n, {}))

    kwargs = {field: merged(hook) for hook, (field, _, _) in CONTENT_HOOKS.items()}
    ui = {k: kwargs.pop(k) for k in UI_FIELDS}
    try:
        ruleset = Ruleset(
            **kwargs,
            hooks=RuleHooks(**{field: rule(h) for h, field in RULE_HOOKS.items()}),
            plugins=tuple((n, host.info[n].version) for n in host.names),
        )
    except ContentError as exc:
        raise PluginError(f"the plugins' content does not fit together: {exc}") from exc
    return LoadedPlugins(
        ruleset=ruleset,
        plugins=tuple(host.info[n] for n in host.names),
        errors=tuple(host.errors),
        ai_personalities=tuple(ui["ai_personalities"]),
        templates=tuple(ui["templates"]),
        static=tuple((str(prefix), str(path)) for prefix, path in ui["static"]),
        translations=tuple(ui["translations"]),
        client_scripts=tuple(
            (n, *_script(item))
            for n in live
            for item in content.get(n, {}).get("register_client_scripts", ())
        ),
        reference_cards=tuple(
            (n, card)
            for n in live
            for card in content.get(n, {}).get("register_reference_cards", ())
        ),
        help_sections=tuple(
            (n, section)
            for n in live
            for section in content.get(n, {}).get("register_help_sections", ())
        ),
    )


def build_ruleset(
    options: Mapping[str, Any] | None = None,
    *,
    disable: Iterable[str] = (),
    extra: Iterable[Any] = (),
    autoload: bool | None = None,
    strict: bool = False,
) -> Ruleset:
    """Merge every plugin's content and rule hooks into one Ruleset for a game with ``options``.

    Disabled plugins are logged; with ``strict`` any plugin problem raises PluginError instead
    (the modders' fixture uses this, so a broken plugin fails its own tests)."""
    loaded = load(options, disable=disable, extra=extra, autoload=autoload)
    if strict and loaded.errors:
        raise PluginError("; ".join(str(e) for e in loaded.errors))
    return loaded.ruleset


def check_requirements(
    required: Iterable[tuple[str, str]],
    *,
    available: Iterable[tuple[str, str]] | None = None,
) -> None:
    """Raise MissingPlugins naming every (name, version) in ``required`` that is not loaded.

    ``available`` defaults to the plugins that load now. A different version is not an error
    (it is logged): the game's own saved content decides whether it still replays."""
    have = dict(available if available is not None else load().ruleset.plugins)
    missing = [(n, v) for n, v in required if n not in have]
    if missing:
        names = ", ".join(f"{n} {v}".strip() for n, v in missing)
        raise MissingPlugins(
            f"this game needs plugin(s) that are not installed or failed to load: {names}"
        )
    for name, version in required:
        if version and have[name] and have[name] != version:
            log.warning("game made with %s %s; %s is loaded", name, version, have[name])
