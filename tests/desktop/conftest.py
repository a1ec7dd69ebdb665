"""Desktop test fixtures: a virtual screen (Xvfb) for the real-window tests."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator

import pytest


@pytest.fixture
def display() -> Iterator[str]:
    """An Xvfb display (its name, e.g. ":93"), stopped after the test."""
    number = 90 + os.getpid() % 50
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    assert server.poll() is None, "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(10)
