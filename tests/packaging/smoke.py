"""Smoke-run an installed or frozen ``westeros`` command: serve the local core, open the start
screen with the launch token, start a game, load the board page and a script, then stop it."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def smoke_core(
    command: list[str], workdir: Path, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run ``command serve`` and drive the pages; returns what was seen and the exit code."""
    port = free_port()
    log = workdir / "serve.log"
    with log.open("w") as out:
        child = subprocess.Popen(
            [
                *command,
                "serve",
                "--port",
                str(port),
                "--database",
                f"sqlite:///{workdir / 'games.db'}",
                "--ai-delay",
                "0",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=workdir,
        )
    seen: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 60
        while not (match := re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", log.read_text())):
            assert child.poll() is None, f"the core exited: {log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, "no address printed"
            time.sleep(0.2)
        url = match.group(1)
        base = f"http://127.0.0.1:{port}"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                start = opener.open(url, timeout=10).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, f"no answer: {log.read_text()[-2000:]}"
                time.sleep(0.3)
        seen["start_has_form"] = 'name="players"' in start
        form = urllib.parse.urlencode(
            {"players": "3", "house": "stark", "plugin": "westeros_ports", "seed": "7"}
        ).encode()
        request = urllib.request.Request(f"{base}/games", data=form, headers={"Origin": base})
        board = opener.open(request, timeout=60)
        seen["board_url"] = board.geturl()
        page = board.read().decode()
        seen["board_has_map"] = 'id="area-winterfell"' in page
        script = opener.open(f"{base}/static/js/board.js", timeout=10)
        seen["script_status"] = script.status
    finally:
        if sys.platform == "win32":
            child.terminate()
        else:
            child.send_signal(signal.SIGINT)
        try:
            seen["exit_code"] = child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            seen["exit_code"] = None
    return seen
