"""The desktop shell (DESIGN §1, §4): start the local core on 127.0.0.1 on a free port with a
per-launch secret token, open it in a pywebview window (or the system browser), log to the user
log folder, and stop the core cleanly when the window closes. Thin by design: no rules here."""

from __future__ import annotations

import html
import logging
import sys
import threading
import time
import webbrowser
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

import platformdirs

from . import __version__

log = logging.getLogger("westeros.desktop")

APP_NAME = "westeros"
WINDOW_SIZE = (1440, 900)
MIN_SIZE = (960, 640)


def log_file() -> Path:
    """Where the app writes its log: the platform's user log folder."""
    folder = Path(platformdirs.user_log_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "westeros.log"


def setup_logging() -> Path:
    """Send the app's log records to a rotating file in the user log folder."""
    path = log_file()
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(min(root.level or logging.WARNING, logging.INFO))
    return path


class CoreStartError(RuntimeError):
    """The local core did not come up."""


class LocalCore:
    """The local core served by uvicorn in a background thread (DESIGN §4)."""

    def __init__(self, *, store_url: str | None = None, ai_delay: float = 0.4) -> None:
        from .server import LOCALHOST, create_app, free_port, new_token

        self.host = LOCALHOST
        self.token = new_token()
        self.port = free_port(self.host)
        self.store_url = store_url
        self.ai_delay = ai_delay
        self._create_app = create_app
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The address the window opens: the start screen with the launch token."""
        return f"http://{self.host}:{self.port}/?token={self.token}"

    def start(self, timeout: float = 30.0) -> str:
        """Build the app and serve it; returns :attr:`url` once the core accepts connections."""
        import uvicorn

        app = self._create_app(
            token=self.token, port=self.port, store_url=self.store_url, ai_delay=self.ai_delay
        )
        config = uvicorn.Config(app, host=self.host, port=self.port, log_config=None, lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="local-core", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive():
                raise CoreStartError("the local core stopped while starting (see the log)")
            if time.monotonic() > deadline:
                raise CoreStartError(f"the local core did not start within {timeout:.0f} s")
            time.sleep(0.02)
        log.info("local core serving on %s:%s", self.host, self.port)
        return self.url

    def _serve(self) -> None:
        """Run uvicorn; a failure (uvicorn exits on a port it cannot bind) is logged."""
        try:
            self._server.run()
        except BaseException:
            log.exception("the local core stopped")

    def stop(self, timeout: float = 10.0) -> None:
        """Ask uvicorn to finish and wait for the thread (games are saved per action)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        log.info("local core stopped")


def error_page(error: BaseException, log_path: Path) -> str:
    """A friendly page shown in the window when the core cannot start."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Westeros</title>"
        "<style>body{font-family:sans-serif;background:#2b2118;color:#f4ead5;padding:3em}"
        "code{background:#0003;padding:.2em .4em}</style></head><body>"
        "<h1>Westeros could not start</h1>"
        "<p>The game's local core did not start, so there is nothing to show yet.</p>"
        f"<p>What went wrong: <code>{html.escape(str(error))}</code></p>"
        f"<p>The full report is in the log file: <code>{html.escape(str(log_path))}</code></p>"
        "<p>Closing this window quits. Your saved games are not affected.</p></body></html>"
    )


def default_gui() -> str | None:
    """The pywebview backend: Edge WebView2 on Windows, Qt elsewhere if installed."""
    if sys.platform == "win32":
        return "edgechromium"
    return None


def _serve_in_browser(core: LocalCore, url: str) -> int:
    """Open ``url`` in the system browser and serve until Ctrl+C."""
    print(f"Westeros is running at {url}\nPress Ctrl+C to quit.", flush=True)
    webbrowser.open(url)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        core.stop()
    return 0


def launch(*, browser: bool = False, gui: str | None = None, store_url: str | None = None) -> int:
    """Run the desktop app until its window closes (or, with ``browser``, until Ctrl+C)."""
    path = setup_logging()
    log.info("Westeros %s starting", __version__)
    core = LocalCore(store_url=store_url)
    try:
        url = core.start()
    except Exception as error:
        log.exception("the local core failed to start")
        if browser:
            print(f"Westeros could not start: {error}\nSee the log: {path}", file=sys.stderr)
            return 1
        import webview

        webview.create_window("Westeros", html=error_page(error, path))
        webview.start(gui=gui or default_gui())
        return 1
    if browser:
        return _serve_in_browser(core, url)
    import webview

    webview.settings["ALLOW_DOWNLOADS"] = True  # game export files
    webview.create_window(
        "Westeros", url, width=WINDOW_SIZE[0], height=WINDOW_SIZE[1], min_size=MIN_SIZE
    )
    try:
        webview.start(gui=gui or default_gui(), private_mode=True)
    except Exception:
        log.exception("no desktop window could be opened; using the system browser")
        print(
            "No desktop window could be opened (on Linux: pip install 'westeros[qt]').\n"
            "Using the system browser instead.",
            file=sys.stderr,
        )
        return _serve_in_browser(core, url)
    core.stop()
    return 0
