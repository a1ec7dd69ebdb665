"""Three people in three Chromium contexts (three keys) and a spectator in a fourth play a
6-player online game with three AI seats through a full round on the real board, talking in
public and by raven (docs/online.md). Each sees only what their house may see; the
spectator sees no secret and no raven; names and chat holding HTML stay text (nothing runs);
each person's replay of their seat shows the chat they read, and no spectator replays a seat
while the game runs.

The round is certain to hold a combat and bids: the server deals from ``SEED`` (fixed on the
server by the test: a client never chooses the seed, it orders every deck), whose round-2
Westeros cards are Supply, Clash of Kings (3.6: three bids by every house) and Feast for
Crows; and Greyjoy's person marches the ship of Ironman's Bay into the Golden Sound, where
Lannister's person keeps a Defense order (5.3, 5.4: a naval combat between two people, each
choosing a house card on their board). Only Greyjoy and Lannister border those two seas, so
no AI's raid or march can undo it."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS
from ..ui.driver import Played, play_one, prompt_kind, round_number
from .seat_helpers import (
    browser_context,
    live_online,
    page_post,
    register_in_context,
    require_chromium,
)

HOST, GUESTS = "lannister", ("stark", "greyjoy")
EVIL_NAME = "<img src=x onerror=window.__pwned=1>"
EVIL_CHAT = "<script>window.__pwned=2</script><b>bold?</b>"
SEED = 100
"""Round 2's Westeros cards from this seed: Supply, Clash of Kings, Feast for Crows."""
ATTACK_FROM, ATTACKED = "ironmans-bay", "the-golden-sound"
PREFER = {"greyjoy": {ATTACK_FROM: "march"}, HOST: {ATTACKED: "defense"}}
"""The people's order choices (every other area: the driver's usual preference)."""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    require_chromium()
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    with live_online(tmp_path) as live:
        monkeypatch.setattr(
            live.hub, "start_game", functools.partial(live.hub.start_game, seed=SEED)
        )
        yield live.url


def _send_chat(page: Any, text: str, to: str = "") -> None:
    page.get_by_test_id("chat-to").select_option(to)
    page.get_by_test_id("chat-text").fill(text)
    page.locator("#chat-form button[type=submit]").click()


def _chat_texts(page: Any) -> list[str]:
    return [line.inner_text() for line in page.locator(".chat-text").all()]


def _back_to_planning(page: Any, played: Played) -> bool:
    """Has this person played round 1 and round 2's Westeros phase, and is asked for round
    2's orders?"""
    return round_number(page) >= 2 and prompt_kind(page) == "place_orders" and "bid" in played.kinds


@pytest.mark.slow
def test_three_people_and_a_spectator_play_a_round_with_public_and_private_chat(
    server: str, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    people = {h: browser_context(browser) for h in (HOST, *GUESTS)}
    names = {HOST: "Cersei", "stark": EVIL_NAME, "greyjoy": "Theon"}
    for house, context in people.items():
        register_in_context(context, server, names[house])
    created = page_post(
        people[HOST],
        server,
        "/api/lobbies",
        {
            "players": 6,
            "house": HOST,
            "open_houses": [HOST, *GUESTS],
            "ai_level": "baseline",
            "name": "Six kings",
        },
    )
    lobby_id = created["lobby"]["id"]
    pages = {}
    for house in GUESTS:  # each guest opens their invite link, as sent by the host
        page = people[house].new_page()
        page.goto(server + created["invites"][house])
        page.wait_for_url(f"**/lobbies/{lobby_id}")
        page.get_by_test_id("ready").click()
        expect(page.get_by_test_id(f"seat-{house}")).to_have_text(names[house])
        expect(page.locator("tr", has=page.get_by_test_id(f"seat-{house}"))).to_contain_text(
            "ready"
        )
        pages[house] = page
    host = people[HOST].new_page()
    host.goto(f"{server}/lobbies/{lobby_id}")
    expect(host.get_by_test_id("start")).to_be_visible()
    expect(host.get_by_test_id("take-random")).to_be_hidden()  # every open seat is taken
    host.get_by_test_id("start").click()
    expect(host.get_by_test_id("play")).to_be_visible()
    pages[HOST] = host
    for house, page in pages.items():
        page.get_by_test_id("play").click()
        page.wait_for_url(f"**/play/{house}")
        page.wait_for_function("() => document.body.dataset.stateId")

    game_id = pages[HOST].url.split("/games/")[1].split("/")[0]
    spectator = browser_context(browser).new_page()
    spectator.goto(f"{server}/lobbies/{lobby_id}")
    spectator.evaluate(
        """id => { window.watched = [];
            const ws = new WebSocket(`ws://${location.host}/ws/games/${id}/watch`);
            ws.onmessage = (e) => window.watched.push(JSON.parse(e.data)); }""",
        game_id,
    )

    _send_chat(pages[HOST], "Greetings, my lords")
    _send_chat(pages[HOST], "Stark: the Neck is yours if you leave me the Riverlands", "stark")
    _send_chat(pages["stark"], EVIL_CHAT)
    expect(pages["greyjoy"].locator(".chat-text")).to_have_count(2)
    expect(pages["stark"].locator(".chat-text")).to_have_count(3)
    expect(spectator.locator(".chat-text")).to_have_count(2)
    assert "Stark: the Neck" not in " ".join(_chat_texts(pages["greyjoy"]))
    assert "Stark: the Neck" not in " ".join(_chat_texts(spectator))
    assert EVIL_CHAT in _chat_texts(pages["greyjoy"])

    played = {house: Played() for house in pages}
    deadline = time.monotonic() + 300
    while not all(_back_to_planning(page, played[house]) for house, page in pages.items()):
        assert time.monotonic() < deadline, {h: prompt_kind(p) for h, p in pages.items()}
        for house, page in pages.items():
            if prompt_kind(page) and not _back_to_planning(page, played[house]):
                play_one(page, played[house], PREFER.get(house))
        time.sleep(0.2)
    for house in pages:
        assert played[house].kinds[0] == "place_orders"
        assert played[house].kinds.count("bid") == 3, played[house].kinds  # Clash of Kings
    assert played["greyjoy"].orders[ATTACK_FROM].startswith("march")
    assert played[HOST].orders[ATTACKED].startswith("defense")
    assert ATTACKED in played["greyjoy"].attacks
    assert played["greyjoy"].cards and played[HOST].cards  # each chose a card on the board

    for house, page in pages.items():
        seen = page.evaluate("document.body.dataset.house")
        assert seen == house
        assert page.evaluate("window.__pwned") is None
    assert spectator.evaluate("window.__pwned") is None
    watched = spectator.evaluate("window.watched")
    views = [m for m in watched if m["type"] == "view"]
    assert views and all(m["house"] is None and m["view"]["prompt"] is None for m in views)
    fights = [m["view"]["combat"] for m in views if m["view"]["combat"]]
    ours = [c for c in fights if c["area"] == ATTACKED and c["defender"]["house"] == HOST]
    assert ours and all(c["attacker"]["house"] == "greyjoy" for c in ours)
    assert all(bool(c["attacker"]["card"]) == bool(c["defender"]["card"]) for c in fights)
    revealed = [e for m in views for e in m["log"] if e["kind"] == "house_cards_revealed"]
    (attacker, card), (defender, answer) = next(
        (e["attacker"], e["defender"]) for e in revealed if e["defender"][0] == HOST
    )
    assert attacker == "greyjoy" and card in played["greyjoy"].cards  # clicked by Greyjoy
    assert defender == HOST and answer in played[HOST].cards  # and by Lannister
    assert all("wildling_top" not in m["view"] for m in views)
    roster = pages[HOST].get_by_test_id("roster")
    expect(roster).to_contain_text(EVIL_NAME)

    # Each person's replay of their own seat holds the chat they read, no more.
    for house, page in pages.items():
        page.goto(f"{server}/games/{game_id}/replay/{house}")
        lines = page.get_by_test_id("replay-chat").locator(".chat-text")
        expect(lines).to_have_count(2 if house == "greyjoy" else 3)
        assert page.evaluate("window.__pwned") is None
    assert "Stark: the Neck" not in " ".join(_chat_texts(pages["greyjoy"]))
    assert EVIL_CHAT in _chat_texts(pages["greyjoy"])
    refused = spectator.goto(f"{server}/games/{game_id}/replay/stark")
    assert refused is not None and refused.status == 403


def test_a_lobby_offers_no_button_or_form_before_its_script_listens(
    server: str, launch_chromium: Any
) -> None:
    """A person who clicks "I am ready" or types a name while the page's script is still
    loading must not lose the click or the name (CI saw a ready click lost that way): the
    lobby's buttons stay hidden and the forms disabled until lobby.js has read the lobby."""
    from playwright.sync_api import expect

    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    context = browser.new_context()
    register_in_context(context, server, "Cersei")
    created = page_post(
        context,
        server,
        "/api/lobbies",
        {"players": 3, "house": HOST, "open_houses": [HOST, "stark"], "ai_level": "baseline"},
    )
    page = context.new_page()
    held: list[Any] = []
    page.route("**/static/js/online/lobby.js", lambda route: held.append(route))
    page.goto(f"{server}/lobbies/{created['lobby']['id']}", wait_until="commit")
    deadline = time.monotonic() + 30
    while not held:
        assert time.monotonic() < deadline, "the page never asked for lobby.js"
        page.wait_for_timeout(50)
    for button in ("ready", "take-random", "start"):
        expect(page.get_by_test_id(button)).to_be_hidden()
    expect(page.locator("#identity input[name=name]")).to_be_disabled()
    expect(page.locator("#identity button[type=submit]")).to_be_disabled()
    held[0].continue_()
    for button in ("ready", "take-random", "start"):  # stark's seat is still free
        expect(page.get_by_test_id(button)).to_be_visible()
    expect(page.locator("#identity input[name=name]")).to_have_value("Cersei")
    expect(page.locator("#identity button[type=submit]")).to_be_enabled()
    page.get_by_test_id("ready").click()
    expect(page.locator("tr", has=page.get_by_test_id(f"seat-{HOST}"))).to_contain_text("ready")
