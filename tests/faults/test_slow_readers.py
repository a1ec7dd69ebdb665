"""Issue 35 finding 12 (H3): 300 spectator sockets that never read pinned 798 MB of kernel
TCP memory — every socket's queue was unbounded and a send never timed out. Against a real
``westeros server`` (one process, SQLite) an all-AI game at the baseline level plays to its
end while 300 sockets from ten addresses watch it without ever reading. What the server holds
for them stays bounded (the send queues its kernel holds for its own sockets, as ``ss``
reports them, and its resident memory), every one of them is closed by the server, and a
spectator who reads sees every state of the game through its end."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.online.live import Server, launch_server, register

SLOW_SOCKETS = 300
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]  # 30 sockets each, under the limit of 64
KERNEL_BOUND_MB = 100.0  # the old server passed it within seconds (4 MB a socket allowed)
RSS_GROWTH_BOUND_MB = 150.0
GAME_S = 300.0  # the longest wait for the reader's next message (a game takes ~15 s)
CLOSED_S = 120.0


def _raw_watcher(server: Server, game_id: str, address: str) -> socket.socket:
    """A WebSocket handshake to ``/watch`` from ``address``, then nothing is ever read."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    sock.bind((address, 0))
    sock.settimeout(30)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/games/{game_id}/watch HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


def _server_queues(port: int) -> tuple[int, int]:
    """(established sockets of the server's port from the slow addresses, bytes the kernel
    holds queued to send on them: ``ss``'s ``w``)."""
    out = subprocess.run(
        ["ss", "-tmnH", "state", "established", f"( sport = :{port} )"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    sockets = queued = 0
    for entry in re.split(r"\n(?=\S)", out.strip()):
        fields = entry.split()
        if len(fields) < 4 or fields[3].rsplit(":", 1)[0] not in ADDRESSES:
            continue
        sockets += 1
        match = re.search(r"\bw(\d+)", entry)
        queued += int(match.group(1)) if match else 0
    return sockets, queued


def _close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.close()


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert match is not None
    return int(match.group(1)) / 1024


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """``westeros server`` with its default limits, on a fresh SQLite file."""
    if subprocess.run(["ss", "-V"], capture_output=True).returncode != 0:
        pytest.skip("needs iproute2's ss to read the server's socket queues")
    started = launch_server("--database", f"sqlite:///{tmp_path / 'slow.db'}")
    try:
        yield started
    finally:
        started.kill()


def test_300_sockets_that_never_read_hold_bounded_memory_and_are_closed(server: Server) -> None:
    """Issue 35 finding 12 (H3): 300 never-reading ``/watch`` sockets of a running game —
    kernel send queues and server memory stay bounded, the server closes them all, and a
    spectator who reads gets every state of the game through ``game_over``."""
    from websockets.sync.client import connect

    host = register(server, "Host")
    created = host.post(
        "/api/lobbies",
        {"players": 6, "house": None, "open_houses": [], "ai_level": "baseline"},
    )
    rss_before = _rss_mb(server.process.pid)
    game_id = host.post(f"/api/lobbies/{created['lobby']['id']}/start")["lobby"]["game_id"]
    peaks = {"kernel": 0.0, "rss": 0.0}
    stop = threading.Event()

    def sample() -> None:  # apart from the reader, which must keep up with the game
        while not stop.wait(0.25):
            _, queued = _server_queues(server.port)
            peaks["kernel"] = max(peaks["kernel"], queued / 2**20)
            peaks["rss"] = max(peaks["rss"], _rss_mb(server.process.pid) - rss_before)
            if peaks["kernel"] > KERNEL_BOUND_MB:  # failed: give the machine its memory back
                print(f"kernel send queues passed {KERNEL_BOUND_MB} MB: closing the sockets")
                _close_all(slow)
                return

    slow: list[socket.socket] = []
    with connect(f"{server.ws}/ws/games/{game_id}/watch", max_queue=None) as reader:
        slow += [
            _raw_watcher(server, game_id, ADDRESSES[n % len(ADDRESSES)])
            for n in range(SLOW_SOCKETS)
        ]
        print(
            f"injected: {len(slow)} /watch sockets from {len(ADDRESSES)} addresses "
            "that never read, each with a 16 KB receive buffer"
        )
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            states: list[int] = []
            over = False
            while not over:
                message = json.loads(reader.recv(timeout=GAME_S))
                if message["type"] == "view":
                    states.append(message["state_id"])
                over = message["type"] == "game_over"
            still_open = SLOW_SOCKETS
            deadline = time.monotonic() + CLOSED_S
            while still_open and time.monotonic() < deadline:
                still_open, _ = _server_queues(server.port)
                time.sleep(0.5)
            stop.set()
            sampler.join()
            rss = _rss_mb(server.process.pid) - rss_before
            print(
                f"states seen by the reader: {len(states)}; peak kernel send queues "
                f"{peaks['kernel']:.1f} MB; peak RSS growth {peaks['rss']:.1f} MB, now "
                f"{rss:.1f} MB; slow sockets the server still holds: {still_open}"
            )
        finally:
            stop.set()
            _close_all(slow)
    assert states == list(range(states[0], states[0] + len(states)))
    assert peaks["kernel"] <= KERNEL_BOUND_MB
    assert peaks["rss"] <= RSS_GROWTH_BOUND_MB
    assert still_open == 0, f"{still_open} sockets that never read are still held"
