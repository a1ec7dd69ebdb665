"""The WebSocket protocol ``westeros server`` runs under uvicorn (issue 35 finding 12;
docs/online.md "Limits"): uvicorn's own (websockets, sans-I/O) with two bounds on the memory a
client that stops reading can pin outside the app's queues:

- the kernel's send buffer of each connection is capped at ``SEND_BUFFER`` (Linux otherwise
  grows it towards ``tcp_wmem``'s maximum, 4 MB a connection);
- a connection whose handler has finished while its peer has still not read what was
  written to it is aborted ``ABORT_AFTER_S`` later (asyncio's close waits for the peer to
  read it all, which a client that never reads never does)."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

SEND_BUFFER = 64 * 1024
ABORT_AFTER_S = 5.0
PROTOCOL = "westeros.online.transport:BoundedWebSockets"
"""The ``ws`` setting of uvicorn that selects this protocol."""


class BoundedWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with the bounds of the module docstring."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    async def run_asgi(self) -> None:
        await super().run_asgi()
        self.loop.call_later(ABORT_AFTER_S, self._abort_unread)

    def _abort_unread(self) -> None:
        """Drop the connection if its peer has still not read what was written."""
        if self.transport.get_write_buffer_size() or not self.writable.is_set():
            self.transport.abort()
