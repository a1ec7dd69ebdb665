"""Two machines (docs/online.md "Hosting from the app"): the hosting app runs in one network
namespace and the joining person's Chromium in another, joined only by a veth pair this
test creates (addresses it assigns there), so the host's choice of interface, the invite link
and the join really cross a network. Skipped with the reason where namespaces are not
allowed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS

HOST_IP, JOIN_IP = "10.203.77.1", "10.203.77.2"
PORT = 8799
HOST_SCRIPT = """
import sys, time
from fastapi.testclient import TestClient
from westeros.server import create_app
app = create_app(token="two-machines-token-0123456789", store_url=sys.argv[1])
with TestClient(app, base_url="http://127.0.0.1") as core:
    core.cookies.set("westeros_token", "two-machines-token-0123456789")
    page = core.post("/online/host", data={"name": "Host", "players": "3", "open": "2",
        "interface_address": sys.argv[2], "listen_port": sys.argv[3], "ai_level": "baseline"}).text
    print("PAGE", " ".join(page.split()), flush=True)
    sys.stdin.read()
"""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def namespaces() -> Iterator[tuple[str, str]]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("the two-machine test needs root and iproute2 (ip netns) to make namespaces")
    if not CHROMIUM.exists():
        pytest.skip(f"the two-machine test needs Chromium at {CHROMIUM}")
    tag = uuid.uuid4().hex[:6]
    host, join = f"wto-h-{tag}", f"wto-j-{tag}"
    try:
        _ip("netns", "add", host)
        _ip("netns", "add", join)
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"network namespaces are not allowed here ({exc.stderr.decode().strip()})")
    try:
        _ip("link", "add", f"vh{tag}", "type", "veth", "peer", "name", f"vj{tag}")
        _ip("link", "set", f"vh{tag}", "netns", host)
        _ip("link", "set", f"vj{tag}", "netns", join)
        for ns, dev, ip in ((host, f"vh{tag}", HOST_IP), (join, f"vj{tag}", JOIN_IP)):
            _ip("-n", ns, "addr", "add", f"{ip}/24", "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield host, join
    finally:
        for ns in (host, join):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_a_person_on_another_machine_joins_through_the_invite_link(
    namespaces: tuple[str, str], tmp_path: Path, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    host_ns, join_ns = namespaces
    env = {**os.environ, "WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "1"}
    hosting = subprocess.Popen(
        [
            "ip",
            "netns",
            "exec",
            host_ns,
            sys.executable,
            "-c",
            HOST_SCRIPT,
            f"sqlite:///{tmp_path / 'host.db'}",
            HOST_IP,
            str(PORT),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert hosting.stdout is not None
        line = hosting.stdout.readline()
        assert line.startswith("PAGE"), line
        invites = re.findall(r'value="(http://[\d.]+:\d+/join#invite=[^"]+)"', line)
        assert invites and invites[0].startswith(f"http://{HOST_IP}:{PORT}/join#invite=")
        browser_in_ns = tmp_path / "chromium-in-ns"
        browser_in_ns.write_text(f'#!/bin/sh\nexec ip netns exec {join_ns} {CHROMIUM} "$@"\n')
        browser_in_ns.chmod(0o755)
        browser = launch_chromium(browser_in_ns, CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(invites[0])
        page.locator("#identity input[name=name]").fill("Guest far away")
        page.locator("#identity button[type=submit]").click()
        page.wait_for_url("**/lobbies/*")
        expect(page.get_by_test_id("seats")).to_contain_text("Guest far away")
        expect(page.get_by_test_id("seats")).to_contain_text("Host")
        assert page.evaluate("location.href").startswith(f"http://{HOST_IP}:{PORT}/")
    finally:
        hosting.kill()
        hosting.wait(10)
