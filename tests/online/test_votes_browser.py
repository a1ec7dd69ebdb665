"""The "Table votes" panel in Chromium (issue 40, docs/online-votes.md): three people at a
table; one calls "pause" on the board, the others see the vote (on a board and on the lobby
page) and vote yes, the board shows the pause and an action is refused; "resume" passes; a
"replace" vote on a person leaves that person without ballot buttons. In Chinese the panel
and the vote's chat line are in Chinese. axe-core finds no serious or critical violation on
the board with a vote open. The chat's vote lines carry what they say (``system``), read back
from their stored English text for every line the votes write."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from westeros.online import vote_lines

from .helpers import decide
from .ratings_helpers import houses
from .seat_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveOnline,
    Person,
    browser_context,
    page_post,
    receive,
    receive_until,
    register,
)

THREE = houses(3)
NAMES = [house.capitalize() for house in THREE]
CHINESE = {"title": "牌桌表决", "what": "暂停游戏", "line": "发起表决：暂停游戏"}

proposals = st.one_of(
    st.fixed_dictionaries(
        {
            "vote": st.sampled_from(["pause", "resume", "end", "cancel"]),
            "house": st.none(),
            "by": st.none(),
            "minutes": st.none(),
        }
    ),
    st.fixed_dictionaries(
        {
            "vote": st.just("extend"),
            "house": st.none(),
            "by": st.none(),
            "minutes": st.integers(1, 10080),
        }
    ),
    st.fixed_dictionaries(
        {
            "vote": st.just("replace"),
            "house": st.sampled_from(houses(6)),
            "by": st.sampled_from(["ai", "person"]),
            "minutes": st.none(),
        }
    ),
)
counts = st.one_of(
    st.fixed_dictionaries({"needed": st.none(), "voters": st.none()}),
    st.fixed_dictionaries({"needed": st.integers(1, 6), "voters": st.integers(1, 6)}),
)
systems = st.one_of(
    st.builds(lambda p, c: {"line": "call", "caller": c, **p}, proposals, st.sampled_from(THREE)),
    st.builds(
        lambda v, y, c: {"line": "ballot", "voter": v, "yes": y, **c},
        st.sampled_from(THREE),
        st.booleans(),
        counts,
    ),
    st.builds(
        lambda p, s: {"line": "passed", "standings": s, **p},
        proposals,
        st.lists(st.sampled_from(houses(6)), max_size=6, unique=True),
    ),
    st.builds(
        lambda p, r: {"line": "failed", "reason": r, **p},
        proposals,
        st.sampled_from(["majority", "timeout"]),
    ),
)

pytestmark = pytest.mark.usefixtures("chromium")


@given(systems)
def test_every_vote_line_reads_back_as_what_it_says(system: dict[str, Any]) -> None:
    assert vote_lines.parse(vote_lines.english(system)) == system


def test_a_person_s_line_is_never_read_as_a_vote() -> None:
    assert vote_lines.parse("Vote: stark calls a vote to rule the realm.") is None


def start(server: LiveOnline) -> tuple[str, str, list[Person]]:
    """A running game of three people (Hal hosts), seated in THREE's order."""
    seated = [register(server, name) for name in ("Hal", "Bob", "Cat")]
    host, *others = seated
    body = {"players": 3, "house": THREE[0], "ai_level": "baseline", "grace_seconds": 600}
    created = host.post("/api/lobbies", body)
    lobby_id = created["lobby"]["id"]
    for person, house in zip(others, THREE[1:], strict=True):
        person.post("/api/join", {"invite": created["invites"][house].split("=", 1)[1]})
        person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]
    return lobby_id, game_id, seated


def pages(server: LiveOnline, browser: Any, people: list[Person], urls: list[str]) -> list[Any]:
    """One browser context per person (their key's cookie), each at its url."""
    opened = []
    for person, url in zip(people, urls, strict=True):
        context = browser_context(browser)
        page_post(context, server.url, "/api/players", {"name": person.name, "key": person.key})
        page = context.new_page()
        page.goto(server.url + url)
        opened.append(page)
    return opened


def test_a_table_pauses_resumes_and_votes_a_replacement_in_its_pages(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import expect

    lobby_id, game_id, (hal, bob, cat) = start(server)
    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    urls = [f"/games/{game_id}/play/{THREE[0]}", f"/games/{game_id}/play/{THREE[1]}"]
    hal_page, bob_page, cat_page = pages(
        server, browser, [hal, bob, cat], [*urls, f"/lobbies/{lobby_id}"]
    )
    with ExitStack() as sockets:
        board = sockets.enter_context(cat.socket(f"/ws/games/{game_id}/seats/{THREE[2]}"))
        first = receive(board)
        assert first["type"] == "view" and first["view"]["prompt"] is not None

        panel = hal_page.get_by_test_id("votes-panel")
        expect(panel.get_by_test_id("votes-call")).to_be_visible(timeout=30_000)
        # a game without a clock or deadlines has nothing to extend, and nothing to resume
        running = ["pause the game", "replace a player", "end the game now", "cancel the game"]
        expect(panel.get_by_test_id("votes-kind").locator("option")).to_have_text(running)
        panel.get_by_test_id("votes-kind").select_option("pause")
        panel.get_by_test_id("votes-submit").click()
        expect(panel.get_by_test_id("vote-mine")).to_have_text("You voted yes.")

        for page in (bob_page, cat_page):
            other = page.get_by_test_id("votes-panel")
            expect(other.get_by_test_id("vote-what")).to_have_text(
                f"{NAMES[0]} calls a vote to pause the game."
            )
            expect(other.get_by_test_id("vote-count")).to_contain_text(
                "Yes: 1 · No: 0 · 2 of 3 yes needed"
            )
        findings = [
            f"{v['id']} ({v['impact']})"
            for v in Axe().run(bob_page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not findings, findings

        bob_page.get_by_test_id("votes-panel").get_by_test_id("vote-yes").click()
        for page in (hal_page, bob_page, cat_page):
            expect(page.get_by_test_id("votes-paused")).to_be_visible()
            expect(page.get_by_test_id("vote-result")).to_have_text("Vote passed: pause the game.")
        action = {"type": "action", "id": "paused", "action": decide(first["view"])}
        board.send(json.dumps({**action, "state_id": first["state_id"]}))
        refused, _ = receive_until(board, lambda m: m.get("in_reply_to") == "paused")
        assert refused["code"] == "online/paused-by-vote"

        cat_panel = cat_page.get_by_test_id("votes-panel")
        expect(cat_panel.get_by_test_id("votes-kind").locator("option")).to_have_text(
            ["resume the game", *running[1:]]
        )
        cat_panel.get_by_test_id("votes-kind").select_option("resume")
        cat_panel.get_by_test_id("votes-submit").click()
        hal_page.get_by_test_id("votes-panel").get_by_test_id("vote-yes").click()
        for page in (hal_page, bob_page, cat_page):
            expect(page.get_by_test_id("votes-paused")).to_be_hidden()
            expect(page.get_by_test_id("vote-result")).to_have_text("Vote passed: resume the game.")

        hal_panel = hal_page.get_by_test_id("votes-panel")
        hal_panel.get_by_test_id("votes-kind").select_option("replace")
        hal_panel.get_by_test_id("votes-house").select_option(THREE[2])
        hal_panel.get_by_test_id("votes-by").select_option("ai")
        hal_panel.get_by_test_id("votes-submit").click()
        expect(cat_panel.get_by_test_id("vote-what")).to_have_text(
            f"{NAMES[0]} calls a vote to replace {NAMES[2]} by the AI."
        )
        expect(cat_panel.get_by_test_id("vote-own")).to_be_visible()
        expect(cat_panel.get_by_test_id("vote-yes")).to_have_count(0)
        expect(bob_page.get_by_test_id("vote-yes")).to_be_visible()
        chat = bob_page.locator(".chat-text").all_inner_texts()
        assert f"Vote: {NAMES[0]} calls a vote to pause the game." in chat


def test_the_panel_and_the_vote_lines_are_in_chinese(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    lobby_id, game_id, (hal, bob, _cat) = start(server)
    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    hal_page, bob_page = pages(
        server,
        browser,
        [hal, bob],
        [f"/games/{game_id}/play/{THREE[0]}?lang=zh-CN", f"/lobbies/{lobby_id}?lang=zh-CN"],
    )
    words = CHINESE
    panel = hal_page.get_by_test_id("votes-panel")
    expect(panel.locator("h2")).to_have_text(words["title"], timeout=30_000)
    expect(panel.get_by_test_id("votes-call")).to_be_visible()
    panel.get_by_test_id("votes-kind").select_option("pause")
    panel.get_by_test_id("votes-submit").click()
    other = bob_page.get_by_test_id("votes-panel")
    expect(other.locator("h2")).to_have_text(words["title"])
    expect(other.get_by_test_id("vote-what")).to_contain_text(words["what"])
    expect(other.get_by_test_id("vote-yes")).to_have_text("投赞成票")
    line = bob_page.locator(".chat-text", has_text=words["line"])
    expect(line).to_have_count(1)
    bob_page.reload()  # the chat's history carries the same data
    expect(bob_page.locator(".chat-text", has_text=words["line"])).to_have_count(1)
    assert "Vote:" not in bob_page.locator("#chat-lines").inner_text()
