"""Issue 38 acceptance 2 (meta-tests): docs/plugins.md documents every registry key of
``frontend/static/js/registry.js``, and every field of the objects in its reference section
(State, Combat and Side, Words, the view, the JS map object). The Combat, Side and Words
tables are the docstrings of the code, so they cannot drift: on a difference the test prints
the table as it must read."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from westeros.engine.combat.context import Combat, Side
from westeros.engine.content import Words
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "plugins.md"
PROTOCOL = ROOT / "docs" / "protocol.md"
JS = ROOT / "frontend" / "static" / "js"


def section(text: str, heading: str) -> str:
    """The body of the Markdown section ``heading`` (up to the next heading of its level)."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    ends = [m.start() for m in re.finditer(rf"\n#{{1,{len(level)}}} ", text[start:])]
    return text[start : start + ends[0]] if ends else text[start:]


def guide_section(heading: str) -> str:
    return section(GUIDE.read_text("utf-8"), heading)


def documented(body: str) -> set[str]:
    """Every `name` in backticks in ``body`` outside code blocks (a trailing ``(...)``
    stripped)."""
    prose = re.sub(r"^```.*?^```", "", body, flags=re.MULTILINE | re.DOTALL)
    return {re.sub(r"\(.*\)$", "", n, flags=re.DOTALL) for n in re.findall(r"`([^`]+)`", prose)}


def first_sentence(obj: Any) -> str:
    doc = " ".join((inspect.getdoc(obj) or "").split())
    return doc.split(". ")[0].rstrip(".") + "."


def members_table(cls: type) -> str:
    """The reference table of ``cls``: its fields, then its public methods, from the code."""
    rows = ["| member | what it is |", "|---|---|"]
    if dataclasses.is_dataclass(cls):
        hints = {f.name: f.type for f in dataclasses.fields(cls)}
        rows += [
            f"| `{name}` | `{hint}` |".replace(" | None`", " \\| None`")
            for name, hint in hints.items()
        ]
    for name, fn in vars(cls).items():
        if callable(fn) and not name.startswith("_") and fn.__doc__:
            rows.append(f"| `{name}()` | {first_sentence(fn)} |")
    return "\n".join(rows)


@pytest.mark.parametrize(("heading", "cls"), [("### Combat", Combat), ("### Side", Side)])
def test_the_combat_reference_is_its_docstrings(heading: str, cls: type) -> None:
    """Issue 38 point 1: the Combat and Side tables are generated from the code."""
    body = guide_section(heading)
    expected = members_table(cls)
    assert first_sentence(cls) in " ".join(body.split()), f"{heading}: class docstring"
    assert expected in body, f"docs/plugins.md {heading} must hold:\n{expected}"


def test_the_words_reference_is_its_docstrings() -> None:
    """Issue 38 point 1: every method of the words object of log texts, with its docstring."""
    body = guide_section("### Words")
    names = [n for n, fn in vars(Words).items() if callable(fn) and not n.startswith("__")]
    expected = "\n".join(
        ["| method | what it gives |", "|---|---|"]
        + [f"| `{n}()` | {first_sentence(getattr(Words, n))} |" for n in names]
    )
    assert len(names) >= 12
    assert expected in body, f"docs/plugins.md ### Words must hold:\n{expected}"


def test_every_field_of_the_state_is_documented() -> None:
    """Issue 38 point 1: State as a plugin may read it — every slot has a row."""
    rows = documented(guide_section("### State"))
    missing = sorted(set(State.__slots__) - rows)
    assert not missing, f"State fields missing from docs/plugins.md ### State: {missing}"


def test_every_field_of_the_view_is_documented() -> None:
    """Issue 38 point 1: the view a personality's code or an AI answer reads (docs/protocol.md,
    which the guide links): every key a seat's and a spectator's view has."""
    state = new_game(build_ruleset(autoload=False), 3, seed=1)
    keys = set(player_view(state, "stark")) | set(player_view(state, None))
    table = documented(section(PROTOCOL.read_text("utf-8"), "## View"))
    table |= {part.strip() for row in table for part in row.split(",")}
    assert not sorted(keys - table), f"view keys missing from docs/protocol.md: {keys - table}"
    assert "(protocol.md#view)" in guide_section("### The view")


def registry_keys() -> set[str]:
    """Every key of ``registerPlugin``'s parts: those registry.js reads (by name, through any
    of its look-up helpers) and those its header comment shows."""
    source = (JS / "registry.js").read_text("utf-8")
    header = set(re.findall(r"^//\s{5}(\w+)[:(]", source, re.MULTILINE))
    code = "\n".join(line for line in source.splitlines() if not line.startswith("//"))
    read = set(re.findall(r"\b(?:lookup|label|firstAnswer)\(\s*\"(\w+)\"", code))
    return header | read | set(re.findall(r"\bparts\.(\w+)", code))


def area_kind_keys() -> set[str]:
    """Every key of an ``areaKinds`` entry the map reads: ``areaKind(kind).key``, or through a
    variable holding ``areaKind(kind)``."""
    found: set[str] = set()
    for path in JS.rglob("*.js"):
        code = path.read_text("utf-8")
        found |= set(re.findall(r"areaKind\([^)]*\)\??\.(\w+)", code))
        for held in re.finditer(r"const (\w+) = areaKind\(", code):
            scope = code[held.end() :].split("\n  }", 1)[0]  # to the end of the method
            found |= set(re.findall(rf"\b{held.group(1)}\.(\w+)", scope))
    return found


def test_every_registry_key_is_documented() -> None:
    """Issue 38 acceptance 2: each key registry.js reads is in register_client_scripts."""
    keys = registry_keys()
    assert {"prompts", "titles", "orderTypes", "tokens", "panels", "decorate"} <= keys
    body = guide_section("### register_client_scripts")
    missing = sorted(keys - documented(body))
    assert not missing, f"registry keys missing from docs/plugins.md: {missing}"
    kind_keys = area_kind_keys()
    assert "label" in kind_keys and "marker" in kind_keys
    row = next(line for line in body.splitlines() if line.startswith("| `areaKinds`"))
    assert not sorted(k for k in kind_keys if f"`{k}" not in row), kind_keys


def map_members() -> set[str]:
    """What the ``map`` object given to ``decorate`` holds: BoardMap's own fields and the
    fields of each entry of ``map.areas``."""
    source = (JS / "map.js").read_text("utf-8")
    fields = set(re.findall(r"this\.(\w+) = ", source))
    entry = source[source.index("this.areas.set(id, {") :].split("});", 1)[0]
    fields |= set(re.findall(r"^\s+(\w+)[,:]", entry, re.MULTILINE))
    return fields


def test_every_field_of_the_js_map_is_documented() -> None:
    """Issue 38 point 1: the JS ``map`` a ``decorate`` receives, and its area entries."""
    members = map_members()
    assert {"areas", "layer", "svg", "shape", "between"} <= members
    missing = sorted(members - documented(guide_section("### The JS map object")))
    assert not missing, f"map fields missing from docs/plugins.md: {missing}"


def test_the_architecture_doc_is_the_architecture_in_at_most_250_lines() -> None:
    """Issue 38 acceptance 4: docs/architecture.md at most 250 lines; the AI's experiment log
    lives in docs/ai.md with its figures as printed."""
    architecture = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    assert len(architecture.splitlines()) <= 250
    assert "standard-vs-baseline: 300 games" not in architecture
    assert "(ai.md)" in architecture and "## Plugins: how content and rules arrive" in architecture
    ai = (ROOT / "docs" / "ai.md").read_text("utf-8")
    assert "standard               win rate per seat  35.3% [30.1%, 40.9%] (106/300)" in ai
