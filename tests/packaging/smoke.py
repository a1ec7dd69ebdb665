"""Smoke-run an installed or frozen ``westeros`` command: serve the local core, check that a
request without the launch token is refused, open the start screen with the token, start a game,
load the board page and a script, then stop it.

Also a command line for the build scripts (stdlib only, so any Python 3.11 runs it):
    python3 tests/packaging/smoke.py [--stop-signal TERM] -- wine dist/westeros/westeros.exe
The command's output is read through a pipe (a frozen exe under Wine fails on a file handle)."""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import IO, Any

ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/\?token=[^\s]+)")
PLUGIN_SCRIPT = re.compile(r'"(/static/(?!js/)[^"]+\.js)"')  # in the board's content JSON


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Output:
    """Collects a child's output from its pipe in a thread, so it can be searched at any time."""

    def __init__(self, pipe: IO[str]) -> None:
        self._chunks: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._thread.start()

    def _read(self, pipe: IO[str]) -> None:
        for line in pipe:
            self._chunks.append(line)

    def text(self) -> str:
        return "".join(self._chunks).replace("\r\n", "\n")

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


def _status(opener: urllib.request.OpenerDirector, url: str) -> int:
    try:
        return int(opener.open(url, timeout=10).status)
    except urllib.error.HTTPError as refused:
        return refused.code


def smoke_core(
    command: list[str],
    workdir: Path,
    env: dict[str, str] | None = None,
    stop_signal: signal.Signals | None = None,
    timeout: float = 60,
) -> dict[str, Any]:
    """Run ``command serve`` and drive the pages; returns what was seen, the exit code and the
    output (``output``)."""
    port = free_port()
    child = subprocess.Popen(
        [
            *command,
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{(workdir / 'games.db').as_posix()}",
            "--ai-delay",
            "0",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env={**os.environ, **(env or {})},
        cwd=workdir,
    )
    assert child.stdout is not None
    output = Output(child.stdout)
    seen: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + timeout
        while not (match := ADDRESS.search(output.text())):
            assert child.poll() is None, f"the core exited: {output.text()[-2000:]}"
            assert time.monotonic() < deadline, f"no address printed: {output.text()[-2000:]}"
            time.sleep(0.2)
        url = match.group(1)
        base = f"http://127.0.0.1:{port}"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        # The address is printed once the server listens: the first request must be answered.
        seen["without_token_status"] = _status(opener, f"{base}/")
        start = opener.open(url, timeout=timeout).read().decode()
        seen["start_has_form"] = 'name="players"' in start
        form = urllib.parse.urlencode(
            {"players": "3", "house": "stark", "plugin": "westeros_ports", "seed": "7"}
        ).encode()
        request = urllib.request.Request(f"{base}/games", data=form, headers={"Origin": base})
        board = opener.open(request, timeout=timeout)
        seen["board_url"] = board.geturl()
        page = board.read().decode()
        seen["board_has_map"] = 'id="area-winterfell"' in page
        script = opener.open(f"{base}/static/js/board.js", timeout=10)
        seen["script_status"] = script.status
        seen["plugin_scripts"] = {
            src: _status(opener, f"{base}{src}") for src in PLUGIN_SCRIPT.findall(page)
        }
    finally:
        if stop_signal is not None:
            child.send_signal(stop_signal)
        elif sys.platform == "win32":
            child.terminate()
        else:
            child.send_signal(signal.SIGINT)
        try:
            seen["exit_code"] = child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            seen["exit_code"] = None
        output.join(10)
        seen["output"] = output.text()
    return seen


def main(argv: list[str] | None = None) -> int:
    """Smoke-run COMMAND and print what was seen; exit 1 if anything is missing."""
    cli = argparse.ArgumentParser(description=main.__doc__)
    cli.add_argument("--stop-signal", default=None, help="signal name to stop the core (TERM)")
    cli.add_argument("command", nargs="+")
    args = cli.parse_args(argv)
    stop = signal.Signals[f"SIG{args.stop_signal}"] if args.stop_signal else None
    with tempfile.TemporaryDirectory() as tmp:
        seen = smoke_core(args.command, Path(tmp), stop_signal=stop, timeout=180)
    output = seen.pop("output")
    print("serve:", json.dumps(seen, sort_keys=True))
    ok = (
        seen["without_token_status"] == 403
        and seen["start_has_form"]
        and seen["board_has_map"]
        and seen["script_status"] == 200
        and bool(seen["plugin_scripts"])
        and set(seen["plugin_scripts"].values()) == {200}
    )
    if not ok:
        print(output[-4000:])
        print("smoke: serve did not answer as expected", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
