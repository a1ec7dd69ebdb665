"""*Play online* in the desktop app (docs/online.md "Playing online from the app"): an invite
link or a server's address, checked here, opens in its own window, in its own process.

A remote page is untrusted: it gets no pywebview ``js_api`` bridge (nothing of ours is
exposed to it), never the local core's launch token (it is neither in the command line nor
in the environment of the window's process, and the address opened is only the one given)
and no cookie of the local core: the window runs in a separate process with its own private
web profile, while the windows of one process would share one cookie store with the app's
own window. Run as ``python -m westeros.remote URL``."""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

_ = gettext.translation(
    "westeros", localedir=Path(__file__).parent / "locale", fallback=True
).gettext

SCHEMES = ("http", "https")
MAX_URL_CHARS = 2000
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
    "SYSTEMROOT",
    "APPDATA",
    "LOCALAPPDATA",
    "TEMP",
    "TMP",
)
"""What the remote window's process inherits of the app's environment (a display, the
user's folders): nothing else, so no setting of the local core reaches it."""


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


def command_line(link: str) -> list[str]:
    """How the remote window's process is started: this module, or the frozen app's
    ``play-online`` command (``westeros play-online URL``)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "play-online", check_link(link)]
    return [sys.executable, "-m", "westeros.remote", check_link(link)]


def open_window(link: str) -> subprocess.Popen[bytes]:
    """Open ``link`` (checked) in its own window, in a new process; returns that process."""
    return subprocess.Popen(
        command_line(link),
        env=window_environment(os.environ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
    )


def run_window(link: str) -> int:
    """In the remote window's process: show the one address it was given until the window
    closes (2, with the reason on stderr, for a link that is refused)."""
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
    webview.start(gui=default_gui(), private_mode=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(_("usage: python -m westeros.remote URL"))
    sys.exit(run_window(sys.argv[1]))
