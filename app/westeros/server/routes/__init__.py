"""The local core's routes, one router per group (``server.app`` lists every route)."""

from __future__ import annotations

from fastapi import APIRouter

from ..core import Core
<<<<<<< HEAD
from . import help, pages, replay, saves, seats
=======
from . import pages, play_online, replay, saves, seats
>>>>>>> onlinefx


def routers(core: Core) -> list[APIRouter]:
    """Every router of the local core, sharing ``core``."""
    from westeros.online import hosting

<<<<<<< HEAD
    return [module.router(core) for module in (pages, saves, replay, seats, hosting, help)]
=======
    return [module.router(core) for module in (pages, saves, replay, seats, hosting, play_online)]
>>>>>>> onlinefx


__all__ = ["routers"]
