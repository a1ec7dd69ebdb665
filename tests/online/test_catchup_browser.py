"""Issue 40 acceptance 4 (docs/online-catchup.md), in Chromium: a person opens their board,
leaves, and returns two rounds later (the other two people and the AI, which plays the absent
person's seat, went on meanwhile). "Since your last turn" lists the combats, the revealed
orders and the ravens sent to their house, never the raven between the two others, each line
a link to its step of the seat's replay: the test follows a combat's link and sees that step.
Closed (by keyboard), the panel does not come back; open, it has no serious or critical
accessibility finding (axe-core)."""

from __future__ import annotations

import re
from contextlib import ExitStack
from typing import Any

import pytest

from ..conftest import ARTIFACTS
from .catchup_helpers import play_until, progress, seat
from .helpers import wait_for
from .seat_helpers import (
    LiveOnline,
    chat,
    launch_context,
    page_post,
    receive_until,
    register,
)

TO_STARK = "Bob to Stark: the Neck is yours if you leave me Seagard"
BETWEEN_OTHERS = "Bob to Cara: Stark's back is turned"
ANSWER_BETWEEN_OTHERS = "Cara to Bob: agreed, at dawn"

pytestmark = pytest.mark.usefixtures("chromium")


def _open_board(context: Any, base: str, game_id: str) -> Any:
    page = context.new_page()
    with page.expect_response(lambda r: "/catchup/stark" in r.url) as asked:
        page.goto(f"{base}/games/{game_id}/play/stark")
    assert asked.value.ok, asked.value.text()
    page.wait_for_function("() => document.body.dataset.stateId")
    return page


def test_a_person_back_after_two_rounds_catches_up_and_follows_a_line_to_its_replay_step(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    from ..ui.test_accessibility_audit import assert_clean, audit

    base = server.url
    context = launch_context(launch_chromium)
    hal = page_post(context, base, "/api/players", {"name": "Hal"})
    bob, cara = register(server, "Bob"), register(server, "Cara")
    created = page_post(
        context,
        base,
        "/api/lobbies",
        {
            "players": 3,
            "house": "stark",
            "open_houses": ["stark", "lannister", "baratheon"],
            "ai_level": "baseline",
            "grace_seconds": 1,  # the AI takes an absent person's seat after a second
            "name": "Catch-up",
        },
    )
    lobby_id = created["lobby"]["id"]
    for person, house in ((bob, "lannister"), (cara, "baratheon")):
        person.post("/api/join", {"invite": created["invites"][house].split("#invite=")[1]})
        person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = page_post(context, base, f"/api/lobbies/{lobby_id}/start", {})["lobby"]["game_id"]
    catchup = server.app.state.online.catchup

    with ExitStack() as sockets:
        bots = [seat(sockets, bob, game_id, "lannister"), seat(sockets, cara, game_id, "baratheon")]
        first = _open_board(context, base, game_id)  # Hal looks at the board, then leaves
        first.close()
        left = wait_for(lambda: catchup.seen.since(lobby_id, "stark", hal["id"]))
        left_round = progress(server, game_id)[1]
        print(f"Hal left at step {left.seq} (round {left_round})")

        bob_table = sockets.enter_context(bob.socket(f"/ws/lobbies/{lobby_id}"))
        cara_table = sockets.enter_context(cara.socket(f"/ws/lobbies/{lobby_id}"))
        chat(bob_table, TO_STARK, to="stark")
        chat(bob_table, BETWEEN_OTHERS, to="baratheon")
        receive_until(cara_table, lambda m: m.get("text") == BETWEEN_OTHERS)
        chat(cara_table, ANSWER_BETWEEN_OTHERS, to="lannister")
        receive_until(bob_table, lambda m: m.get("text") == ANSWER_BETWEEN_OTHERS)
        for house in ("stark", "baratheon"):  # a deal offered to Hal, and one to Cara
            offer = {"to": house, "term": {"kind": "non_aggression"}}
            bob.post(f"/games/{game_id}/deals/lannister/proposals", offer)

        serial, back_round = play_until(server, game_id, bots, after=left.seq, rounds=2)
        print(f"Hal comes back at step {serial} (round {back_round})")

        page = _open_board(context, base, game_id)
        panel = page.get_by_test_id("catchup")
        expect(panel).to_be_visible()
        expect(page.get_by_role("heading", name="Since your last turn")).to_be_visible()
        items = panel.get_by_test_id("catchup-item")
        texts = items.all_inner_texts()
        print("the catch-up:", *texts, sep="\n  ")
        kinds = [item.get_attribute("data-kind") for item in items.all()]
        assert {"combat", "orders", "raven", "messenger_raven"} <= set(kinds), kinds
        assert panel.locator(".catchup-round").count() >= 3  # the round left and two more
        raven = panel.locator("li[data-kind=raven]")
        expect(raven).to_have_count(1)
        expect(raven).to_contain_text(TO_STARK)
        expect(raven).to_contain_text("Lannister")
        whole = panel.inner_text()
        assert BETWEEN_OTHERS not in whole and ANSWER_BETWEEN_OTHERS not in whole
        deal = panel.locator("li[data-kind=deal]")
        expect(deal).to_have_count(1)
        expect(deal).to_contain_text("Lannister offers: Lannister and Stark do not attack")
        assert "Baratheon do not attack" not in whole and "and Lannister do not" not in whole
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "online-catchup.png"))
        assert_clean(audit(page, "online board with the catch-up open"))
        expect(panel.locator("li[data-kind=orders] .catchup-details li").first).to_be_visible()
        replay = re.compile(rf"^/games/{game_id}/replay/stark#step=(\d+)$")
        links = panel.locator("li[data-testid=catchup-item] > a")
        steps = []
        for link in links.all():
            found = replay.match(link.get_attribute("href") or "")
            assert found, link.get_attribute("href")
            steps.append(int(found.group(1)))
        assert all(left.seq <= step <= serial for step in steps), (left.seq, steps, serial)

        combat = panel.locator("li[data-kind=combat] > a").first
        combat_text, combat_step = combat.inner_text(), combat.get_attribute("data-step")
        with context.expect_page() as opened:
            combat.click()
        step_page = opened.value
        step_page.wait_for_function("step => document.body.dataset.step === step", arg=combat_step)
        expect(step_page.get_by_test_id("replay-step")).to_have_value(str(combat_step))
        expect(step_page.get_by_test_id("log")).to_contain_text(combat_text)
        print(f"followed {combat_text!r} to replay step {combat_step}")
        step_page.close()

        page.get_by_test_id("catchup-close").focus()
        page.keyboard.press("Enter")  # by keyboard
        expect(panel).to_be_hidden()
        wait_for(lambda: catchup.seen.since(lobby_id, "stark", hal["id"]).seq >= serial)
        page.close()
        again = _open_board(context, base, game_id)
        expect(again.get_by_test_id("catchup")).to_be_hidden()
    context.close()
