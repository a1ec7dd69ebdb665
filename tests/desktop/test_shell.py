"""The desktop shell's local core (desktop issue, DESIGN §4): 127.0.0.1, a free port, a
per-launch token, a clean stop, and a friendly page when the core cannot start."""

from __future__ import annotations

import http.cookiejar
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from westeros.desktop import CoreStartError, LocalCore, error_page


def test_the_core_serves_only_with_its_token_and_stops_cleanly(tmp_path: Path) -> None:
    core = LocalCore(store_url=f"sqlite:///{tmp_path / 'games.db'}", ai_delay=0)
    url = core.start()
    try:
        assert url.startswith(f"http://127.0.0.1:{core.port}/?token=")
        assert len(core.token) >= 32
        browser = urllib.request.build_opener(  # keeps the cookie, as a browser does
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with browser.open(url, timeout=10) as page:  # 303 to "/" without the token
            assert (page.status, page.geturl()) == (200, f"http://127.0.0.1:{core.port}/")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{core.port}/", timeout=10)
        assert refused.value.code == 403
    finally:
        core.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=2)


def test_a_core_that_cannot_start_raises_a_clear_error(tmp_path: Path) -> None:
    core = LocalCore(store_url=f"sqlite:///{tmp_path / 'games.db'}", ai_delay=0)
    with socket.socket() as taken:
        taken.bind((core.host, core.port))
        taken.listen()
        with pytest.raises(CoreStartError, match="stopped while starting"):
            core.start(timeout=20)


def test_the_error_page_explains_and_names_the_log(tmp_path: Path) -> None:
    page = error_page(RuntimeError("database <locked>"), tmp_path / "westeros.log")
    assert "Westeros could not start" in page
    assert "database &lt;locked&gt;" in page
    assert str(tmp_path / "westeros.log") in page
