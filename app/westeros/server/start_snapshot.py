"""The start screen as the local core last rendered it (issue 37 point 5: the desktop app shows
its start screen within twice the time of a bare window).

Building the local core (importing FastAPI, SQLModel, the engine and the plugins, then loading
the plugins) takes most of a launch. When the core stops it renders the start screen once more
and keeps it here, in the user cache folder, with a *key*: everything the page is made from
that could change between two launches — the database file (and its write-ahead log), the
installed plugins (entry points, the user plugin folder and the environment variables that
choose plugins), the files of the loaded plugins, templates and translations, the app's own
package and version — each as path, size, modification time and file id. At the next launch,
before anything heavy is imported, :func:`load` recomputes the key; only if it is equal is the
kept page shown (``core_gate.Gate``) while the core is built behind it. Anything else — a
game saved or deleted meanwhile, a plugin installed, an edited template, another database or a
database server, a page rendered in another language — means no snapshot and the usual wait.

The page holds nothing of one launch (the launch token is a cookie, not in the page) and is
byte-for-byte what the core answers to the same request (tests/server/test_start_snapshot.py)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import logging
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from westeros import __version__

log = logging.getLogger(__name__)

FILE_NAME = "start-screen.json"
FORMAT = 1
PLUGIN_ENVIRONMENT = (
    "WESTEROS_DISABLE_PLUGIN_AUTOLOAD",
    "WESTEROS_DISABLE_PLUGINS",
    "WESTEROS_PLUGIN_DIR",
)
"""The environment variables that choose plugins (``westeros.plugins``)."""
ENTRY_POINT_GROUP = "westeros.plugins"
LANGUAGE_HEADERS = ("accept-language",)
LANGUAGE_COOKIE = "westeros_lang"
PACKAGE = Path(__file__).resolve().parents[1]
"""The ``westeros`` package: its modules make the page (a development checkout may change)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """A rendered start screen, for the request whose language headers are ``language``, and
    what the core served its static files from (``(URL prefix, folder)``, in mount order)."""

    html: str
    language: tuple[str, str]
    static: tuple[tuple[str, str], ...]


def language_of(headers: Mapping[str, str], cookies: Mapping[str, str]) -> tuple[str, str]:
    """What of a request chooses the page's language: its Accept-Language header and its
    language cookie (the ``?lang=`` query is never snapshotted)."""
    return (headers.get("accept-language", ""), cookies.get(LANGUAGE_COOKIE, ""))


def database_file(url: str) -> Path | None:
    """The SQLite file of database ``url`` (None for any other database or an in-memory one)."""
    prefix = next((p for p in ("sqlite:///", "sqlite+pysqlite:///") if url.startswith(p)), None)
    if prefix is None:
        return None
    path = url[len(prefix) :].split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def _stat(path: Path) -> list[Any]:
    try:
        st = path.stat()
    except OSError:
        return [str(path), None]
    return [str(path), st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev]


def _tree(folder: Path) -> Iterator[Path]:
    """Every file under ``folder`` but compiled Python (which the interpreter itself writes)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".pyc"):
                yield Path(root) / name


def _entry_points() -> list[list[str]]:
    found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    return sorted(
        [ep.name, ep.value, ep.dist.version if ep.dist is not None else ""] for ep in found
    )


def key(database: Path, watched: Iterable[str], plugin_folder: Path) -> str:
    """The key of a snapshot made from ``database`` with the files and folders ``watched``
    (those of the loaded plugins, templates and translations) and the user plugin folder."""
    parts: list[Any] = [
        FORMAT,
        __version__,
        sys.version,
        [[name, os.environ.get(name)] for name in PLUGIN_ENVIRONMENT],
        _entry_points(),
        _stat(database),
        _stat(database.with_name(database.name + "-wal")),
        _stat(plugin_folder),
    ]
    if plugin_folder.is_dir():
        parts.append([_stat(p) for p in sorted(plugin_folder.glob("*.py"))])
    for place in sorted({*watched, str(PACKAGE)}):
        path = Path(place)
        parts.append([_stat(p) for p in _tree(path)] if path.is_dir() else _stat(path))
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()


def save(
    file: Path,
    snapshot: Snapshot,
    source: str,
    database: Path,
    watched: Iterable[str],
    plugin_folder: Path,
) -> None:
    """Keep ``snapshot`` in ``file`` under the key of the files as they are now (call it once
    nothing writes the database any more); ``source`` says how the core was told which
    database to open (``database`` is the file it opened). Failures are logged: the next
    launch only waits."""
    watched = sorted(set(watched))
    record = {
        "key": key(database, watched, plugin_folder),
        "source": source,
        "database": str(database),
        "plugin_folder": str(plugin_folder),
        "watched": watched,
        "html": snapshot.html,
        "language": list(snapshot.language),
        "static": [list(pair) for pair in snapshot.static],
    }
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_name(file.name + ".partial")
        partial.write_text(json.dumps(record), "utf-8")
        partial.replace(file)
    except OSError:
        log.warning("the start screen could not be kept in %s", file, exc_info=True)


def forget(file: Path) -> None:
    """Drop the kept start screen (it may no longer be what the core would show)."""
    try:
        file.unlink(missing_ok=True)
    except OSError:
        log.warning("the kept start screen %s could not be removed", file, exc_info=True)


def load(file: Path, source: str, plugin_folder: Path) -> Snapshot | None:
    """The start screen kept in ``file`` if the core was told to open its database the same
    way (``source``) and nothing the page is made from changed since (see the module's
    docstring), else None."""
    try:
        record = json.loads(file.read_text("utf-8"))
        if record["source"] != source or record["plugin_folder"] != str(plugin_folder):
            return None
        database = Path(record["database"])
        if record["key"] != key(database, record["watched"], plugin_folder):
            return None
        return Snapshot(
            html=str(record["html"]),
            language=(str(record["language"][0]), str(record["language"][1])),
            static=tuple((str(prefix), str(folder)) for prefix, folder in record["static"]),
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        log.warning("the kept start screen %s is unreadable; it is not used", file, exc_info=True)
        return None


def render(app: Any, language: tuple[str, str], port: int | None) -> Snapshot:
    """The start screen the core ``app`` (``create_app``) answers to a GET of ``/`` with the
    language headers ``language``, and its static folders."""
    from starlette.requests import Request

    from . import pages

    accept, cookie = language
    headers = [(b"host", f"127.0.0.1:{port}".encode() if port else b"127.0.0.1")]
    if accept:
        headers.append((b"accept-language", accept.encode("latin-1")))
    if cookie:
        headers.append((b"cookie", f"{LANGUAGE_COOKIE}={cookie}".encode("latin-1")))
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "query_string": b"",
        "headers": headers,
        "app": app,
    }
    core = app.state.core
    page = core.start_page(Request(scope))
    return Snapshot(
        html=bytes(page.body).decode("utf-8"),
        language=language,
        static=tuple(pages.static_folders(core.loaded)),
    )


def watched(app: Any) -> list[str]:
    """The folders and files the core ``app`` made its pages from: templates, translations,
    and the packages of the plugins installed as entry points."""
    from . import pages
    from .app import LOCALE_DIR

    core = app.state.core
    places = {*pages.template_folders(core.loaded), str(LOCALE_DIR), *core.loaded.translations}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        module = sys.modules.get(ep.module)
        origin = getattr(module, "__file__", None)
        if origin:
            places.add(str(Path(origin).parent))
    return sorted(places)


def database_of(app: Any) -> Path | None:
    """The SQLite file the core ``app`` keeps its games in (None for a database server)."""
    url = app.state.core.store.engine.url
    return database_file(url.render_as_string(hide_password=True))
