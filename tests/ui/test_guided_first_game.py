"""The guided first game in the browser (issue 37 point 1, acceptance 1): offered on the first
start, played to its end by clicking only what the guide outlines, in English and in Chinese,
left half-way for the start screen and continued from its "Continue"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from westeros.server.games import ai_factory_for
from westeros.server.guide import TOPICS

STEP_TIMEOUT_MS = 20_000
MAX_CLICKS = 120
TOPIC_IDS = [topic for topic, _ in TOPICS]


def next_spot(page: Page) -> bool:
    """Wait until the guide outlines something to use (True) or says it is complete (False)."""
    page.wait_for_function(
        "() => Boolean(document.querySelector('.guide-spot')) || "
        "document.getElementById('guide')?.dataset.complete === 'true'",
        timeout=STEP_TIMEOUT_MS,
    )
    return page.locator("#guide").get_attribute("data-complete") != "true"


def follow(page: Page, seen: list[str], *, stop_at: str | None = None) -> None:
    """Click whatever the guide outlines, one element at a time, recording each topic the guide
    names, until it says the guided game is complete (or, with ``stop_at``, until it reaches
    that topic)."""
    box = page.locator("#guide")
    for _ in range(MAX_CLICKS):
        if not next_spot(page):
            return
        topic = box.get_attribute("data-topic") or ""
        if topic == stop_at:
            return
        if topic and (not seen or seen[-1] != topic):
            seen.append(topic)
        key = box.get_attribute("data-key")
        spots = page.locator(".guide-spot")
        expect(spots).to_have_count(1)
        spots.click()
        page.wait_for_function(
            "key => document.getElementById('guide').dataset.key !== key",
            arg=key,
            timeout=STEP_TIMEOUT_MS,
        )
    pytest.fail(f"the guide was not complete after {MAX_CLICKS} clicks (topics {seen})")


@pytest.mark.parametrize(
    ("lang", "offer", "complete"),
    [
        ("en", "Play the guided first game", "Guided game complete"),
        ("zh_CN", "开始新手引导对局", "新手引导对局完成"),
    ],
)
def test_guided_first_game_followed_by_its_highlights_left_and_resumed(
    page: Page, core_factory: Any, lang: str, offer: str, complete: str
) -> None:
    """The first start offers the guided game; clicking only the outlined element at each step
    goes through the ten topics in order of play (orders 4.1, raid 5.2, march 5.3, support
    5.4.1, house cards 5.4.3, consolidating 5.6, Westeros cards 3.2, mustering 3.5, Clash of
    Kings 3.6, wildlings 7) to the guide's end; leaving for the start screen mid-way and
    pressing Continue picks the guide up at the same step."""
    core = core_factory(ai_factory=ai_factory_for())
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    start = page.get_by_test_id("guide-start").first
    expect(start).to_have_text(offer)
    start.click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/lannister$"))
    game = re.findall(r"/games/([^/]+)/play/", page.url)[0]

    seen: list[str] = []
    follow(page, seen, stop_at="combat")
    assert seen == TOPIC_IDS[:4]
    page.get_by_test_id("guide-leave").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_test_id("guide-offer")).to_have_count(0)
    page.get_by_test_id(f"open-{game}").click()
    page.wait_for_url(re.compile(rf"/games/{game}/play/lannister$"))
    expect(page.locator("#guide")).to_have_attribute("data-topic", "combat")

    follow(page, seen)
    assert seen == TOPIC_IDS
    box = page.locator("#guide")
    expect(box).to_contain_text(complete)
    state = core.session(game).state
    assert [u.house for u in state.units["riverrun"]] == ["lannister", "lannister"]
    assert state.round == 2 and state.threat == 0
