"""The board picks a decision's screen by its prompt kind, never by its ``reason`` (issue 11,
point 2), and words Robb Stark's retreat choice as the winner's (issue 13.3; RULES.md 5.4.10,
8.2 Robb Stark). Real Chromium on a real board page."""

from __future__ import annotations

from typing import Any

from tests.plugins.test_switched_off import start

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
    page: Any, core_factory: Any
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
