"""``westeros server``: the online server under uvicorn (docs/online.md).

With ``--redis`` and a PostgreSQL ``--database`` it runs ``--workers`` processes (on as many
hosts as you like, all pointed at the same PostgreSQL and Redis); without ``--redis`` it is a
single process (the embedded default, SQLite in the user data folder unless ``--database``
says otherwise). The settings reach each worker through environment variables, which is how
uvicorn starts its workers (``westeros.online.app:app_from_env``)."""

from __future__ import annotations

import os

from westeros.store.db import ENV_DATABASE_URL, create_db_engine, database_url, make_url, migrate

from .app import ENV_AI_PROCESSES, ENV_FORWARDED_ALLOW_IPS, ENV_LOG_LEVEL, ENV_REDIS_URL
from .limits import Limits
from .transport import PROTOCOL
from .turn import IceConfig

DEFAULT_PORT = 8765
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


class ServerConfigError(ValueError):
    """Settings that cannot work together (e.g. several workers without Redis)."""


def check(database: str | None, redis: str | None, workers: int) -> str:
    """The database URL to use; ServerConfigError for settings that cannot share a game."""
    url = database_url(database)
    if workers < 1:
        raise ServerConfigError("--workers must be at least 1")
    if workers > 1 and not redis:
        raise ServerConfigError("several workers share their games through Redis: add --redis URL")
    if redis and make_url(url).get_backend_name() == "sqlite":
        raise ServerConfigError(
            "workers sharing Redis need a shared database: give --database postgresql://…"
        )
    return url


def migrate_once(url: str) -> None:
    """Bring the database's schema up to date before any worker starts (workers that all
    found an empty database would race to create the same tables)."""
    engine = create_db_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()


def run_server(
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    workers: int = 1,
    database: str | None = None,
    redis: str | None = None,
    ai_processes: int = 1,
    log_level: str = "warning",
    compress: bool = False,
    limits: Limits | None = None,
    forwarded_allow_ips: str = "127.0.0.1",
    ice: IceConfig | None = None,
) -> None:
    """Serve until interrupted (see the module docstring). Socket messages are sent
    uncompressed unless ``compress``: permessage-deflate shrinks a 5 KB view to 1.4 KB but
    cost the server about a fifth of its CPU per action (docs/online.md, "Capacity").
    ``limits``: what one client may hold (``westeros.online.limits``); the reverse proxies
    at ``forwarded_allow_ips`` are trusted for ``X-Forwarded-Proto``, ``-For`` and ``-Host``
    (the app's ``Guard``); ``ice``: the STUN and TURN servers table voice hands out
    (``westeros.online.turn``); ``log_level``: uvicorn's and the server's own log. Several
    workers are watched by ``supervisor`` (each one that dies is logged, then replaced)."""
    from .supervisor import run

    if log_level not in LOG_LEVELS:
        raise ServerConfigError(f"--log-level is one of {', '.join(LOG_LEVELS)}")
    url = check(database, redis, workers)
    migrate_once(url)
    os.environ.update((limits or Limits()).env())
    os.environ.update((ice or IceConfig()).env())
    os.environ[ENV_FORWARDED_ALLOW_IPS] = forwarded_allow_ips
    os.environ[ENV_LOG_LEVEL] = log_level
    os.environ[ENV_DATABASE_URL] = url
    os.environ[ENV_AI_PROCESSES] = str(max(1, ai_processes))
    if redis:
        os.environ[ENV_REDIS_URL] = redis
    else:
        os.environ.pop(ENV_REDIS_URL, None)
    print(f"Westeros online server at http://{host}:{port}/ ({workers} worker(s))", flush=True)
    run(
        "westeros.online.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        proxy_headers=False,  # the app's Guard reads the trusted proxies' headers
        ws=PROTOCOL,
        ws_per_message_deflate=compress,
    )
