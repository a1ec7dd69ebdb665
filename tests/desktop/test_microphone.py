"""Issue 39 (desktop point): the *Play online* window grants the microphone to the pages of the
server it was opened for, and to no other page it comes to show (Qt WebEngine under Xvfb; the
WebView2 side, on Windows, is not tested here). Before, pywebview's Qt backend granted the
microphone and camera to every page."""

from __future__ import annotations

import http.server
import importlib.util
import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from westeros import remote
from westeros.microphone import allows, origin

ASK = b"""<!doctype html><html><body><script>
navigator.mediaDevices.getUserMedia({audio: true}).then(
  (stream) => ({microphone: "granted", tracks: stream.getAudioTracks().length}),
  (error) => ({microphone: error.name}),
).then((result) => fetch("/report", {method: "POST", body: JSON.stringify(
  {origin: location.origin, ...result})})).then(() => {
  const next = new URLSearchParams(location.search).get("next");
  if (next) location.href = next;
});
</script></body></html>"""


def test_origins_are_compared_as_browsers_name_them() -> None:
    """The origin of a page: scheme, host and port (the default port left out)."""
    assert origin("http://127.0.0.1:8765/games/x/play/stark?token=1#a") == "http://127.0.0.1:8765"
    assert origin("HTTPS://Example.org:443/") == "https://example.org"
    assert allows("http://127.0.0.1:8765", "http://127.0.0.1:8765/lobbies/1")
    assert not allows("http://127.0.0.1:8765", "http://127.0.0.1:8766/lobbies/1")
    assert not allows("http://127.0.0.1:8765", "https://127.0.0.1:8765/")
    assert not allows("http://127.0.0.1:8765", "")


def serve(reports: list[dict[str, Any]]) -> http.server.ThreadingHTTPServer:
    """A server of ``ASK`` that collects the pages' reports."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(ASK)

        def do_POST(self) -> None:
            reports.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt xvfb)")
@pytest.mark.skipif(
    importlib.util.find_spec("PyQt6.QtWebEngineWidgets") is None,
    reason="PyQt6-WebEngine is not installed (pip install -e '.[test]')",
)
def test_the_play_online_window_gives_the_microphone_to_its_server_only(
    display: str, tmp_path: Path
) -> None:
    """Under Xvfb with pywebview's Qt backend (a fake microphone device): the window opened
    for one server's link asks for the microphone there and gets it; the page then goes to
    another origin (another port), which asks too and is refused."""
    reports: list[dict[str, Any]] = []
    ours, other = serve(reports), serve(reports)
    elsewhere = f"http://127.0.0.1:{other.server_port}/elsewhere"
    link = f"http://127.0.0.1:{ours.server_port}/join?next={elsewhere}#invite=probe"
    environ = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": (
            "--disable-gpu --no-sandbox --use-fake-device-for-media-stream"
        ),
        "HOME": str(tmp_path),
    }
    child = remote.open_window(link, environ=environ)
    try:
        deadline = time.monotonic() + 120
        while len(reports) < 2:
            assert child.poll() is None, "the window's process ended early"
            assert time.monotonic() < deadline, f"the pages reported {reports} within 120 s"
            time.sleep(0.2)
    finally:
        child.terminate()
        child.wait(30)
        ours.shutdown()
        other.shutdown()
    by_origin = {report["origin"]: report for report in reports}
    print("the pages reported:", by_origin)
    assert by_origin[origin(link)]["microphone"] == "granted"
    # refused: Qt WebEngine 6.11 ends the refused request with AbortError
    assert by_origin[origin(elsewhere)]["microphone"] in ("NotAllowedError", "AbortError")
