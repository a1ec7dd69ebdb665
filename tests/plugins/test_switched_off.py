"""An expansion owns its slice (issue 11, point 2): with the ports and Tides of Battle plugins
switched off, no port or Tides code path remains in the host — not in the server, the engine,
the base game, the AI or the board's scripts — a game plays, and the board (real Chromium) loads no
port or Tides module and works; switched on, their own modules bring their screens."""

from __future__ import annotations

import io
import random
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from westeros.engine import apply, new_game, pending, random_action
from westeros.engine.actions import Action
from westeros.engine.errors import MalformedAction
from westeros.plugins import BUNDLED_PLUGINS, load

ROOT = Path(__file__).resolve().parents[2]
HOST_PYTHON = ROOT / "app" / "westeros"
HOST_JS = ROOT / "frontend" / "static" / "js"
OFF = ("westeros_ports", "westeros_tides_of_battle")

# Ids that belong to the two plugins: their prompt kinds, action kinds, events, option,
# packages and classes; and their area kind as a string ("port"; a TCP port is a name).
PLUGIN_IDS = re.compile(
    r"port_takeover|take_over_ships|port_taken_over|port_ships_\w+|TakeOverShips|PortRules"
    r"|tides_redraw|tides_drawn|tides_revealed|tides_of_battle|TidesRedraw|westeros_ports"
    r"|westeros_tides|^\"port\"$"
)
# BUNDLED_PLUGINS (plugins.py) is the one list that names the bundled plugins.
NOT_CHECKED = {HOST_PYTHON / "plugins.py"}


def python_code_tokens(path: Path) -> list[str]:
    """Names and (double-quoted) string literals of a Python file, without comments and
    docstrings."""
    out: list[str] = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if tok.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT):
            previous = tok.type
            continue  # a docstring (a string statement)
        if tok.type == tokenize.STRING:
            out.append('"' + tok.string.strip("\"'") + '"')
        elif tok.type == tokenize.NAME:
            out.append(tok.string)
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.type
    return out


def js_code_tokens(path: Path) -> list[str]:
    """Words and (double-quoted) string literals of a script, without comments."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text("utf-8"), flags=re.S)
    text = re.sub(r"(?m)(^|\s)//.*$", "", text)
    found = re.findall(r"[\"'`]([^\"'`\n]*)[\"'`]|(\w+)", text)
    return [f'"{literal}"' if word == "" else word for literal, word in found]


def mentions(tokens: list[str]) -> list[str]:
    return sorted({t for t in tokens if PLUGIN_IDS.search(t)})


def test_the_host_code_names_no_port_or_tides_id() -> None:
    found = {}
    for path in sorted(HOST_PYTHON.rglob("*.py")):
        if any(path == n or n in path.parents for n in NOT_CHECKED):
            continue
        if hits := mentions(python_code_tokens(path)):
            found[str(path.relative_to(ROOT))] = hits
    for path in sorted(HOST_JS.rglob("*.js")):
        if hits := mentions(js_code_tokens(path)):
            found[str(path.relative_to(ROOT))] = hits
    assert not found, f"port/Tides code in the host: {found}"
    assert {p.split(".")[0] for p in BUNDLED_PLUGINS} >= set(OFF)


def test_the_check_finds_a_port_branch() -> None:
    """The scanners do see code that names a plugin (so the test above can fail)."""
    assert mentions(["port", '"port"']) == ['"port"']  # the kind, not a TCP port
    ports = ROOT / "plugins" / "westeros_ports"
    assert "port_takeover" in mentions(js_code_tokens(ports / "static" / "ports.js"))
    assert "TakeOverShips" in mentions(python_code_tokens(ports / "plugin.py"))
    assert '"port"' in mentions(js_code_tokens(ROOT / "tests/plugins/fixtures/port_branch.js"))


def test_a_game_without_ports_and_tides_plays_with_none_of_their_pieces() -> None:
    loaded = load(disable=OFF, autoload=False)
    rules = loaded.ruleset
    assert not loaded.errors
    assert "port" not in rules.area_kinds
    assert not [k for k in rules.area_kinds.values() if "port" in k.raids | k.supports]
    assert not set(rules.event_texts) & {"port_taken_over", "tides_revealed", "tides_drawn"}
    with pytest.raises(MalformedAction, match="unknown action kind 'take_over_ships'"):
        Action.from_json({"kind": "take_over_ships", "count": 1}, rules.action_kinds)
    assert loaded.scripts_for(rules, {"tides_of_battle": True}) == []
    rnd = random.Random(4)
    state = new_game(rules, 4, 4)
    kinds = {e.kind for e in state.events}
    for _ in range(1500):
        if not pending(state):
            break
        house = rnd.choice(sorted(pending(state)))
        state, events = apply(state, house, random_action(state, house, rnd))
        kinds |= {e.kind for e in events}
    assert state.round >= 3
    assert not {k for k in kinds if PLUGIN_IDS.search(k) or k.startswith(("port", "tides"))}


# ---------------------------------------------------------------------------------- Chromium

# The fixtures ``page`` and ``core_factory`` are the UI tests' (tests/plugins/conftest.py).
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
    page.wait_for_function("document.body.dataset.prompt === 'place_orders'", timeout=30_000)
    return loaded


def registered(page: Any) -> list[str]:
    return page.evaluate("async () => (await import('/static/js/registry.js')).registeredPlugins()")


def test_the_board_without_ports_and_tides_loads_none_of_their_modules(
    page: Any, core_factory: Any
) -> None:
    from playwright.sync_api import expect

    from tests.ui.driver import Played, place_orders

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


def test_the_board_with_ports_and_tides_loads_their_modules(page: Any, core_factory: Any) -> None:
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
