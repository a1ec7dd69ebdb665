"""``westeros server`` sends socket messages uncompressed by default (permessage-deflate
cost the server about a fifth of its CPU per action, docs/online.md "Capacity"), and
compressed with ``--compress`` for a host short of bandwidth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .live import launch_server


@pytest.mark.parametrize(("flags", "deflate"), [((), False), (("--compress",), True)])
def test_the_server_compresses_socket_messages_only_when_asked(
    tmp_path: Path, flags: tuple[str, ...], deflate: bool
) -> None:
    from websockets.sync.client import connect

    server = launch_server("--database", f"sqlite:///{tmp_path / 'server.db'}", *flags)
    try:
        with connect(f"{server.ws}/ws/games/no-such-game/watch") as ws:
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
            refusal = ws.recv(timeout=30)
        assert ("permessage-deflate" in agreed) is deflate
        assert json.loads(refusal)["message"] == "this is not an online game"  # readable either way
    finally:
        server.process.terminate()
        server.process.wait(20)
