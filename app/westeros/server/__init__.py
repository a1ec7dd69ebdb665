"""The local core (DESIGN §4): the ASGI app behind the board, bound to 127.0.0.1 with a
per-launch secret token. ``create_app`` builds it; the CLI and the desktop shell serve it.

``create_app`` is imported on first use (PEP 562), so that the desktop shell can reach the
light modules here (``security``) while the app is still being built (issue 37 point 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..loopback import LOCALHOST, free_port, new_token

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["LOCALHOST", "create_app", "free_port", "new_token"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
