"""An expansion owns its slice (issue 11, point 2): with the ports and Tides of Battle plugins
switched off, no port or Tides code path remains in the host — not in the server, the engine,
the base game, the AI or the board's scripts — a game plays, and the board (real Chromium) loads no
port or Tides module and works (tests/ui/test_plugin_slices.py); switched on, their own
modules bring their screens."""

from __future__ import annotations

import io
import random
import re
import tokenize
from pathlib import Path

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
