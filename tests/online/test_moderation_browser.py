"""The chat's Block and Report buttons and an anonymous table's names, in Chromium (issue 40;
docs/online-moderation.md), in English and in Chinese: on an anonymous table's lobby page a
person sees every seat and chat line as "Player of House …" in the page's language; they
report one of another person's lines with a reason (the operator's list has it), block its
writer (their lines leave the page, and what they write next never comes), and unblock them
(their lines are back)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, NamedTuple

import pytest

from .seat_helpers import (
    LiveOnline,
    Person,
    chat,
    launch_context,
    page_post,
    receive,
    receive_until,
    register,
)

WORDS = {
    "en": {
        "stark": "Player of House Stark",
        "lannister": "Player of House Lannister",
        "block": "Block",
        "report": "Report",
        "send": "Send the report",
        "reported": "Reported",
        "unblock": "Unblock",
    },
    "zh-CN": {
        "stark": "史塔克家族玩家",
        "lannister": "兰尼斯特家族玩家",
        "block": "屏蔽",
        "report": "举报",
        "send": "发送举报",
        "reported": "已举报",
        "unblock": "取消屏蔽",
    },
}

pytestmark = pytest.mark.usefixtures("chromium")


class Table(NamedTuple):
    context: Any  # Cara's browser context
    lobby_id: str
    host: Any  # Hal's lobby socket
    writer: Any  # Bob's lobby socket
    bob: Person


@contextmanager
def table_of_three(server: LiveOnline, launch_chromium: Any, anonymous: bool) -> Iterator[Table]:
    """Hal's table (Stark) with Bob (Lannister) and Cara (Baratheon, in a browser context),
    Hal's and Bob's lobby sockets past their first roster."""
    hal, bob = register(server, "Hal Rowan"), register(server, "Bob Marsh")
    created = hal.post("/api/lobbies", {"players": 3, "house": "stark", "anonymous": anonymous})
    lobby_id = created["lobby"]["id"]
    bob.post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})
    context = launch_context(launch_chromium)
    page_post(context, server.url, "/api/players", {"name": "Cara"})
    page_post(context, server.url, f"/api/lobbies/{lobby_id}/take", {"house": "baratheon"})
    with ExitStack() as held:
        held.callback(context.close)
        host = held.enter_context(hal.socket(f"/ws/lobbies/{lobby_id}"))
        writer = held.enter_context(bob.socket(f"/ws/lobbies/{lobby_id}"))
        for ws in (host, writer):
            assert receive(ws)["type"] == "roster"
        yield Table(context, lobby_id, host, writer, bob)


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_a_person_reports_blocks_and_unblocks_on_an_anonymous_table_s_page(
    server: LiveOnline, launch_chromium: Any, lang: str
) -> None:
    from playwright.sync_api import expect

    words = WORDS[lang]
    base = server.url
    with table_of_three(server, launch_chromium, True) as (context, lobby_id, host, writer, bob):
        page = context.new_page()
        page.goto(f"{base}/lobbies/{lobby_id}?lang={lang}")
        expect(page.get_by_test_id("seat-stark")).to_have_text(words["stark"])
        expect(page.get_by_test_id("seat-lannister")).to_have_text(words["lannister"])
        expect(page.get_by_test_id("ready")).to_be_visible()
        chat(writer, "you will all lose")
        line = page.get_by_test_id("chat-line").filter(has_text="you will all lose")
        expect(line).to_contain_text(words["lannister"])

        line.get_by_role("button", name=words["report"]).click()
        line.get_by_test_id("chat-report-reason").fill("taunting")
        line.get_by_role("button", name=words["send"]).click()
        expect(line.get_by_test_id("chat-reported")).to_contain_text(words["reported"])
        (report,) = server.hub.moderation.reports()
        assert (report.text, report.reason, report.sender_id) == (
            "you will all lose",
            "taunting",
            bob.id,
        )

        line.get_by_role("button", name=words["block"]).click()
        expect(line).to_have_count(0)
        expect(page.get_by_test_id("chat-blocked")).to_contain_text("Player of House Lannister")
        chat(writer, "still here")
        receive_until(writer, lambda m: m.get("text") == "still here")
        chat(host, "sentinel")
        expect(page.locator(".chat-text", has_text="sentinel")).to_be_visible()
        assert "still here" not in page.locator(".chat-text").all_inner_texts()

        page.get_by_test_id("chat-blocks").locator("summary").click()  # the list opens
        page.get_by_test_id("chat-blocked").get_by_role("button", name=words["unblock"]).click()
        expect(page.locator(".chat-text", has_text="still here")).to_be_visible()
        expect(page.locator(".chat-text", has_text="you will all lose")).to_be_visible()
        expect(page.get_by_test_id("chat-blocks")).to_be_hidden()
        shown = page.locator("body").inner_text()
        assert "Bob" not in shown and "Hal" not in shown and "Marsh" not in shown


def test_a_report_being_written_stays_open_with_its_reason_when_the_lines_are_redrawn(
    server: LiveOnline, launch_chromium: Any
) -> None:
    """A person writes a report on one line and blocks another writer before sending it:
    the chat is drawn again without the blocked lines, and the report form stays under its
    line with the reason typed so far, which is sent as typed. (CI once lost the form to the
    redraw that shows an anonymous table's names in the page's language.)"""
    from playwright.sync_api import expect

    base = server.url
    with table_of_three(server, launch_chromium, False) as (context, lobby_id, host, writer, _):
        chat(writer, "you will all lose")
        chat(host, "hold the wall")
        page = context.new_page()
        page.goto(f"{base}/lobbies/{lobby_id}")
        bobs = page.get_by_test_id("chat-line").filter(has_text="you will all lose")
        hals = page.get_by_test_id("chat-line").filter(has_text="hold the wall")
        expect(hals).to_be_visible()

        bobs.get_by_role("button", name="Report").click()
        bobs.get_by_test_id("chat-report-reason").fill("taunting")
        hals.get_by_role("button", name="Block").click()
        expect(hals).to_have_count(0)
        expect(page.get_by_test_id("chat-blocked")).to_contain_text("Hal Rowan")

        expect(bobs.get_by_test_id("chat-report-reason")).to_have_value("taunting")
        bobs.get_by_role("button", name="Send the report").click()
        expect(bobs.get_by_test_id("chat-reported")).to_be_visible()
        (report,) = server.hub.moderation.reports()
        assert (report.text, report.reason) == ("you will all lose", "taunting")
        page.get_by_test_id("chat-blocks").locator("summary").click()
        page.get_by_test_id("chat-blocked").get_by_role("button", name="Unblock").click()
        expect(hals).to_be_visible()
        expect(bobs.get_by_test_id("chat-reported")).to_be_visible()  # still marked
