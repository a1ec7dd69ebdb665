"""The local core's routes, one router per group (``server.app`` lists every route)."""

from __future__ import annotations

from fastapi import APIRouter

from ..core import Core
from . import deals, guide, help, pages, play_online, replay, saves, seats, settings


def routers(core: Core) -> list[APIRouter]:
    """Every router of the local core, sharing ``core``."""
    from westeros.online import hosting

    modules = (pages, saves, replay, seats, settings, hosting, help, play_online, deals, guide)
    return [module.router(core) for module in modules]


__all__ = ["routers"]
