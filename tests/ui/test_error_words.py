"""Refusals in the player's language (issue 13.1, 13.3): every code the core and the online
server refuse with has plain words in errors.js, and the real server's refusals read as Chinese
on a zh-CN board, with the English detail kept for English players."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page

from .test_zh_walk import ALLOWED, LATIN, start_zh_game

REPO = Path(__file__).resolve().parents[2]
CODE = re.compile(r'"((?:illegal|malformed|seat|game|hint|chat|online|deal)/[a-z-]+)"')
CJK = re.compile(r"[\u4e00-\u9fff]")


def server_codes() -> set[str]:
    """Every refusal code written in the core's, the online server's and the plugins' source."""
    found: set[str] = set()
    for root in (REPO / "app" / "westeros", REPO / "plugins"):
        for path in root.rglob("*.py"):
            found |= set(CODE.findall(path.read_text("utf-8")))
    return found


def script_tables() -> tuple[set[str], set[str]]:
    """The codes with words of their own in errors.js, and the families it words as a whole."""
    text = (REPO / "frontend" / "static" / "js" / "errors.js").read_text("utf-8")
    words = text[text.index("const WORDS") : text.index("const FAMILIES")]
    families = text[text.index("const FAMILIES") : text.index("function wordsFor")]
    own = set(re.findall(r'^\s+"?([a-z/-]+)"?: \(\) =>', words, re.M))
    return own, set(re.findall(r"^\s+(\w+): \"", families, re.M))


def test_13_3_every_refusal_code_has_plain_words() -> None:
    codes = server_codes()
    assert {"illegal/not-pending", "malformed/json", "online/bad-invite"} <= codes
    own, families = script_tables()
    # rules refusals and the online server's each say what went wrong in their own words
    specific = {c for c in codes if c.split("/")[0] in {"illegal", "online", "chat"}}
    assert specific <= own, sorted(specific - own)
    assert all(c in own or c.split("/")[0] in families for c in codes)
    stale = own - codes - {"stale-state", "not-saved", "internal", "session", "plugin-fault"}
    assert not stale, f"words for codes no server sends: {sorted(stale)}"


REFUSALS = """async ([gameId, house, other]) => {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}` +
    `/ws/games/${encodeURIComponent(gameId)}/seats/${encodeURIComponent(house)}`;
  const socket = new WebSocket(url);
  const replies = [];
  let view = null;
  await new Promise((resolve, reject) => {
    socket.onerror = reject;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'view' && !view) {
        view = message;
        const act = (action, extra) =>
          socket.send(JSON.stringify({ type: 'action', state_id: view.state_id, action, ...extra }))
        socket.send('not json');
        socket.send(JSON.stringify({ type: 'shout' }));
        act({ kind: 'no_such_kind' });
        act({ kind: 'place_orders', orders: [] }, { house: other });
        act({ kind: 'place_orders', orders: [['the-nowhere', 'march-0']] });
      } else if (message.type === 'error') {
        replies.push(message);
        if (replies.length === 5) resolve();
      }
    };
    setTimeout(() => reject(new Error(`only ${replies.length} replies`)), 15000);
  });
  socket.close();
  const errors = await import('/static/js/errors.js');
  return replies.map((reply) => [reply.code, reply.message, errors.errorText(reply)]);
}"""


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_13_1_the_servers_refusals_read_in_the_players_language(
    page: Page, core_factory: Any, lang: str
) -> None:
    core = core_factory()
    game = start_zh_game(page, core)
    if lang == "en":
        page.goto(page.url.split("?")[0] + "?lang=en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
    replies = page.evaluate(REFUSALS, [game, "stark", "lannister"])
    page.goto("about:blank")  # the board's socket closes before the core stops
    codes = [code for code, _, _ in replies]
    assert codes[0].startswith("malformed/") and codes[1].startswith("malformed/")
    assert codes[2].startswith("illegal/") and codes[4].startswith("illegal/"), codes
    assert codes[3].startswith("seat/"), codes
    for code, message, shown in replies:
        if lang == "en":
            assert shown.startswith(message), (code, shown)
            continue
        assert CJK.search(shown), (code, shown)
        assert set(LATIN.findall(shown)) <= ALLOWED, (code, shown)
