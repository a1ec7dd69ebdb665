"""A pytest plugin for modders: fixtures that build the real engine and the real game core with
your plugin loaded.

Installed through the ``pytest11`` entry point, so its fixtures are available in any test
suite once ``westeros`` is installed (modder's guide: docs/plugins.md, "Testing your plugin"):

- ``westeros_ruleset``: the real ``Ruleset`` with your plugin, for engine-level tests;
- ``westeros_game``: a stored game in the real ``GameSession`` (the core's authority: it checks,
  applies and saves every action) with your plugin, driven by actions, whose log reads in
  any language; a log text of your plugin that raises fails the test (``LogTextError``);
- ``westeros_core``: the real local core (the board's web server) with your plugin, on a free
  127.0.0.1 port, for a browser check of your screens;
- ``westeros_page``: a page of headless Chromium driven by Playwright (skipped, with the
  reason, when Playwright or Chromium is missing); a script error on it fails the test."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from .engine.actions import Action
from .engine.content import Ruleset
from .engine.flow import Prompt, pending, random_action
from .engine.state import Event, State
from .engine.view import event_view, player_view, visible
from .plugins import ENV_NO_AUTOLOAD, ENV_PLUGIN_DIR, build_ruleset, load

ENV_CHROMIUM = "WESTEROS_CHROMIUM"
"""The Chromium executable ``westeros_page`` launches (default: Debian's ``/usr/bin/chromium``;
empty: Playwright's own, from ``playwright install chromium``)."""
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run")
CORE_TOKEN = "westeros-plugin-test-token"
"""The launch token of the core ``westeros_core`` starts (open ``core.url`` + ``?token=``)."""
STARTUP_TIMEOUT_S = 20.0


class LogTextError(AssertionError):
    """A log text (``register_event_texts``) raised while wording an event. In a game the
    sentence would silently become the generic line ("Stark: omen seen"); in tests it fails."""


def _ruleset(
    plugins: Iterable[Any], options: Mapping[str, Any] | None, disable: Iterable[str]
) -> Ruleset:
    return build_ruleset(options, extra=plugins, disable=disable, autoload=False, strict=True)


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
        return _ruleset(plugins, options, disable)

    return make


@dataclasses.dataclass
class PluginGame:
    """A stored game in the real ``GameSession`` with every seat played by the test.

    ``act`` sends one decision through the session's checks (pending, legal, fresh state) and
    saves it; ``log`` words the game's events as a seat reads them, in a language."""

    session: Any
    translations: Callable[[str], Any]

    @property
    def state(self) -> State:
        """The true state now (read it; change it only through ``act``)."""
        return self.session.state

    @property
    def rules(self) -> Ruleset:
        """The game's Ruleset (your plugin's content included)."""
        return self.session.state.rules

    def pending(self) -> dict[str, Prompt]:
        """{house: prompt} of the houses that must decide now."""
        return pending(self.state)

    def view(self, house: str | None) -> dict[str, Any]:
        """What ``house`` (None: a spectator) is shown: ``player_view`` (docs/protocol.md)."""
        return player_view(self.state, house)

    def act(self, house: str, action: Action) -> list[Event]:
        """Decide ``action`` for ``house`` and return the events it caused. Raises the
        engine's ``IllegalAction`` (or ``NotPending``) and changes nothing when refused."""
        return list(self.session.submit(house, action, self.session.serial).events)

    def play(
        self,
        until: Callable[[PluginGame], bool],
        *,
        seed: int = 0,
        max_decisions: int = 5_000,
    ) -> int:
        """Random legal decisions (``seed``) for every pending house until ``until(game)`` is
        true; returns how many were made. Fails when the game ends or the limit is reached
        first."""
        rnd = random.Random(seed)
        for made in range(max_decisions):
            if until(self):
                return made
            waiting = self.pending()
            if not waiting:
                pytest.fail(f"the game ended after {made} decisions before the condition held")
            house = rnd.choice(sorted(waiting))
            self.act(house, random_action(self.state, house, rnd))
        pytest.fail(f"the condition did not hold within {max_decisions} decisions")

    def events(self, house: str | None = None) -> list[Event]:
        """Every event so far that ``house`` may see (None: the public ones)."""
        return [e for _, e in self.session.history() if visible(e, house)]

    def log(self, lang: str = "en", house: str | None = None) -> list[str]:
        """The log as ``house`` reads it in ``lang`` (``"en"``, ``"zh_CN"``): one sentence per
        event it may see, worded by the plugins' log texts and translated by the game's and the
        plugins' catalogs. A log text that raises raises ``LogTextError`` naming the event."""
        from .server.narrate import Narrator

        narrator = Narrator(self.rules, self.translations(lang))
        out = []
        for event in self.events(house):
            data = event_view(event)
            text = self.rules.event_texts.get(event.kind)
            if text is None:
                out.append(narrator(data))
                continue
            try:
                out.append(text.describe(narrator, data))
            except Exception as exc:
                raise LogTextError(
                    f"the log text of {event.kind!r} raised {type(exc).__name__}: {exc} "
                    f"(event {data!r})"
                ) from exc
        return out


@pytest.fixture
def westeros_game(tmp_path: Path) -> Iterator[Callable[..., PluginGame]]:
    """A factory: ``westeros_game(my_plugin, players=3, seed=1, options={...})`` stores a new
    game with the default and bundled plugins plus the given ones (installed plugins are not
    loaded; a plugin problem raises ``PluginError``) in a fresh SQLite database and returns it
    as a ``PluginGame`` whose every seat the test plays."""
    from .server.i18n import Catalogs
    from .session import GameSession
    from .session.seats import Human
    from .store import GameStore

    stores: list[Any] = []
    locale = Path(__file__).resolve().parent / "locale"

    def make(
        *plugins: Any,
        players: int = 3,
        seed: int | str = 1,
        options: Mapping[str, Any] | None = None,
        disable: Iterable[str] = (),
    ) -> PluginGame:
        disable = tuple(disable)
        rules = _ruleset(plugins, options, disable)

        def rulesets(_: Any, opts: Mapping[str, Any]) -> Ruleset:
            return _ruleset(plugins, opts, disable)

        url = f"sqlite:///{tmp_path / f'westeros-{len(stores)}.db'}"
        store = GameStore.open(url, rulesets=rulesets)
        stores.append(store)
        setup = rules.setups[players]
        seats = {house: Human() for house in setup.seated_houses()}
        session = GameSession.create(store, rules, players, seats, seed, options)
        folders: list[str | Path] = [
            locale,
            *load(options, extra=plugins, disable=disable, autoload=False).translations,
        ]
        return PluginGame(session, Catalogs(folders).translations)

    yield make
    for store in stores:
        store.close()


@dataclasses.dataclass
class LiveCore:
    """The real local core serving the board: its address and launch token."""

    url: str
    token: str
    app: Any

    def page_url(self, path: str = "/", lang: str = "en") -> str:
        """``path`` of the core with the launch token (and the page language)."""
        return f"{self.url}{path}?token={self.token}&lang={lang}"

    def session(self, game_id: str) -> Any:
        """The ``GameSession`` of a game started on the core (its true state: ``.state``)."""
        return self.app.state.games.get(game_id)


def _installed(name: str) -> bool:
    return any(ep.name == name for ep in importlib.metadata.entry_points(group="westeros.plugins"))


def _plugin_folder(plugins: Iterable[Any], folder: Path) -> None:
    """A user plugin folder that makes the core find each plugin module not installed yet:
    one file per plugin, named after its top-level package, re-exporting its hooks."""
    folder.mkdir(parents=True, exist_ok=True)
    for module in plugins:
        top = module.__name__.split(".")[0]
        if _installed(top):
            continue
        version = getattr(importlib.import_module(top), "__version__", "")
        (folder / f"{top}.py").write_text(
            f"from {module.__name__} import *  # noqa: F403\n__version__ = {version!r}\n",
            encoding="utf-8",
        )


@pytest.fixture
def westeros_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., LiveCore]]:
    """A factory: ``westeros_core(my_plugin_module)`` starts the real local core (the server
    the desktop window shows) with your plugin on a free 127.0.0.1 port, with a fresh SQLite
    database and no other installed plugin, and returns a ``LiveCore``. The core finds your
    plugin as it finds an installed one (a module that is not installed yet is offered to it
    through a temporary user plugin folder). Every AI seat plays the game's baseline AI.
    Stopped when the test ends."""
    import uvicorn

    from .ai import BaselineBot
    from .server import create_app, free_port

    folder = tmp_path / "plugins"
    monkeypatch.delenv(ENV_NO_AUTOLOAD, raising=False)
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    monkeypatch.setenv(ENV_PLUGIN_DIR, str(folder))
    running: list[tuple[Any, threading.Thread]] = []

    def start(*plugins: Any) -> LiveCore:
        _plugin_folder(plugins, folder)
        port = free_port()
        app = create_app(
            token=CORE_TOKEN,
            store_url=f"sqlite:///{tmp_path / f'core-{len(running)}.db'}",
            port=port,
            ai_factory=lambda house, seat: BaselineBot(seed=sum(map(ord, house))),
        )
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, name="westeros-plugin-core", daemon=True)
        thread.start()
        running.append((server, thread))
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail("the local core did not start")
            time.sleep(0.05)
        return LiveCore(f"http://127.0.0.1:{port}", CORE_TOKEN, app)

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The Playwright driver of the test session (skipped when Playwright is missing)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser checks need playwright")
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture
def westeros_page(playwright: Any) -> Iterator[Any]:
    """A fresh page of headless Chromium (``WESTEROS_CHROMIUM``, default /usr/bin/chromium),
    1600x1000; any script error on the page fails the test after its body."""
    executable = os.environ.get(ENV_CHROMIUM, DEFAULT_CHROMIUM)
    if executable and not Path(executable).exists():
        pytest.skip(f"{executable} is missing (apt-get install chromium, or set {ENV_CHROMIUM})")
    browser = playwright.chromium.launch(
        executable_path=executable or None, args=list(CHROMIUM_ARGS)
    )
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    browser.close()
    assert not errors, f"script errors on the page: {errors}"
