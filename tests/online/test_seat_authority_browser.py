"""Issue 35 acceptance 4 (findings 4 and 5, docs/online.md "Seats"), in Chromium: a person
switches seats on the lobby page and from then on reads only the new seat's ravens; the old
seat's ravens — those sent before the switch and those sent to the seat's next holder — never
appear on that page again, and what they write goes out from the new seat."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .seat_helpers import (
    LiveOnline,
    chat,
    launch_context,
    live_online,
    page_post,
    receive,
    receive_until,
    register,
    require_chromium,
)

RECORD_ADDED_LINES = """() => {
  window.__added = [];
  new MutationObserver((changes) => {
    for (const change of changes)
      for (const node of change.addedNodes) window.__added.push(node.textContent);
  }).observe(document.getElementById("chat-lines"), { childList: true });
}"""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    require_chromium()
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    with live_online(tmp_path) as live:
        yield live


def test_a_person_who_switches_seats_on_the_lobby_page_reads_only_the_new_seat_s_ravens(
    server: LiveOnline, launch_chromium: Any
) -> None:
    """Issue 35 acceptance 4 (finding 4, C1): Alice holds Lannister with the lobby page open
    and reads a raven to Lannister; she takes Baratheon on the page; Bob takes Lannister.
    Of the host's ravens that follow, the page shows Baratheon's and never Lannister's, and
    the Lannister raven it showed before is gone; Alice's raven goes out from Baratheon."""
    from playwright.sync_api import expect

    base = server.url
    host, bob = register(server, "Hal"), register(server, "Bob")
    lobby_id = host.post("/api/lobbies", {"players": 3, "house": "stark", "name": "Switch"})[
        "lobby"
    ]["id"]
    context = launch_context(launch_chromium)
    page_post(context, base, "/api/players", {"name": "Alice"})
    page_post(context, base, f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})

    with ExitStack() as sockets:
        table = sockets.enter_context(host.socket(f"/ws/lobbies/{lobby_id}"))
        assert receive(table)["type"] == "roster"
        page = context.new_page()
        page.goto(f"{base}/lobbies/{lobby_id}")
        expect(page.get_by_test_id("seat-lannister")).to_have_text("Alice")
        expect(page.get_by_test_id("ready")).to_be_visible()  # the page listens now
        chat(table, "Lannister: before the switch", to="lannister")
        expect(page.locator(".chat-text", has_text="Lannister: before the switch")).to_be_visible()

        page.evaluate(RECORD_ADDED_LINES)
        row = page.locator("tr", has=page.get_by_test_id("seat-baratheon"))
        row.get_by_role("button", name="Take").click()
        expect(page.get_by_test_id("seat-baratheon")).to_have_text("Alice")
        bob.post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})
        chat(table, "Lannister: for Bob only", to="lannister")
        chat(table, "Baratheon: for Alice", to="baratheon")
        chat(table, "Everyone: sentinel")
        expect(page.locator(".chat-text", has_text="Everyone: sentinel")).to_be_visible()

        shown = page.locator(".chat-text").all_inner_texts()
        added = page.evaluate("window.__added")
        print("the page shows:", shown, "| lines added after the switch:", added)
        assert not [text for text in added if "Lannister:" in text]
        assert not [text for text in shown if "Lannister:" in text]
        assert "Baratheon: for Alice" in shown
        expect(page.get_by_test_id("chat-seat")).to_be_visible()
        ravens_to = page.get_by_test_id("chat-to").locator("option").all_inner_texts()
        assert not [option for option in ravens_to if "Baratheon" in option]

        page.get_by_test_id("chat-to").select_option("stark")
        page.get_by_test_id("chat-text").fill("From Storm's End")
        page.locator("#chat-form button[type=submit]").click()
        line, _ = receive_until(table, lambda m: m.get("text") == "From Storm's End")
        assert (line["house"], line["to"]) == ("baratheon", "stark")
    context.close()
