"""The desktop shell (DESIGN §1, §4): start the local core on 127.0.0.1 on a free port with a
per-launch secret token, open it in a pywebview window (or the system browser), log to the user
log folder, and stop the core cleanly when the window closes. Thin by design: no rules here.

What the terminal shows is for people: the address once the core listens, and one paragraph
(what happened, what to do) when a window, a browser or the database cannot be opened. The
details, tracebacks included, go to the log file; ``-v`` shows them on the terminal too."""

from __future__ import annotations

import gettext
import html
import importlib.util
import logging
import os
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal

import platformdirs

from . import __version__
from .loopback import LOCALHOST, free_port, listening_socket, new_token
from .microphone import microphone_only_for
from .window_title import follow_page_title

if TYPE_CHECKING:
    from .store import db
    from .turn_watch import TurnWatch

log = logging.getLogger("westeros.desktop")

_ = gettext.translation(
    "westeros", localedir=Path(__file__).parent / "locale", fallback=True
).gettext

GuiName = Literal["qt", "gtk", "cef", "mshtml", "edgechromium", "cocoa"]
"""The pywebview backends this app may ask for."""

APP_NAME = "westeros"
DISTRIBUTION = "westeros-game"
WINDOW_SIZE = (1440, 900)
MIN_SIZE = (960, 640)
DATABASE_ENV = "WESTEROS_DATABASE_URL"
"""The variable naming the database (``store.db.ENV_DATABASE_URL``; the store is not imported
before the window opens)."""
EXIT_GRACE_S = 5.0
"""How long the process may take to end after the window closed (``leave_in_time``)."""
BACKGROUND = "#221d18"
"""The window's colour until the start screen is shown: the pages' own (``--bg``, base.css)."""


def log_file() -> Path:
    """Where the app writes its log: the platform's user log folder."""
    folder = Path(platformdirs.user_log_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "westeros.log"


def start_screen_file() -> Path:
    """Where the start screen is kept between launches (``server.start_snapshot``)."""
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "start-screen.json"


def template_cache() -> Path:
    """Where the start-up keeps the pages' compiled templates for the next start: the
    platform's user cache folder."""
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "templates"


CONSOLE_HANDLER = "westeros-console"
SAID = "said_in_a_paragraph"
"""Log records with this attribute (``extra={SAID: True}``) were told to the user in a
paragraph already; the terminal shows them only with ``-v``."""


class _NoTraceback(logging.Formatter):
    """The terminal's format without verbose: the message only, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname} {record.name}: {record.getMessage()}"


def console_logging(verbose: bool) -> None:
    """Log to the terminal: with ``verbose`` everything from INFO on, tracebacks included;
    otherwise only the app's own warnings, one line each (libraries' noise goes to the log)."""
    handler = logging.StreamHandler()
    if verbose:
        handler.setLevel(logging.INFO)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    else:
        handler.setLevel(logging.WARNING)
        handler.addFilter(
            lambda record: (
                record.name.split(".")[0] == "westeros" and not getattr(record, SAID, False)
            )
        )
        handler.setFormatter(_NoTraceback())
    handler.set_name(CONSOLE_HANDLER)
    root = logging.getLogger()
    for previous in [h for h in root.handlers if h.get_name() == CONSOLE_HANDLER]:
        root.removeHandler(previous)
    root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)


def setup_logging() -> Path:
    """Send the app's log records (INFO and up, with tracebacks) to a rotating file in the user
    log folder."""
    path = log_file()
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(min(root.level or logging.WARNING, logging.INFO))
    return path


def say(paragraph: str) -> None:
    """Print one paragraph for the user on the terminal (stderr), followed by a blank line."""
    print(f"{paragraph}\n", file=sys.stderr, flush=True)


class CoreStartError(RuntimeError):
    """The local core did not come up; the message is one paragraph for the user."""


class LocalCore:
    """The local core served by uvicorn in a background thread (DESIGN §4)."""

    def __init__(
        self,
        *,
        store_url: str | None = None,
        ai_delay: float = 0.4,
        port: int | None = None,
        start_screen: Path | None = None,
    ) -> None:
        """``start_screen``: the file where the start screen is kept between launches
        (``server.start_snapshot``; None: never kept)."""
        self.host = LOCALHOST
        self.token = new_token()
        self.port = port or free_port(self.host)
        self.store_url = store_url
        self.ai_delay = ai_delay
        self.set_aside: db.SetAside | None = None
        self.app: Any = None
        self.start_screen = start_screen
        self.gate: Any = None
        self._kept: Any = None
        self._socket: socket.socket | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The address the window opens: the start screen with the launch token."""
        return f"http://{self.host}:{self.port}/?token={self.token}"

    def _open_app(self) -> Any:
        """Set an unreadable SQLite file aside, then build the app on the database."""
        from .server import create_app
        from .store import db

        where = self.store_url or db.database_url()
        try:
            self.set_aside = db.set_aside_unreadable(self.store_url)
            app = create_app(
                token=self.token,
                port=self.port,
                store_url=self.store_url,
                ai_delay=self.ai_delay,
                template_cache=template_cache(),
            )
        except Exception as error:
            log.exception("the database %s could not be opened", where, extra={SAID: True})
            raise CoreStartError(
                _(
                    "Westeros could not open its database ({where}): {error}. Check that the "
                    "folder exists and may be written to (or that the database server answers), "
                    "or choose another database with --database URL or the {env} environment "
                    "variable."
                ).format(where=where, error=error, env=db.ENV_DATABASE_URL)
            ) from error
        if self.set_aside is not None:
            log.info(
                "the database %s could not be read (%s); it was kept as %s",
                self.set_aside.original,
                self.set_aside.reason,
                self.set_aside.kept,
            )
            app.state.core.templates.globals["database_set_aside"] = str(self.set_aside.kept)
        self.app = app
        return app

    def _stopped_while_starting(self) -> CoreStartError:
        return CoreStartError(
            _(
                "The local core stopped while starting: it could not listen on "
                "{host}:{port}. Is another program using that port? Choose another "
                "one, or leave the port out to use a free one."
            ).format(host=self.host, port=self.port)
        )

    def listen(self) -> str:
        """Listen on the core's port before the app is built (a window may open :attr:`url`
        at once: its request waits until the core answers); returns :attr:`url`."""
        if self._socket is None:
            try:
                self._socket = listening_socket(self.host, self.port)
            except OSError as error:
                log.info("cannot listen on %s:%s", self.host, self.port, exc_info=True)
                raise self._stopped_while_starting() from error
        return self.url

    def start(self, timeout: float = 30.0, prepare: Callable[[Any], None] | None = None) -> str:
        """Listen (if not yet) and serve at once through a ``core_gate.Gate`` (the kept start
        screen, if still valid, is shown from the start); build the app, let ``prepare`` see
        it, and open the gate; returns :attr:`url` once the core accepts connections."""
        import uvicorn

        from .server.core_gate import Gate
        from .server.security import LocalOnly

        self.listen()

        def guard(app: Any) -> Any:
            return LocalOnly(app, token=self.token, port=self.port)

        try:
            self.gate = Gate(guard, self._kept_screen())
        except Exception:  # a kept start screen never keeps the app from starting
            log.warning("the kept start screen cannot be shown", exc_info=True)
            self.gate = Gate(guard, None)
        config = uvicorn.Config(
            self.gate, host=self.host, port=self.port, log_config=None, lifespan="on"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._serve, args=(self._socket,), name="local-core", daemon=True
        )
        self._thread.start()
        try:
            app = self._open_app()
            if prepare is not None:
                prepare(app)
        except BaseException as error:
            self.gate.fail(str(error))
            raise
        if self.start_screen is not None:
            app.state.core.games.on_close(self._render_start_screen)
        self.gate.open(app)
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive():
                raise self._stopped_while_starting()
            if time.monotonic() > deadline:
                raise CoreStartError(
                    _("The local core did not start within {seconds:.0f} s.").format(
                        seconds=timeout
                    )
                )
            time.sleep(0.02)
        log.info("local core serving on %s:%s", self.host, self.port)
        return self.url

    def _close_socket(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def _serve(self, sock: socket.socket) -> None:
        """Run uvicorn on ``sock``; a failure is logged."""
        try:
            self._server.run(sockets=[sock])
        except BaseException:
            log.info("the local core stopped", exc_info=True)
        finally:
            self._close_socket()

    @property
    def running(self) -> bool:
        """Whether the core's thread still serves."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask uvicorn to finish and wait for the thread (games are saved per action); stop
        listening (also when the core never started)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self._close_socket()
        self._keep_start_screen()
        log.info("local core stopped")

    def _source(self) -> str:
        """How the core is told which database to open (``start_snapshot``): the URL given
        (``WESTEROS_DATABASE_URL``, as ``store.db`` reads it) or the user data folder."""
        given = self.store_url or os.environ.get(DATABASE_ENV) or ""
        return f"{given}\n{platformdirs.user_data_dir(APP_NAME)}"

    def _kept_screen(self) -> Any:
        """The start screen kept by the last launch, if nothing it shows changed since."""
        if self.start_screen is None:
            return None
        from .plugin_env import user_plugin_dir
        from .server import start_snapshot

        return start_snapshot.load(self.start_screen, self._source(), user_plugin_dir())

    def _render_start_screen(self) -> None:
        """When the games close (nothing writes the database any more, and it is still
        open): render the start screen in the language it was last asked in, to keep."""
        from .server import start_snapshot

        language = self.gate.language if self.gate is not None else None
        if language is None:
            return
        try:
            self._kept = start_snapshot.render(self.app, language, self.port)
        except Exception:
            log.warning("the start screen could not be rendered to keep", exc_info=True)

    def _keep_start_screen(self) -> None:
        """Once the core stopped and closed its database: keep the rendered start screen under
        the key of the files as they are now (or forget the last one)."""
        if self.start_screen is None or self.app is None:
            return
        from .plugin_env import user_plugin_dir
        from .server import start_snapshot

        try:
            database = start_snapshot.database_of(self.app)
            if self._kept is None or database is None or self.running:
                start_snapshot.forget(self.start_screen)
                return
            start_snapshot.save(
                self.start_screen,
                self._kept,
                self._source(),
                database,
                start_snapshot.watched(self.app),
                user_plugin_dir(),
            )
        except Exception:  # the next launch only waits for the core
            log.warning("the start screen could not be kept", exc_info=True)
            start_snapshot.forget(self.start_screen)


def set_aside_paragraph(set_aside: db.SetAside) -> str:
    """What the terminal says when an unreadable database was set aside."""
    return _(
        "The saved games in {original} could not be read ({reason}). The file was kept, "
        "unchanged, as {kept}, and Westeros started with a fresh database. To get the old "
        "games back, restore that file from a backup or repair it with SQLite's tools."
    ).format(original=set_aside.original, reason=set_aside.reason, kept=set_aside.kept)


def start_core(core: LocalCore, prepare: Callable[[Any], None] | None = None) -> str:
    """Start ``core`` (``prepare`` sees its app before it serves) and return its address; says
    so when an unreadable database was set aside. A :class:`CoreStartError` (one paragraph) is
    printed before it is raised on."""
    try:
        url = core.start(prepare=prepare)
    except CoreStartError as error:
        say(str(error))
        raise
    if core.set_aside is not None:
        say(set_aside_paragraph(core.set_aside))
    return url


def _on_stop_signals(handler: Any) -> None:
    """Handle Ctrl+C (SIGINT) and SIGTERM with ``handler`` (only the main thread may)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _quit_now(_signum: int, _frame: FrameType | None) -> None:
    """A second Ctrl+C while stopping: quit at once, quietly (games are saved per action)."""
    os._exit(130)


def serve_until_interrupted(
    core: LocalCore, url: str, then: Callable[[], None] | None = None
) -> int:
    """Print the address, run ``then`` and serve until Ctrl+C or SIGTERM, then stop the core;
    a second one while stopping quits at once, without a traceback. The handlers are in place
    before the address is printed, so an interrupt at any moment after it is handled."""
    _on_stop_signals(_interrupt)
    try:
        print_address(url)
        if then is not None:
            then()
        while core.running:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    _on_stop_signals(_quit_now)
    core.stop()
    # Python resets its own handlers while exiting; one more Ctrl+C then must not kill it.
    _on_stop_signals(signal.SIG_IGN)
    return 0


def error_page(error: BaseException, log_path: Path) -> str:
    """A friendly page shown in the window when the core cannot start."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Westeros</title>"
        "<style>body{font-family:sans-serif;background:#2b2118;color:#f4ead5;padding:3em}"
        "code{background:#0003;padding:.2em .4em}</style></head><body>"
        f"<h1>{html.escape(_('Westeros could not start'))}</h1>"
        f"<p>{html.escape(str(error))}</p>"
        f"<p>{html.escape(_('The full report is in the log file:'))} "
        f"<code>{html.escape(str(log_path))}</code></p>"
        f"<p>{html.escape(_('Closing this window quits. Your saved games are not affected.'))}"
        "</p></body></html>"
    )


def default_gui() -> GuiName | None:
    """The pywebview backend: Edge WebView2 on Windows, Qt elsewhere if installed."""
    if sys.platform == "win32":
        return "edgechromium"
    return None


def window_problem() -> str | None:
    """Why no desktop window can be opened here, found before trying (Qt ends the process when
    it has no display), or None if it may work."""
    if sys.platform in ("win32", "darwin"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return _("there is no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
    has_qt = importlib.util.find_spec("qtpy") is not None and all(
        importlib.util.find_spec(name) is not None for name in ("PyQt6", "PyQt6.QtWebEngineCore")
    )
    if not (has_qt or importlib.util.find_spec("gi") is not None):
        return _("neither the Qt nor the GTK backend of pywebview is installed")
    return None


def no_window_paragraph(reason: str, log_path: Path) -> str:
    """What the terminal says when the desktop window cannot be opened."""
    return _(
        "No desktop window could be opened: {reason}. Westeros opens in your web browser "
        "instead. To get the window on Linux, install the Qt backend (pip install "
        "'{distribution}[qt]'); to go straight to the browser, run westeros --browser. "
        "Details are in the log: {log} (run westeros -v to see them here)."
    ).format(reason=reason, distribution=DISTRIBUTION, log=log_path)


def _quiet_pywebview() -> None:
    """pywebview prints its own records (tracebacks of every backend it tries) to the terminal;
    they go to the log instead, and to the terminal only through the root logger's handler."""
    pywebview = logging.getLogger("pywebview")
    for handler in list(pywebview.handlers):
        pywebview.removeHandler(handler)
    pywebview.propagate = True


def print_address(url: str) -> None:
    """Tell the user where the game is (only once the core listens)."""
    print(_("Westeros is running at {url}\nPress Ctrl+C to quit.").format(url=url), flush=True)


def _open_browser(url: str) -> None:
    """Open ``url`` in the system browser, or say in one paragraph that none could be opened."""
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        log.info("the browser could not be started", exc_info=True)
        opened = False
    if not opened:
        say(
            _(
                "No web browser could be opened (none was found or it failed to start). Open "
                "the address above in a browser yourself; Westeros keeps running until you "
                "press Ctrl+C."
            )
        )


def serve_in_browser(core: LocalCore, url: str) -> int:
    """Open ``url`` in the system browser and serve until Ctrl+C, watching the player's
    online games meanwhile (a notice's board opens in the browser)."""
    watching: list[TurnWatch] = []

    def then() -> None:
        _open_browser(url)
        watching.extend(_watch_turns(core, webbrowser.open))

    try:
        return serve_until_interrupted(core, url, then=then)
    finally:
        for watch in watching:
            watch.stop()


def launch(
    *, browser: bool = False, gui: GuiName | None = None, store_url: str | None = None
) -> int:
    """Run the desktop app until its window closes (or, with ``browser``, until Ctrl+C).

    The window opens at once on the core's address while the core is built and started in a
    thread beside it: the window's first request waits on the listening socket until the core
    answers with the start screen (issue 37 point 5: start-up within 2x a bare window). A core
    that cannot start shows why in that window."""
    path = setup_logging()
    log.info("Westeros %s starting", __version__)
    problem = None if browser else window_problem()
    if problem is not None:
        log.info("no desktop window: %s", problem)
        say(no_window_paragraph(problem, path))
        browser = True
    core = LocalCore(store_url=store_url, start_screen=start_screen_file())
    if browser:
        try:
            return serve_in_browser(core, start_core(core, prepare=_follow_language))
        except CoreStartError:
            return 1
    try:
        url = core.listen()
    except CoreStartError as error:
        say(str(error))
        return _show_error_window(error, path)
    import webview

    _quiet_pywebview()
    webview.settings["ALLOW_DOWNLOADS"] = True  # game export files
    window = webview.create_window(
        "Westeros",
        url,
        width=WINDOW_SIZE[0],
        height=WINDOW_SIZE[1],
        min_size=MIN_SIZE,
        background_color=BACKGROUND,
    )
    assert window is not None  # None only for a window made later from another thread
    follow_page_title(window)
    microphone_only_for(window, url, gui or default_gui())  # table voice: our pages only
    failed: list[CoreStartError] = []
    watching: list[TurnWatch] = []
    waiting = {"shown", "started"}
    both = threading.Lock()

    def watch_once_shown_and_started(step: str) -> None:
        """The turn watcher starts once the window shows and the core serves."""
        with both:
            waiting.discard(step)
            if waiting:
                return
        watching.extend(_watch_turns(core, core.app.state.open_remote))

    window.events.shown += lambda: watch_once_shown_and_started("shown")

    def start_beside_the_window() -> None:
        try:
            start_core(core, prepare=_offer_play_online)
            watch_once_shown_and_started("started")
        except CoreStartError as error:
            failed.append(error)
            try:
                window.load_html(error_page(error, path))
            except Exception:  # no window after all: the terminal has said why
                log.exception("the error page could not be shown")

    starting = threading.Thread(target=start_beside_the_window, name="core-start", daemon=True)
    starting.start()
    try:
        webview.start(gui=gui or default_gui(), private_mode=True)
    except Exception as error:
        log.exception("no desktop window could be opened", extra={SAID: True})
        say(no_window_paragraph(str(error), path))
        starting.join()
        return 1 if failed else serve_in_browser(core, url)
    starting.join()
    for watch in watching:  # before the core: it writes what it saw to the core's database
        watch.stop()
    core.stop()
    return 1 if failed else 0


def leave_in_time(code: int) -> None:
    """Make sure the process ends once the app is done (``westeros`` calls it after
    :func:`launch` returned: the window closed and the core stopped). pywebview may
    leave a thread of its own waiting for a window that is gone (its script bridge, when the
    window closes while a page loads), and Python waits for such threads before it exits: the
    app would stay in the background. A daemon timer ends the process with ``code`` after
    ``EXIT_GRACE_S`` if it is still there (every action is saved as it is taken)."""

    def leave() -> None:
        log.warning("a window thread still ran %.0f s after the window closed", EXIT_GRACE_S)
        logging.shutdown()
        os._exit(code)

    timer = threading.Timer(EXIT_GRACE_S, leave)
    timer.daemon = True
    timer.start()


def _follow_language(app: Any) -> None:
    """Follow the language of the app's pages, the turn notices' language
    (``turn_watch.AppLanguage``)."""
    from .turn_watch import AppLanguage

    language = AppLanguage(app.state.core.catalogs, app.state.core.store)
    app.add_middleware(language.middleware)
    app.state.app_language = language


def _offer_play_online(app: Any) -> None:
    """Play online in the app: a remote page opens in a process of its own, and the key
    its server keeps is stored for the turn watcher (``turn_watch.remember``)."""
    from functools import partial

    from .remote import open_window
    from .turn_watch import remember

    _follow_language(app)
    app.state.open_remote = partial(open_window, on_account=partial(remember, app.state.core.store))


def _watch_turns(core: LocalCore, open_url: Callable[[str], object]) -> list[TurnWatch]:
    """Start the turn watcher of the player's online games (``turn_watch``) on ``core``'s
    store, ``open_url`` opening a notice's board; none when the core has no app."""
    if core.app is None:
        return []
    from .turn_watch import TurnWatch

    state = core.app.state
    watch = TurnWatch(state.core.store, open_url=open_url, language=state.app_language.current)
    watch.start()
    return [watch]


def _show_error_window(error: CoreStartError, path: Path) -> int:
    """Show why the core could not start in a window (the terminal has it already)."""
    import webview

    _quiet_pywebview()
    try:
        webview.create_window("Westeros", html=error_page(error, path))
        webview.start(gui=default_gui())
    except Exception:
        log.exception("the error window could not be opened either")
    return 1
