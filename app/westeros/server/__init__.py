"""The local core (DESIGN §4): the ASGI app behind the board, bound to 127.0.0.1 with a
per-launch secret token. ``create_app`` builds it; ``run`` serves it with uvicorn."""

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


def run(
    host: str = LOCALHOST,
    port: int | None = None,
    token: str | None = None,
    *,
    store_url: str | None = None,
    ai_delay: float = 0.0,
) -> None:
    """Serve the local core with uvicorn until interrupted. The app accepts only requests
    whose Host header names this machine and ``port`` and that carry ``token``; without a
    ``token`` a fresh one is made and the address to open is printed."""
    import uvicorn

    port = port or free_port(host)
    if token is None:
        token = new_token()
        print(f"Westeros is running at http://{host}:{port}/?token={token}", flush=True)
    app = create_app(token=token, store_url=store_url, ai_delay=ai_delay, port=port)
    uvicorn.run(app, host=host, port=port, log_level="warning")


__all__ = ["LOCALHOST", "create_app", "free_port", "new_token", "run"]
