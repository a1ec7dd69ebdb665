"""The local core's address on this machine (DESIGN §4): 127.0.0.1, a free port, a per-launch
secret token, and the listening socket. Light on purpose: the desktop shell opens its window on
this address while the core is still being built (``desktop.launch``)."""

from __future__ import annotations

import secrets
import socket
import sys

LOCALHOST = "127.0.0.1"
BACKLOG = 2048
"""Connections the socket queues before the core accepts them (uvicorn's default)."""


def new_token() -> str:
    """A fresh per-launch secret token."""
    return secrets.token_urlsafe(32)


def free_port(host: str = LOCALHOST) -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (OSError when it cannot): a client may connect
    at once, and its request waits in the queue until the server accepts it. As uvicorn binds:
    address reuse except on Windows, where it would let another program take the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock
