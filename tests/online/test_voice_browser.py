"""Issue 39 acceptance 1 and 2, in real Chromium with fake media devices (a 440 Hz tone as each
person's microphone): people at an online game's boards join table voice and hear each other
peer to peer (the counters of their RTCPeerConnections: inbound audio bytes and audio energy
rising, a level above silence); muting oneself stops one's outbound audio; muting a person
silences them for that listener only; two houses that step aside hear only each other, the
table sees them as talking privately and hears them again when they come back; a spectator
hears neither."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .seat_helpers import LiveOnline, live_online, require_chromium
from .voice_browser import (
    connected,
    hears,
    join_voice,
    launch_voice_browser,
    received,
    seat_people,
    sent,
    settles,
    spectator_page,
    stats,
)

PEOPLE = [("Hal", "stark"), ("Ann", "lannister"), ("Bo", "baratheon")]


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    require_chromium()
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    with live_online(tmp_path) as live:
        yield live


@pytest.mark.slow
def test_three_people_hear_each_other_and_mutes_stop_audio(
    server: LiveOnline, launch_chromium: Any, tmp_path: Path
) -> None:
    """Issue 39 acceptance 1: Hal (the host, Stark), Ann (Lannister) and Bo (Baratheon) join
    table voice from their boards; each receives audio from the other two. Bo mutes himself:
    his pages send no more audio and neither Hal nor Ann receives any from him, while they
    still hear each other. Ann mutes Hal for herself: she no longer hears him, Bo still
    does."""
    from playwright.sync_api import expect

    browser = launch_voice_browser(launch_chromium, tmp_path)
    _, people = seat_people(server, browser, PEOPLE)
    hal, ann, bo = (person.page for person in people)
    for person in people:
        join_voice(person.page)
    houses = [house for _, house in PEOPLE]
    for person in people:
        connected(person.page, [h for h in houses if h != person.house])
    for person in people:
        for other in houses:
            if other != person.house:
                assert hears(person.page, other), f"{person.name} does not hear {other}"
    print("Hal's connections:", stats(hal))
    expect(hal.get_by_test_id("house-lannister").locator(".voice-badge")).to_have_text("speaking")
    expect(ann.get_by_test_id("roster-stark").locator(".voice-badge")).to_have_text("speaking")

    bo.get_by_test_id("voice-mute").click()
    expect(bo.get_by_test_id("voice-mute")).to_have_attribute("aria-pressed", "true")
    assert settles(lambda: sent(bo)) is not None, "Bo's page still sends audio"
    for listener in (hal, ann):
        assert settles(functools.partial(received, listener, "baratheon")) is not None
    assert hears(hal, "lannister") and hears(ann, "stark")
    print("after Bo muted himself, Hal's connections:", stats(hal))

    ann.get_by_test_id("voice-mute-stark").click()
    expect(ann.get_by_test_id("voice-mute-stark")).to_have_attribute("aria-pressed", "true")
    assert settles(lambda: received(ann, "stark")[1]) is not None, "Ann still hears Hal"
    assert hears(bo, "stark"), "Ann's mute silenced Hal for Bo too"
    assert hears(hal, "lannister")
    print("after Ann muted Hal, Ann's connections:", stats(ann))
    for person in people:
        assert not person.page.errors, (person.name, person.page.errors)


@pytest.mark.slow
def test_two_houses_step_aside_and_only_they_hear_each_other(
    server: LiveOnline, launch_chromium: Any, tmp_path: Path
) -> None:
    """Issue 39 acceptance 2: in a game whose host lets spectators hear the table, Hal
    (Stark) asks Ann (Lannister) to step aside and she accepts. While they talk privately they
    hear each other, Bo's connections receive nothing from either, Bo's board shows both as
    talking privately (Houses panel and roster), and Sam, a spectator on the lobby page,
    hears Bo but neither of them. Ann goes back to the table: Bo and Sam hear both again."""
    from playwright.sync_api import expect

    browser = launch_voice_browser(launch_chromium, tmp_path)
    lobby_id, people = seat_people(server, browser, PEOPLE, spectators_hear=True)
    hal, ann, bo = (person.page for person in people)
    sam = spectator_page(server, browser, lobby_id, "Sam")
    for page in (hal, ann, bo, sam):
        join_voice(page)
    houses = [house for _, house in PEOPLE]
    connected(sam, houses)
    assert all(hears(sam, house) for house in houses)

    hal.get_by_test_id("voice-aside-lannister").click()
    ann.get_by_test_id("voice-request-stark").get_by_role("button", name="Accept").click()
    expect(hal.get_by_test_id("voice-status")).to_have_text(
        "You are talking privately with Lannister."
    )
    connected(hal, ["lannister"])
    connected(ann, ["stark"])
    connected(bo, [])
    connected(sam, ["baratheon"])
    assert hears(hal, "lannister") and hears(ann, "stark")
    assert hears(sam, "baratheon")
    for house in ("stark", "lannister"):
        assert received(bo, house) == (0, 0) and received(sam, house) == (0, 0)
        for where in ("house", "roster"):
            badge = bo.get_by_test_id(f"{where}-{house}").locator(".voice-badge")
            expect(badge).to_have_text("talking privately")
    expect(bo.get_by_test_id("voice-aside")).to_have_text(
        "Stark and Lannister are talking privately."
    )

    ann.get_by_test_id("voice-return").click()
    expect(bo.get_by_test_id("voice-aside")).to_have_count(0)
    connected(bo, ["stark", "lannister"])
    connected(sam, houses)
    assert hears(bo, "stark") and hears(bo, "lannister")
    assert hears(sam, "stark") and hears(sam, "lannister")
    expect(bo.get_by_test_id("house-stark").locator(".voice-badge")).not_to_have_text(
        "talking privately"
    )
    for page in (hal, ann, bo, sam):
        assert not page.errors, page.errors


@pytest.mark.slow
def test_keyboard_push_to_talk_and_the_host_s_mute(
    server: LiveOnline, launch_chromium: Any, tmp_path: Path
) -> None:
    """Issue 39 "controls people expect", by keyboard: everyone joins with Enter; Bo chooses
    push-to-talk in the voice settings and sends nothing until he holds V, not even V typed
    into the chat box; he makes B his key. The host mutes Ann at the table: her page says so
    and sends nothing; unmuted, Bo hears her again. The voice panel, joined and with its
    settings open, has no serious or critical accessibility finding (axe-core)."""
    from playwright.sync_api import expect

    from ..ui.test_accessibility_audit import assert_clean, audit

    browser = launch_voice_browser(launch_chromium, tmp_path)
    _, people = seat_people(server, browser, PEOPLE)
    hal, ann, bo = (person.page for person in people)
    for page in (hal, ann, bo):
        page.get_by_test_id("voice-join").focus()
        page.keyboard.press("Enter")
        page.get_by_test_id("voice-leave").wait_for(state="visible")
    houses = [house for _, house in PEOPLE]
    for person in people:
        connected(person.page, [h for h in houses if h != person.house])
    assert hears(hal, "baratheon")

    bo.locator(".voice-settings summary").focus()
    bo.keyboard.press("Enter")
    bo.get_by_test_id("voice-ptt").focus()
    bo.keyboard.press("Space")
    expect(bo.get_by_test_id("voice-status")).to_have_text("Hold V to talk.")
    assert settles(lambda: sent(bo)) is not None, "push-to-talk sends while V is not held"
    bo.get_by_test_id("voice-status").click()  # focus on the page, not in a field
    bo.keyboard.down("v")
    expect(bo.get_by_test_id("voice-status")).to_have_text("You are talking.")
    assert hears(hal, "baratheon") and hears(ann, "baratheon")
    bo.keyboard.up("v")
    assert settles(lambda: received(hal, "baratheon")) is not None
    bo.get_by_test_id("chat-text").focus()
    bo.keyboard.down("v")
    assert settles(lambda: sent(bo)) is not None, "V typed into the chat box sends audio"
    bo.keyboard.up("v")
    expect(bo.get_by_test_id("voice-status")).to_have_text("Hold V to talk.")
    bo.get_by_test_id("voice-key").focus()
    bo.keyboard.press("b")
    expect(bo.get_by_test_id("voice-key")).to_have_value("B")
    expect(bo.get_by_test_id("voice-status")).to_have_text("Hold B to talk.")

    hal.get_by_test_id("voice-host-mute-lannister").focus()
    hal.keyboard.press("Enter")
    expect(ann.get_by_test_id("voice-status")).to_have_text("The host has muted you at the table.")
    expect(bo.get_by_test_id("voice-person-lannister")).to_contain_text("muted by the host")
    assert settles(lambda: sent(ann)) is not None, "a muted person still sends audio"
    assert settles(lambda: received(bo, "lannister")) is not None
    hal.get_by_test_id("voice-host-mute-lannister").click()
    expect(ann.get_by_test_id("voice-status")).to_have_text("Your microphone is open.")
    assert hears(bo, "lannister")

    hal.locator(".voice-settings summary").click()
    assert_clean(audit(hal, "voice panel, joined"))
    for page in (hal, ann, bo):
        assert not page.errors, page.errors


def test_a_refused_microphone_says_what_to_do(
    server: LiveOnline, launch_chromium: Any, tmp_path: Path
) -> None:
    """Issue 39: "a clear message when the browser refuses the microphone, saying what to do".
    Chromium refuses every microphone request: Join table voice shows the message and the
    page is not in table voice."""
    from playwright.sync_api import expect

    from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS

    browser = launch_chromium(
        CHROMIUM,
        [
            *CHROMIUM_ARGS,
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream=deny",
        ],
    )
    _, (hal,) = seat_people(server, browser, PEOPLE[:1], players=3)
    hal.page.get_by_test_id("voice-join").click()
    error = hal.page.get_by_test_id("voice-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("The microphone was refused.")
    expect(error).to_contain_text("allow it for this page")
    expect(hal.page.get_by_test_id("voice-join")).to_be_visible()
    expect(hal.page.get_by_test_id("voice-status")).to_have_text("You are not in table voice.")
