"""The board's side of "an expansion owns its slice" (issue 11, point 2) in real Chromium:
with ports and Tides off the board loads none of their modules and works; with them on, their
modules bring their screens; screens follow the prompt kind, never the ``reason``, and Robb
Stark's retreat choice reads as the winner's (issue 13.3; RULES.md 5.4.10)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import expect

from .driver import Played, place_orders

OFF = ("westeros_ports", "westeros_tides_of_battle")


SCRIPT_URL = re.compile(r"/static/.*\.js$")


def start(page: Any, core: Any, *, ports: bool, tides: bool) -> list[str]:
    """Start a 4-player Stark game from the new-game screen with ports and Tides as asked;
    return the URLs of every script the board page then loaded."""
    loaded: list[str] = []
    page.on("request", lambda r: loaded.append(r.url) if SCRIPT_URL.search(r.url) else None)
    page.goto(f"{core.url}/?token={core.token}")
    page.locator("input[name=players][value='4']").check()
    page.locator("label.start-house[data-house=stark]").click()
    page.locator("input[name=seed]").fill("11")
    page.locator("input[name=plugin][value=westeros_ports]").set_checked(ports)
    page.locator("input[name=tides_of_battle]").set_checked(tides)
    loaded.clear()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/stark$"))
    page.wait_for_function("() => document.body.dataset.prompt === 'place_orders'", timeout=30_000)
    return loaded


def registered(page: Any) -> list[str]:
    return page.evaluate("async () => (await import('/static/js/registry.js')).registeredPlugins()")


def test_the_board_without_ports_and_tides_loads_none_of_their_modules(
    core_factory: Any, page: Any
) -> None:
    core = core_factory()
    scripts = start(page, core, ports=False, tides=False)
    assert any(url.endswith("/static/js/board.js") for url in scripts)
    assert not [u for u in scripts if "/static/ports/" in u or "/static/tides_of_battle/" in u]
    assert registered(page) == []
    # the board works: the map has no port, and orders are placed and revealed (4.1, 4.3)
    assert page.locator("[data-testid^=area-port-]").count() == 0
    assert page.locator("[data-testid=area-winterfell]").count() == 1
    place_orders(page, Played())
    expect(page.get_by_test_id("log")).to_contain_text("Orders revealed", timeout=30_000)
    session = core.session(page.url.split("/games/")[1].split("/")[0])
    assert session.state.orders
    # ports are out of the game; Tides of Battle, switched by its option, is off
    assert "westeros_ports" not in dict(session.state.rules.plugins)
    assert session.state.options["tides_of_battle"] is False


def test_the_board_with_ports_and_tides_loads_their_modules(core_factory: Any, page: Any) -> None:
    core = core_factory()
    scripts = start(page, core, ports=True, tides=True)
    assert [u for u in scripts if u.endswith("/static/ports/ports.js")]
    assert [u for u in scripts if u.endswith("/static/tides_of_battle/tides.js")]
    assert sorted(registered(page)) == ["westeros_ports", "westeros_tides_of_battle"]
    assert page.locator("[data-testid^=area-port-]").count() > 0
    # their screens come from their modules, chosen by prompt kind
    titles = page.evaluate(RENDER_PLUGIN_PROMPTS)
    assert titles == {
        "port_takeover": "Take over Port of White Harbor",
        "tides_redraw": "Tides of Battle",
    }


RENDER_PLUGIN_PROMPTS = """async () => {
  const { renderPrompt } = await import('/static/js/prompts/index.js');
  const map = { areas: new Map(), clearChoice() {}, setSelected() {}, setChoice() {} };
  const prompts = {
    port_takeover: { port: 'port-of-white-harbor', min: 0, max: 2, removed: 2 },
    tides_redraw: { options: ['keep', 'redraw'], card: 'two', reason: 'Tides of Battle (10.3)' },
  };
  const titles = {};
  for (const [kind, data] of Object.entries(prompts)) {
    const panel = document.createElement('div');
    renderPrompt({
      view: {}, prompt: { kind, data, actions: [] }, data, house: 'stark', draft: {}, map,
      paint: (...nodes) => panel.replaceChildren(...nodes.flat().filter(Boolean)),
      overlay() {}, act() {}, hint() {},
    });
    titles[kind] = panel.querySelector('.prompt-title').textContent;
  }
  return titles;
}"""


RENDER = """async ([kind, data]) => {
  const { renderPrompt } = await import('/static/js/prompts/index.js');
  const map = { areas: new Map(), clearChoice() {}, setSelected() {}, setChoice() {} };
  const panel = document.createElement('div');
  renderPrompt({
    view: {}, prompt: { kind, data, actions: [] }, data, house: 'stark', draft: {}, map,
    paint: (...nodes) => panel.replaceChildren(...nodes.flat().filter(Boolean)),
    overlay() {}, act() {}, hint() {},
  });
  return panel.innerText;
}"""

RETREAT = {"areas": ["the-twins", "moat-cailin"], "optional": False, "reason": "retreat (5.4.10)"}


def screen(page: Any, kind: str, data: dict[str, Any]) -> str:
    return page.evaluate(RENDER, [kind, data])


def test_screens_follow_the_prompt_kind_and_robb_starks_choice_is_no_loss(
    core_factory: Any, page: Any
) -> None:
    start(page, core_factory(), ports=False, tides=False)
    own = screen(page, "retreat", {**RETREAT, "loser": "stark"})
    assert "Your army lost the combat" in own
    robb = screen(page, "retreat", {**RETREAT, "loser": "lannister"})
    assert "lost" not in robb
    assert "You won the combat" in robb and "Lannister" in robb
    # the same data under the generic kind gets the generic screen: the reason picks nothing
    generic = screen(page, "choose_area", RETREAT)
    assert "Your army lost" not in generic and "You won" not in generic
    options = {"options": ["use", "pass"], "reason": "valyrian-steel-blade"}
    assert "Use the Blade (+1)" in screen(page, "use_blade", options)
    assert "Use the Blade (+1)" not in screen(page, "choose_option", options)
