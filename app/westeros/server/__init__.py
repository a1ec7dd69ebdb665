"""The local core (DESIGN §4): the ASGI app behind the board, bound to 127.0.0.1 with a
per-launch secret token. ``create_app`` builds it; the CLI and the desktop shell serve it."""

from __future__ import annotations

import secrets
import socket

from .app import create_app

LOCALHOST = "127.0.0.1"


def new_token() -> str:
    """A fresh per-launch secret token."""
    return secrets.token_urlsafe(32)


def free_port(host: str = LOCALHOST) -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


__all__ = ["LOCALHOST", "create_app", "free_port", "new_token"]
