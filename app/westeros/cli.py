"""The ``westeros`` command (DESIGN §1): without a subcommand it opens the desktop window
(``--browser``: the system browser); subcommands do everything else.

Each subcommand is a function ``(args) -> exit code`` registered in ``COMMANDS``; later issues
add theirs (serve, desktop, play, ...) the same way."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from . import __version__
from .desktop import console_logging
from .plugin_env import ENV_TRACE, env_flag

if TYPE_CHECKING:  # the plugin manager and the engine load when a command needs them
    from .plugin_faults import RuntimeFault
    from .plugins import LoadedPlugins


def _plugins_text(loaded: LoadedPlugins, out: TextIO) -> None:
    from .plugin_faults import runtime_faults

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
    _faults_text(loaded, runtime_faults(), out)


def _faults_text(loaded: LoadedPlugins, faults: list[RuntimeFault], out: TextIO) -> None:
    """The plugin faults that paused a game (issue 35 finding 3), with what to do."""
    if not faults:
        return
    versions = {p.name: p.version for p in loaded.plugins}
    out.write(f"{len(faults)} game(s) paused by a plugin fault:\n")
    for f in faults:
        out.write(f"  {f.plugin} {f.version or '(no version)'}: {f.hook} raised {f.detail}\n")
        out.write(f"    game {f.game}, paused {f.at}\n")
        now = versions.get(f.plugin)
        if now is None:
            out.write("    the plugin is not loaded now: that game cannot go on without it\n")
        elif now != f.version:
            out.write(f"    version {now} is loaded now: continue the game to try it\n")
        else:
            out.write("    update the plugin, then continue the game from its last good action\n")


def cmd_plugins(args: argparse.Namespace) -> int:
    """List loaded plugins, their versions and hooks, and every plugin that failed to load."""
    from .plugin_faults import runtime_faults
    from .plugins import load

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
            "faults": [dataclasses.asdict(f) for f in runtime_faults()],
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
    import os

    from .online import limits, turn
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
            log_level=args.log_level,
            forwarded_allow_ips=args.forwarded_allow_ips,
            limits=limits.from_options(vars(args), os.environ),
            ice=turn.from_options(vars(args), os.environ),
        )
    except (ServerConfigError, ValueError) as exc:
        sys.stderr.write(f"westeros server: {exc}\n")
        return 2
    return 0


def cmd_stop_game(args: argparse.Namespace) -> int:
    """``westeros server stop-game ID``: stop a running online game from outside the server
    (issue 35 finding 11): its lobby is finished in the server's database, so every worker
    stops its AI seats at its next scan and accepts no more action. ID: the game's or its
    lobby's id; the database is found as ``westeros server`` finds it."""
    from pathlib import Path

    from sqlalchemy.exc import SQLAlchemyError

    from .online.errors import OnlineError
    from .online.store import OnlineStore
    from .store.db import create_db_engine, database_url, make_url

    url = make_url(database_url(args.database))
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        sys.stderr.write(f"westeros server stop-game: no database file {url.database}\n")
        return 2
    engine = create_db_engine(url)
    try:
        online = OnlineStore(engine)
        lobby = online.lobby_of_game(args.game)
        stopped = online.stop(lobby.id if lobby is not None else args.game)
    except OnlineError as exc:
        sys.stderr.write(f"westeros server stop-game: {args.game}: {exc}\n")
        return 2
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or type(exc).__name__
        sys.stderr.write(f"westeros server stop-game: cannot read the online games: {reason}\n")
        return 2
    finally:
        engine.dispose()
    sys.stdout.write(f"Stopped game {stopped.game_id} (lobby {stopped.id}, {stopped.name!r}).\n")
    return 0


def cmd_moderate(args: argparse.Namespace) -> int:
    """``westeros server reports``, ``mute``, ``unmute``, ``ban``, ``unban`` (issue 40,
    ``westeros.online.moderation.operate``): list the players' reports of chat lines, or
    change what a player (by id or key) may do, in the server's database (found as
    ``westeros server`` finds it); every worker reads it at the player's next chat or act."""
    from pathlib import Path

    from sqlalchemy.exc import SQLAlchemyError

    from .online.errors import OnlineError
    from .online.moderation import operate
    from .store.db import create_db_engine, database_url, make_url

    name = f"westeros server {args.server_command}"
    url = make_url(database_url(args.database))
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        sys.stderr.write(f"{name}: no database file {url.database}\n")
        return 2
    engine = create_db_engine(url)
    try:
        text = operate(
            engine,
            args.server_command,
            getattr(args, "player", None),
            reason=getattr(args, "reason", None),
            as_json=getattr(args, "json", False),
        )
    except OnlineError as exc:
        sys.stderr.write(f"{name}: {exc}\n")
        return 2
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or type(exc).__name__
        sys.stderr.write(f"{name}: cannot read the online players: {reason}\n")
        return 2
    finally:
        engine.dispose()
    sys.stdout.write(text)
    return 0


def cmd_play_online(args: argparse.Namespace) -> int:
    """Open an online game's invite link (or a server's address) in its own window, without
    the local core's token or bridge (``westeros.remote``)."""
    from .remote import RemoteLinkError, link_argument, run_window

    try:
        link = link_argument(args.link)
    except RemoteLinkError as error:
        sys.stderr.write(f"play-online: {error}\n")
        return 2
    return run_window(link)


def cmd_new_plugin(args: argparse.Namespace) -> int:
    """Write a ready plugin package NAME (entry point, hooks, client script, zh_CN catalog, a
    passing test) into a new folder under ``--dir``; docs/plugins.md, "Start from the
    template"."""
    from pathlib import Path

    from .plugin_template import TemplateError, write_plugin

    try:
        root = write_plugin(args.name, Path(args.dir))
    except (TemplateError, OSError) as exc:
        sys.stderr.write(f"westeros new-plugin: {exc}\n")
        return 2
    sys.stdout.write(
        f"Wrote {root}. Next: cd {root} && pip install -e '.[test]' && python -m pytest\n"
    )
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "plugins": (cmd_plugins, "list loaded plugins, their versions and hooks, and load errors"),
    "serve": (cmd_serve, "serve the game on 127.0.0.1 without a window; prints the address"),
    "server": (cmd_server, "run the online game server (lobby, seats, chat) for other machines"),
    "play-online": (cmd_play_online, "open an online game's invite link in its own window"),
    "new-plugin": (cmd_new_plugin, "write a ready plugin package from the template"),
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
            _server_commands(cmd)
        if name == "play-online":
            cmd.add_argument(
                "link", help="the invite link or the server's address (http/https); - reads stdin"
            )
        if name == "new-plugin":
            cmd.add_argument("name", help="the distribution name, e.g. westeros-night-watch")
            cmd.add_argument("--dir", default=".", help="the folder to write it in (default: .)")
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
    cmd.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="reverse proxies trusted for X-Forwarded-Proto/-For/-Host: addresses or networks, "
        "comma-separated, or * (default 127.0.0.1)",
    )
    cmd.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help="what the server logs (default warning)",
    )
    from .online import limits, turn

    limits.add_arguments(cmd)
    turn.add_arguments(cmd)


class _OperatorParser(argparse.ArgumentParser):
    """A ``westeros server`` command's parser: a missing KEY_OR_PLAYER says how to give a key
    that begins with ``-`` (one a client chose, or an older server made), which argparse reads
    as an option."""

    def error(self, message: str) -> NoReturn:
        if "KEY_OR_PLAYER" in message:
            message += f"\n(a key that begins with '-' goes after '--': {self.prog} -- KEY)"
        super().error(message)


def _server_commands(cmd: argparse.ArgumentParser) -> None:
    """The operator's commands of ``westeros server`` (without one, it runs the server)."""
    commands = cmd.add_subparsers(
        dest="server_command", metavar="COMMAND", parser_class=_OperatorParser
    )
    help_text = "stop a running online game (all-AI ones too) where it stands"
    stop = commands.add_parser("stop-game", help=help_text, description=help_text)
    stop.set_defaults(func=cmd_stop_game)
    stop.add_argument("game", metavar="ID", help="the game's id, or its lobby's id")
    stop.add_argument(
        "--database",
        default=argparse.SUPPRESS,
        metavar="URL",
        help="the server's database URL (default: as westeros server finds it)",
    )
    moderation = {  # issue 40: docs/online-moderation.md
        "reports": "list the chat lines players reported",
        "mute": "forbid a player to chat (they may still play)",
        "unmute": "let a muted player chat again",
        "ban": "forbid a player to take a seat, chat, act or create a lobby",
        "unban": "lift a player's ban",
    }
    for name, text in moderation.items():
        command = commands.add_parser(name, help=text, description=text)
        command.set_defaults(func=cmd_moderate)
        if name == "reports":
            command.add_argument("--json", action="store_true", help="print JSON")
        else:
            command.add_argument("player", metavar="KEY_OR_PLAYER", help="a player's id or key")
        if name in ("mute", "ban"):
            command.add_argument("--reason", default=None, help="why (kept for the operators)")
        command.add_argument(
            "--database",
            default=argparse.SUPPRESS,
            metavar="URL",
            help="the server's database URL (default: as westeros server finds it)",
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
            from .desktop import launch, leave_in_time

            code = launch(browser=args.browser)
            leave_in_time(code)  # the process ends, whatever pywebview left running
            return code
        return int(args.func(args))
    except KeyboardInterrupt:  # before the app handles Ctrl+C itself; a second one is ignored
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        return 130


if __name__ == "__main__":
    sys.exit(main())
