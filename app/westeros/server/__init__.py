"""The local core (DESIGN §4): the ASGI app behind the board, bound to 127.0.0.1 with a
per-launch secret token. ``create_app`` builds it; the CLI and the desktop shell serve it."""

from __future__ import annotations

from ..loopback import LOCALHOST, free_port, new_token
from .app import create_app

__all__ = ["LOCALHOST", "create_app", "free_port", "new_token"]
