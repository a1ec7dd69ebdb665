"""The ``westeros`` command (DESIGN §1): without a subcommand it opens the desktop window
(``--browser``: the system browser); subcommands do everything else.

Each subcommand is a function ``(args) -> exit code`` registered in ``COMMANDS``; later issues
add theirs (serve, desktop, play, ...) the same way."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import __version__
from .desktop import console_logging
from .plugins import ENV_TRACE, LoadedPlugins, env_flag, load


def _plugins_text(loaded: LoadedPlugins, out: TextIO) -> None:
    out.write(f"{len(loaded.plugins)} plugin(s) loaded:\n")
    for p in loaded.plugins:
        out.write(f"  {p.name} {p.version or '(no version)'}  [{p.source}]\n")
        out.write(f"    hooks: {', '.join(p.hooks) or '(none)'}\n")
    if loaded.errors:
        out.write(f"{len(loaded.errors)} plugin(s) disabled:\n")
        for e in loaded.errors:
            out.write(f"  {e.plugin} [{e.source}]: {e.message}\n")
    else:
        out.write("No plugin errors.\n")


def cmd_plugins(args: argparse.Namespace) -> int:
    """List loaded plugins, their versions and hooks, and every plugin that failed to load."""
    loaded = load(disable=args.disable)
    if args.json:
        data: dict[str, Any] = {
            "plugins": [
                {"name": p.name, "version": p.version, "source": p.source, "hooks": list(p.hooks)}
                for p in loaded.plugins
            ],
            "errors": [
                {"plugin": e.plugin, "source": e.source, "message": e.message}
                for e in loaded.errors
            ],
        }
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        _plugins_text(loaded, sys.stdout)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the local core on 127.0.0.1 without a window; print the address to open once it
    listens, and serve until Ctrl+C."""
    from .desktop import (
        CoreStartError,
        LocalCore,
        serve_until_interrupted,
        setup_logging,
        start_core,
    )

    setup_logging()
    core = LocalCore(store_url=args.database, ai_delay=args.ai_delay, port=args.port)
    try:
        url = start_core(core)
    except CoreStartError:
        return 1
    return serve_until_interrupted(core, url)


def cmd_server(args: argparse.Namespace) -> int:
    """Run the online server (lobby, seats, chat) for people on other machines."""
    from .online.serve import ServerConfigError, run_server

    try:
        run_server(
            host=args.host,
            port=args.port,
            workers=args.workers,
            database=args.database,
            redis=args.redis,
            ai_processes=args.ai_processes,
            compress=args.compress,
        )
    except ServerConfigError as exc:
        sys.stderr.write(f"westeros server: {exc}\n")
        return 2
    return 0


def cmd_play_online(args: argparse.Namespace) -> int:
    """Open an online game's invite link (or a server's address) in its own window, without
    the local core's token or bridge (``westeros.remote``)."""
    from .remote import run_window

    return run_window(args.link)


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "plugins": (cmd_plugins, "list loaded plugins, their versions and hooks, and load errors"),
    "serve": (cmd_serve, "serve the game on 127.0.0.1 without a window; prints the address"),
    "server": (cmd_server, "run the online game server (lobby, seats, chat) for other machines"),
    "play-online": (cmd_play_online, "open an online game's invite link in its own window"),
}


def parser() -> argparse.ArgumentParser:
    """The command-line parser with every subcommand."""
    top = argparse.ArgumentParser(
        prog="westeros",
        description="A free digital edition of A Game of Thrones: The Board Game (2nd edition).",
        epilog=f"Set {ENV_TRACE}=1 to log every plugin hook call.",
    )
    top.add_argument("--version", action="version", version=f"westeros {__version__}")
    top.add_argument(
        "-v", "--verbose", action="store_true", help="log more (INFO level), with tracebacks"
    )
    top.add_argument(
        "--browser",
        action="store_true",
        help="open the game in the system browser instead of the desktop window",
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name, (func, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.set_defaults(func=func)
        if name == "plugins":
            cmd.add_argument("--json", action="store_true", help="print JSON")
            cmd.add_argument(
                "--disable", action="append", default=[], metavar="NAME", help="skip a plugin"
            )
        if name == "serve":
            cmd.add_argument("--port", type=int, default=None, help="port (default: a free one)")
            cmd.add_argument("--database", default=None, metavar="URL", help="database URL")
            cmd.add_argument("--ai-delay", type=float, default=0.4, help="seconds between AI moves")
        if name == "server":
            _server_arguments(cmd)
        if name == "play-online":
            cmd.add_argument("link", help="the invite link or the server's address (http/https)")
    return top


def _server_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--host", default="127.0.0.1", help="interface to listen on (0.0.0.0: all)")
    cmd.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    cmd.add_argument("--workers", type=int, default=1, help="worker processes (need --redis)")
    cmd.add_argument("--database", default=None, metavar="URL", help="database URL")
    cmd.add_argument("--redis", default=None, metavar="URL", help="Redis URL shared by workers")
    cmd.add_argument("--ai-processes", type=int, default=1, help="processes for AI seats")
    cmd.add_argument(
        "--compress",
        action="store_true",
        help="compress socket messages (permessage-deflate): less bandwidth, more server CPU",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``westeros`` console script."""
    p = parser()
    args = p.parse_args(argv)
    console_logging(args.verbose)
    if env_flag(ENV_TRACE):
        logging.getLogger("westeros.hooks").setLevel(logging.INFO)
    try:
        if args.command is None:
            from .desktop import launch

            return launch(browser=args.browser)
        return int(args.func(args))
    except KeyboardInterrupt:  # before the app handles Ctrl+C itself; a second one is ignored
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return 130


if __name__ == "__main__":
    sys.exit(main())
