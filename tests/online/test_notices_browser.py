"""The notice settings as a person uses them, in Chromium (issue 40; docs/online-notices.md):
they give their address on /notices, follow the link it gets, pick Chinese for their messages
and save a webhook; the page says where notices go (and axe-core finds nothing serious on it);
this browser can register the notices' service worker; the host sets the game's webhook on
the lobby page; and the game's first decision reaches them by e-mail, in Chinese, and at both
webhooks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import wait_for
from .notices_helpers import Mailbox, Receiver, links, mailbox, receiver, text
from .seat_helpers import browser_context, live_online, register_in_context, require_chromium

ADDRESS = "alice@example.org"
SEVERE = ("serious", "critical")


def _severe(page: Any) -> list[str]:
    """axe-core's serious and critical violations on ``page`` (as the UI audit counts)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.wait_for_load_state("networkidle")
    found = axe.run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in found if v["impact"] in SEVERE]


@pytest.fixture
def box() -> Iterator[Mailbox]:
    with mailbox() as found:
        yield found


@pytest.fixture
def hooks() -> Iterator[Receiver]:
    with receiver() as found:
        yield found


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: Mailbox) -> Iterator[str]:
    require_chromium()
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("WESTEROS_NOTICE_PRIVATE_TARGETS", "1")
    for name, value in box.env().items():
        monkeypatch.setenv(name, value)
    with live_online(tmp_path) as live:
        yield live.url


def test_a_person_sets_up_notices_and_gets_the_first_one(
    server: str, launch_chromium: Any, box: Mailbox, hooks: Receiver, tmp_path: Path
) -> None:
    from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS

    context = browser_context(launch_chromium(CHROMIUM, CHROMIUM_ARGS))
    register_in_context(context, server, "Alice")
    page = context.new_page()
    page.goto(server + "/notices")
    email = page.locator("#notices-email")
    email.locator("input[name=address]").fill(ADDRESS)
    email.locator("button[type=submit]").click()
    status = page.get_by_test_id("email-status")
    status.filter(has_text="confirmation link was sent").wait_for()
    link = links(box.wait(ADDRESS, 1)[-1])[0]

    page.goto(link)
    assert ADDRESS in page.get_by_test_id("verified").inner_text()
    page.goto(server + "/notices")
    status.filter(has_text=f"Notices go to {ADDRESS}").wait_for()
    assert page.get_by_test_id("email-on").is_checked()

    page.locator("#notices-language select").select_option("zh_CN")
    hook = page.locator("#notices-webhook")
    hook.locator("input[name=url]").fill(hooks.url("/alice"))
    hook.locator("button[type=submit]").click()
    page.locator("#webhook-status").filter(has_text="Saved.").wait_for()
    saved = json.loads(context.request.get(server + "/api/notices").text())
    assert saved["language"] == "zh_CN"
    assert saved["webhook"] == {"url": hooks.url("/alice"), "on": True}

    assert page.get_by_test_id("push-subscribe").is_visible()  # 127.0.0.1 is a secure page
    registered = page.evaluate(
        "navigator.serviceWorker.register('/static/js/online/notices-sw.js')"
        ".then((r) => r.active || r.installing || r.waiting ? 'yes' : 'no')"
    )
    assert registered == "yes"
    page.screenshot(path=str(tmp_path / "notices.png"), full_page=True)
    assert _severe(page) == []

    page.goto(server + "/")
    page.locator("#create button[type=submit]").wait_for(state="visible")
    page.locator("#create select[name=players]").select_option("3")
    page.locator("#create input[name=open]").fill("1")
    page.locator("#create button[type=submit]").click()
    page.wait_for_url("**/lobbies/*")
    game_hook = page.get_by_test_id("notices-game-webhook")
    game_hook.wait_for(state="visible")  # the host's own
    game_hook.locator("input[name=url]").fill(hooks.url("/game"))
    game_hook.locator("button[type=submit]").click()
    page.locator("#notices-game-webhook-status").filter(has_text="Saved.").wait_for()
    page.get_by_test_id("start").click()
    page.get_by_test_id("play").wait_for(state="visible")

    mail = box.wait(ADDRESS, 2)[-1]
    assert mail["Subject"].startswith("轮到你了")
    assert "下达命令" in text(mail)
    wait_for(lambda: hooks.at("/alice") and hooks.at("/game"))
    assert "下达命令" in json.loads(hooks.at("/alice")[0][1])["content"]
