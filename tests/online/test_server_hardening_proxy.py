"""``westeros server`` behind a reverse proxy and at a chosen log level (issue 35 finding 17;
docs/online.md "Behind a proxy"): with ``--forwarded-allow-ips`` naming the proxy, the
player cookie is Secure when the proxy says the request came over HTTPS, and the Origin check
compares the browser's Origin with the host the proxy forwards (``X-Forwarded-Host``), as
nginx's default ``Host`` is the upstream's; the same headers from anyone else change nothing.
``--log-level info`` shows the server's information lines."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .live import free_port

PUBLIC = "westeros.example.org"
STARTUP_S = 60.0


@contextlib.contextmanager
def _server(tmp_path: Path, *arguments: str) -> Iterator[tuple[int, Path]]:
    """``westeros server --port <free> --database <fresh> *arguments``: (port, its log)."""
    port = free_port()
    log = tmp_path / f"server-{port}.log"
    env = {**os.environ, "WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "1"}
    command = [sys.executable, "-m", "westeros.cli", "server", "--port", str(port)]
    command += ["--database", f"sqlite:///{tmp_path / f'proxy-{port}.db'}", *arguments]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lobbies", timeout=2).close()
                break
            time.sleep(0.2)
        yield port, log
    finally:
        process.kill()
        process.wait(10)


def _post(port: int, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        json.dumps(body).encode(),
        {"content-type": "application/json", **headers},
        method="POST",
    )
    try:
        return urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as exc:
        return exc


def _through_proxy(port: int) -> dict[str, str]:
    """What nginx with its default ``Host`` (the upstream's) sends for a page of PUBLIC."""
    return {
        "host": f"127.0.0.1:{port}",
        "origin": f"https://{PUBLIC}",
        "x-forwarded-host": PUBLIC,
        "x-forwarded-proto": "https",
        "x-forwarded-for": "203.0.113.7",
    }


def test_behind_a_trusted_proxy_the_cookie_is_secure_and_the_forwarded_origin_passes(
    tmp_path: Path,
) -> None:
    """Issue 35 finding 17: the Secure cookie flag needed the proxy at 127.0.0.1 and no
    ``--forwarded-allow-ips``, and behind nginx's default Host every POST and WebSocket was
    refused by the Origin check — now, with the proxy trusted, registering over the proxy
    answers 200 with a Secure cookie; untrusted, the same headers are refused as
    cross-origin."""
    with _server(tmp_path) as (port, _):  # the default trusts a proxy on 127.0.0.1
        reply = _post(port, "/api/players", {"name": "Alice"}, _through_proxy(port))
        cookie = reply.headers.get("set-cookie", "")
        assert reply.status == 200, reply.read()
        assert "Secure" in cookie and "HttpOnly" in cookie
    with _server(tmp_path, "--forwarded-allow-ips", "192.0.2.1") as (port, _):
        reply = _post(port, "/api/players", {"name": "Alice"}, _through_proxy(port))
        assert reply.status == 403
        assert json.loads(reply.read())["code"] == "online/cross-origin"
        plain = _post(port, "/api/players", {"name": "Bob"}, {"x-forwarded-proto": "https"})
        assert plain.status == 200
        assert "Secure" not in plain.headers.get("set-cookie", "")


def test_log_level_info_shows_the_servers_information_lines(tmp_path: Path) -> None:
    """Issue 35 finding 17: the server logged at a fixed level — ``--log-level info`` now
    shows its information lines (uvicorn's start-up among them)."""
    with _server(tmp_path, "--log-level", "info") as (_, log):
        time.sleep(0.5)
        text = log.read_text()
    assert "Application startup complete" in text
