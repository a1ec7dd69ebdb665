"""The local core's routes, one router per group (``server.app`` lists every route)."""

from __future__ import annotations

from fastapi import APIRouter

from ..core import Core
from . import pages, replay, saves, seats, settings


def routers(core: Core) -> list[APIRouter]:
    """Every router of the local core, sharing ``core``."""
    from westeros.online import hosting

    return [module.router(core) for module in (pages, saves, replay, seats, settings, hosting)]


__all__ = ["routers"]
