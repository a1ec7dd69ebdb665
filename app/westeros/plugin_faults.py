"""Plugin faults at run time (issue 35 finding 3; modder's guide: docs/plugins.md).

Loading refuses a broken plugin (``westeros.plugins``); this module names the plugin whose code
fails later, during a game. Every rule callable runs inside a ``RuleCall``, which turns what it
raises into a ``PluginFault`` naming the plugin and the hook; the plugin's other code the engine
runs (its steps, card abilities) is found by its package in the traceback (``attributed``). The
session pauses such a game and records the fault in ``plugin-faults.json`` of the user plugin
folder (``record_fault``), which ``westeros plugins`` lists (``runtime_faults``) until the game
goes on (``clear_fault``)."""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from .engine.errors import EngineError

log = logging.getLogger("westeros.plugins")

PluginFailure = (Exception, SystemExit)
"""What a plugin's code may raise and be disabled for (KeyboardInterrupt still stops the app)."""


def describe(exc: BaseException) -> str:
    """What a plugin's code raised, in words."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    return f"{type(exc).__name__}: {exc}"


class PluginFault(Exception):
    """A plugin's rule callable raised during a game (issue 35 finding 3). ``plugin`` and
    ``hook`` name whose code failed; ``detail`` says what it raised (for the log and
    ``westeros plugins``: it may quote the true state, so clients are told only ``kind``, the
    exception's class)."""

    def __init__(self, plugin: str, hook: str, detail: str, kind: str) -> None:
        super().__init__(plugin, hook, detail, kind)  # the args rebuild it after pickling
        self.plugin = plugin
        self.hook = hook
        self.detail = detail
        self.kind = kind

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} failed in {self.hook}: {self.detail}"


@dataclasses.dataclass(frozen=True, slots=True)
class RuleCall:
    """A plugin's rule callable as the engine calls it: anything it raises but an engine error
    raised on purpose (``EngineError``: a refusal, content that does not fit a game) becomes a
    ``PluginFault`` naming ``plugin`` and ``hook``. A fault raised by another plugin's rule
    called from inside it keeps its own attribution."""

    plugin: str
    hook: str
    call: Callable[..., Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self.call(*args, **kwargs)
        except (EngineError, PluginFault):
            raise
        except PluginFailure as exc:
            kind = type(exc).__name__
            raise PluginFault(self.plugin, self.hook, describe(exc), kind) from exc


_packages: dict[str, str] = {}
"""The package (or module) of every plugin registered in this process -> its plugin name."""


def remember_package(obj: Any, name: str, module_path: str | None) -> None:
    module = module_path or (
        obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", "")
    )
    if module:
        _packages[module.removesuffix(".plugin")] = name


def _plugin_of(module: str) -> str | None:
    while module:
        if module in _packages:
            return _packages[module]
        module = module.rpartition(".")[0]
    return None


def attributed(exc: BaseException) -> PluginFault | None:
    """A ``PluginFault`` for ``exc`` when a plugin's code raised it outside a rule hook (a step
    or card ability the plugin registered): the innermost frame of its traceback that lies in
    a plugin's package names the plugin and the function; None when no plugin's code is on it
    or ``exc`` is an engine error raised on purpose (a refusal)."""
    if isinstance(exc, PluginFault):
        return exc
    if isinstance(exc, EngineError):
        return None
    found = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        plugin = _plugin_of(str(frame.f_globals.get("__name__", "")))
        if plugin is not None:
            found = (plugin, frame.f_code.co_qualname)
    if found is None:
        return None
    return PluginFault(found[0], found[1], describe(exc), type(exc).__name__)


FAULTS_FILE = "plugin-faults.json"
_faults_lock = threading.Lock()


@dataclasses.dataclass(frozen=True, slots=True)
class RuntimeFault:
    """A plugin fault that paused a game (``westeros plugins`` lists it): the plugin and its
    version, the hook, what it raised, the game and when (UTC, ISO 8601)."""

    plugin: str
    version: str
    hook: str
    detail: str
    game: str
    at: str


def faults_path() -> Path:
    """Where runtime plugin faults are recorded: ``plugin-faults.json`` in the user plugin
    folder (never loaded as a plugin: only ``*.py`` files are)."""
    from .plugins import user_plugin_dir  # the plugin manager imports this module

    return user_plugin_dir() / FAULTS_FILE


def runtime_faults() -> list[RuntimeFault]:
    """The recorded plugin faults, oldest first ([] when none or the file is unreadable)."""
    try:
        rows = json.loads(faults_path().read_text(encoding="utf-8"))
        return [RuntimeFault(**row) for row in rows]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, TypeError) as exc:
        log.warning("cannot read %s: %s", faults_path(), exc)
        return []


def _write_faults(faults: list[RuntimeFault]) -> None:
    path = faults_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        rows = [dataclasses.asdict(f) for f in faults]
        temporary.write_text(json.dumps(rows, indent=1), encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        log.warning("cannot record plugin faults in %s: %s", path, exc)


def record_fault(fault: PluginFault, version: str, game: str) -> None:
    """Record ``fault`` (of the plugin at ``version``) as the one that paused ``game``."""
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    entry = RuntimeFault(fault.plugin, version, fault.hook, fault.detail, game, now)
    with _faults_lock:
        _write_faults([f for f in runtime_faults() if f.game != game] + [entry])


def clear_fault(game: str) -> None:
    """Forget the fault recorded for ``game`` (it went on), if any."""
    with _faults_lock:
        faults = runtime_faults()
        if any(f.game == game for f in faults):
            _write_faults([f for f in faults if f.game != game])
