"""*Play online* in the desktop app (docs/online.md "Playing online from the app"): an invite
link or a server's address, checked here, opens in its own window, in its own process.

A remote page is untrusted: it gets no pywebview ``js_api`` bridge (nothing of ours is
exposed to it), never the local core's launch token (it is neither in the command line nor
in the environment of the window's process, and the address opened is only the one given)
and no cookie of the local core: the window runs in a separate process, while the windows of
one process would share one cookie store with the app's own window. Its web profile is its
own and kept (``profile_folder``): one per server origin, never the app window's (which is
private), so a player who opens the same server again days later is still that player there.

The window's process tells the app which player key that server's pages keep
(``westeros.online.key`` in their local storage, read after each page load and checked) as
one JSON line on stdout, ``{"account": {"origin": …, "key": …}}``; ``open_window`` reads
those lines and hands on only well-formed ones of the origin it opened (the app's turn
watcher polls that server with the key: ``westeros.turn_watch``). The app writes the link
to the process's stdin (an invite link is a seat's secret; a command line is readable by
every user of the computer). Run as ``python -m westeros.remote`` with the link on stdin, or
``python -m westeros.remote URL``."""

from __future__ import annotations

import gettext
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import platformdirs

from .microphone import origin

_ = gettext.translation(
    "westeros", localedir=Path(__file__).parent / "locale", fallback=True
).gettext

SCHEMES = ("http", "https")
MAX_URL_CHARS = 2000
FROM_STDIN = "-"
WINDOW_SIZE = (1440, 900)
MIN_SIZE = (960, 640)
KEPT_ENVIRONMENT = (
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "XAUTHORITY",
    "XDG_RUNTIME_DIR",
    "HOME",
    "PATH",
    "LANG",
    "LC_ALL",
    "QT_QPA_PLATFORM",
    "QTWEBENGINE_CHROMIUM_FLAGS",
    "QTWEBENGINE_DISABLE_SANDBOX",
    "XDG_DATA_HOME",
    "SYSTEMROOT",
    "APPDATA",
    "LOCALAPPDATA",
    "TEMP",
    "TMP",
)
"""What the remote window's process inherits of the app's environment (a display, the
user's folders): nothing else, so no setting of the local core reaches it."""

log = logging.getLogger("westeros.desktop")

APP_NAME = "westeros"
PROFILES = "remote-profiles"
KEY_ITEM = "westeros.online.key"
"""Where an online server's pages keep the player's key (frontend/static/js/online/api.js)."""
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{20,200}")
"""A player key as the app accepts it from a page: 20 to 200 URL-safe characters."""
MAX_LINE = 4096
AccountCallback = Callable[[str, str], None]
"""What ``open_window`` calls with (origin, key) when the window's server keeps a key."""


class RemoteLinkError(ValueError):
    """A link that cannot be opened as a remote game; the message says why, for people."""


def check_link(text: str) -> str:
    """The address to open for ``text`` (an invite link or a server's address): http or
    https, with a host and without a user name or password. RemoteLinkError otherwise."""
    link = text.strip()
    if not link:
        raise RemoteLinkError(_("Paste the invite link you were sent (it starts with https://)."))
    if len(link) > MAX_URL_CHARS:
        raise RemoteLinkError(
            _("This link is too long ({count} characters, at most {limit}).").format(
                count=len(link), limit=MAX_URL_CHARS
            )
        )
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in link):
        raise RemoteLinkError(_("A link cannot hold spaces or control characters."))
    parts = urlsplit(link)
    if parts.scheme.lower() not in SCHEMES:
        shown = parts.scheme or link[:40]
        raise RemoteLinkError(
            _(
                "Only http:// and https:// links can be opened as an online game, not {scheme}."
            ).format(scheme=repr(shown))
        )
    try:
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise RemoteLinkError(
            _("This link's port is not valid: {error}").format(error=exc)
        ) from exc
    if not host:
        raise RemoteLinkError(
            _("This link names no server (nothing after {scheme}://).").format(scheme=parts.scheme)
        )
    if parts.username is not None or parts.password is not None:
        raise RemoteLinkError(_("A link with a user name or password in it is not opened."))
    return link


def window_options(link: str) -> dict[str, Any]:
    """The keyword arguments of ``webview.create_window`` for the remote window: the checked
    address, a title naming the server, and no ``js_api`` (nothing exposed to the page)."""
    return {
        "title": _("Westeros online — {server}").format(server=urlsplit(link).netloc),
        "url": check_link(link),
        "width": WINDOW_SIZE[0],
        "height": WINDOW_SIZE[1],
        "min_size": MIN_SIZE,
    }


def window_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The remote window process's environment: only ``KEPT_ENVIRONMENT`` of ``environ``."""
    return {name: environ[name] for name in KEPT_ENVIRONMENT if name in environ}


def command_line() -> list[str]:
    """How the remote window's process is started: this module, or the frozen app's
    ``play-online -`` command. The link is not in it: an invite link is a seat's secret, and
    any program of any user of the computer may read a process's command line; it is
    written to the process's stdin instead (``read_link``)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "play-online", FROM_STDIN]
    return [sys.executable, "-m", "westeros.remote"]


def read_link(stream: IO[str] | None) -> str:
    """The link the app wrote to the window process's stdin: its first line, with or without
    a line end (no more than a link's MAX_URL_CHARS and a line end is read). RemoteLinkError
    when there is none, or when the line is longer than any link."""
    line = stream.readline(MAX_URL_CHARS + 3) if stream is not None else ""
    link = line.rstrip("\r\n")
    if not link:
        raise RemoteLinkError(_("No link was given to open."))
    if len(link) > MAX_URL_CHARS:
        raise RemoteLinkError(
            _("This link is longer than {limit} characters.").format(limit=MAX_URL_CHARS)
        )
    return link


def profile_folder(link: str) -> Path:
    """The web profile of the windows opened on ``link``'s server: one folder per origin
    (``<user data>/remote-profiles/<sha256(origin)[:16]>``), never the app window's."""
    digest = hashlib.sha256(origin(link).encode("utf-8")).hexdigest()[:16]
    return Path(platformdirs.user_data_dir(APP_NAME)) / PROFILES / digest


def valid_key(value: object) -> str | None:
    """``value`` if it can be a player key (a str of 20..200 URL-safe characters), else
    None: the page that gave it is untrusted."""
    if isinstance(value, str) and KEY_PATTERN.fullmatch(value):
        return value
    return None


def account_line(server: str, key: str) -> str:
    """The line the window's process prints when ``server`` (an origin) keeps ``key``."""
    return json.dumps({"account": {"origin": server, "key": key}})


def read_account(line: bytes | str, server: str) -> str | None:
    """The key in ``line`` (one line of the window process's stdout) if it is a well-formed
    account line of ``server`` (an origin) with a valid key; None for anything else."""
    if len(line) > MAX_LINE:
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    account = data.get("account") if isinstance(data, dict) else None
    if not isinstance(account, dict) or set(account) != {"origin", "key"}:
        return None
    if account["origin"] != server:
        return None
    return valid_key(account["key"])


def _read_accounts(stream: IO[bytes], server: str, on_account: AccountCallback) -> None:
    """Hand each account line of ``server`` in ``stream`` to ``on_account``, until EOF."""
    with stream:
        for line in stream:
            key = read_account(line.strip(), server)
            if key is None:
                continue
            try:
                on_account(server, key)
            except Exception:
                log.exception("the account of %s could not be kept", server)


def open_window(
    link: str,
    on_account: AccountCallback | None = None,
    environ: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Open ``link`` (checked) in its own window, in a new process whose environment is
    ``window_environment`` of ``environ`` (default: this process's); returns that process.
    The link goes to the process on its stdin, never on its command line. With
    ``on_account``, each key the window reports for ``link``'s origin is handed to it
    (origin, key) from a daemon thread reading the process's stdout."""
    checked = check_link(link)
    child = subprocess.Popen(
        command_line(),
        env=window_environment(os.environ if environ is None else environ),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL if on_account is None else subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
    )
    assert child.stdin is not None
    with child.stdin:
        child.stdin.write(f"{checked}\n".encode())
    if on_account is not None and child.stdout is not None:
        threading.Thread(
            target=_read_accounts,
            args=(child.stdout, origin(checked), on_account),
            name="remote-accounts",
            daemon=True,
        ).start()
    return child


READ_KEY = f'location.origin + "\\n" + (localStorage.getItem({json.dumps(KEY_ITEM)}) || "")'
"""What the window runs in the page to read the key: the page's origin and the key, one
line each. Run as is (``run_js``), not through ``evaluate_js``, whose ``eval`` the servers'
Content-Security-Policy (``script-src 'self'``) refuses."""


def _origin_and_key(found: object) -> tuple[str, str] | None:
    """(origin, key) of what ``READ_KEY`` gave (a string, or that string as JSON on
    backends that return JSON), None if it is something else."""
    if isinstance(found, str) and found.startswith('"'):
        try:
            found = json.loads(found)
        except ValueError:
            return None
    if not isinstance(found, str) or "\n" not in found:
        return None
    page, key = found.split("\n", 1)
    return page, key


def tell_accounts(window: Any, server: str) -> None:
    """After each page load in ``window``, read the key that ``server``'s pages keep and
    print it (``account_line``) when it is new or changed. Only while the window shows a
    page of ``server`` (the page's own report of its origin is not trusted: the window's
    address is checked before and after reading). The reading runs on a daemon thread of
    its own: pywebview runs event handlers on threads the interpreter waits for at exit, and
    a read whose answer never comes (the window closed while a page loaded) would keep the
    closed window's process alive."""
    told: list[str] = []
    lock = threading.Lock()

    def on_loaded(window: Any) -> None:
        threading.Thread(target=read, args=(window,), name="remote-key", daemon=True).start()

    def read(window: Any) -> None:
        try:
            if origin(window.get_current_url() or "") != server:
                return
            found = _origin_and_key(window.run_js(READ_KEY))
            if origin(window.get_current_url() or "") != server:
                return
        except Exception:  # the window closed, or the page is gone: nothing to tell
            log.info("the key of %s could not be read", server, exc_info=True)
            return
        if found is None or found[0] != server:
            return
        key = valid_key(found[1])
        with lock:  # two pages loaded one after the other are read at once
            if key is None or (told and told[-1] == key) or sys.stdout is None:
                return
            told.append(key)
            print(account_line(server, key), flush=True)

    window.events.loaded += on_loaded


def use_profile(folder: Path) -> None:
    """Make ``folder`` the web profile of this process's windows. ``webview.start`` is
    given it as ``storage_path`` (WebView2's user data folder, WebKitGTK's data folders);
    pywebview's Qt backend reads it once, when its module is imported — which the microphone
    guard does before ``webview.start`` — so its profile path is set here as well."""
    folder.mkdir(parents=True, exist_ok=True)
    qt: Any = sys.modules.get("webview.platforms.qt")
    if qt is not None and hasattr(qt, "_profile_storage_path"):
        qt._profile_storage_path = str(folder)


def run_window(link: str) -> int:
    """In the remote window's process: show the one address it was given until the window
    closes (2, with the reason on stderr, for a link that is refused), in the kept web
    profile of that server, telling the app the key its pages keep (``tell_accounts``)."""
    try:
        options = window_options(link)
    except RemoteLinkError as error:
        print(error, file=sys.stderr)
        return 2
    import webview

    from .desktop import default_gui
    from .microphone import microphone_only_for

    window = webview.create_window(**options)
    microphone_only_for(window, options["url"], default_gui())  # the server it was opened for
    tell_accounts(window, origin(options["url"]))
    folder = profile_folder(options["url"])
    use_profile(folder)
    webview.start(gui=default_gui(), private_mode=False, storage_path=str(folder))
    return 0


def link_argument(argument: str) -> str:
    """The link a ``play-online`` argument names: itself, or for ``-`` the line on stdin."""
    return read_link(sys.stdin) if argument == FROM_STDIN else argument


if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit(_("usage: python -m westeros.remote [URL] (without URL: read from stdin)"))
    try:
        given = link_argument(sys.argv[1] if len(sys.argv) == 2 else FROM_STDIN)
    except RemoteLinkError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
    sys.exit(run_window(given))
