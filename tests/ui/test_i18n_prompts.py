"""Every prompt kind the engine and the bundled plugins can ask has a plain-language title and
description in English and in Simplified Chinese, and no title is a rule number; engine
reasons ("4.4 Messenger Raven", "7.2.3 highest bidder", "Crow Killers (7.3.3)") never reach
a title. Kinds and reasons are read from the source (every ``Prompt(...)`` call and every
reason-like string literal), not listed here, and the real module runs in Chromium."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
SOURCES = [REPO / "app" / "westeros", REPO / "plugins"]
ONLINE = REPO / "app" / "westeros" / "online"
RULE_NUMBER = re.compile(r"\d+\.\d+")
REASON = re.compile(r"^\d+(\.\d+)+( .*)?$|\(\d+(\.\d+)*\)$")
CJK = re.compile(r"[\u4e00-\u9fff]")
WORDS = """async ([lang, kinds, reasons]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadCatalog(lang);
  const content = await import('/static/js/content.js');
  const data = await (await fetch(location.pathname.replace(/play\\/.*$/, 'content.json'))).json();
  content.setContent(data);
  // the bundled plugins' own prompt words (registry.js), whatever this game's options
  await import('/static/ports/ports.js');
  await import('/static/tides_of_battle/tides.js');
  await import('/static/mother_of_dragons/mod.js');
  const m = await import('/static/js/prompt-titles.js');
  return {
    kinds: kinds.map((kind) => [kind, m.promptText({ kind, data: {} })]),
    reasons: reasons.map((reason) => [
      reason,
      m.reasonLabel(reason),
      m.promptText({ kind: 'choose_option', data: { reason } }),
    ]),
    phase: m.phaseLabel({ round: 3, prompt: null, combat: null, winner: null }, null),
  };
}"""


def engine_prompt_kinds() -> set[str]:
    """The kind of every ``Prompt(house, kind, ...)`` built in the engine and plugins."""
    kinds: set[str] = set()
    for root in SOURCES:
        for path in root.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                # a decision class's ``prompt_kind = "..."`` (the kind its Prompt is built with)
                if isinstance(node, ast.AnnAssign | ast.Assign):
                    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                    named = [getattr(t, "id", None) for t in targets]
                    if "prompt_kind" in named and isinstance(node.value, ast.Constant):
                        kinds.add(str(node.value.value))
                    continue
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name != "Prompt":
                    continue
                arg = node.args[1] if len(node.args) > 1 else None
                arg = arg or next((k.value for k in node.keywords if k.arg == "kind"), None)
                if getattr(arg, "attr", None) == "prompt_kind":
                    continue  # the class's prompt_kind, collected above
                assert isinstance(arg, ast.Constant), f"{path}:{node.lineno}: kind not literal"
                kinds.add(str(arg.value))
    return kinds


def engine_reasons() -> set[str]:
    """String literals the engine and plugins give as a decision's reason: ``reason=`` and
    ``"reason":`` values, names called ``reason``/``REASON``/``HORDE``, and reason-like
    arguments of step constructors (errors excluded)."""
    found: set[str] = set()

    def add(node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
            found.add(node.value)

    for root in SOURCES:
        for path in root.rglob("*.py"):
            if path.name == "testing.py":  # the modders' pytest plugin: its reasons are skips
                continue
            if ONLINE in path.parents:  # the online server's reasons are not decisions' (votes)
                continue
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        if isinstance(key, ast.Constant) and key.value == "reason":
                            add(value)
                elif isinstance(node, ast.Call):
                    for keyword in node.keywords:
                        if keyword.arg == "reason":
                            add(keyword.value)
                    name = getattr(node.func, "id", getattr(node.func, "attr", "")) or ""
                    if name[:1].isupper() and not name.startswith(("Illegal", "Forbidden")):
                        for arg in node.args:
                            if isinstance(arg, ast.Constant) and REASON.search(str(arg.value)):
                                add(arg)
                elif isinstance(node, ast.Assign):
                    names = {getattr(t, "id", "") for t in node.targets}
                    if names & {"reason", "REASON", "HORDE"}:
                        add(node.value)
    return found


def test_the_engine_asks_many_kinds_of_prompt() -> None:
    kinds = engine_prompt_kinds()
    assert {"place_orders", "march", "choose_option", "port_takeover", "tides_redraw"} <= kinds


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_prompt_kind_has_plain_words(page: Page, core_factory: Any, lang: str) -> None:
    from .test_zh_walk import start_zh_game

    core = core_factory()
    start_zh_game(page, core)
    kinds = sorted(engine_prompt_kinds())
    reasons = sorted(engine_reasons())
    assert "4.4 Messenger Raven" in reasons and "7.2.1" in reasons
    result = page.evaluate(WORDS, [lang, kinds, reasons])
    problems = []
    for kind, words in result["kinds"]:
        for field in ("title", "text", "phase"):
            value = words.get(field) or ""
            if not value.strip():
                problems.append(f"{kind}: no {field}")
            if lang == "zh_CN" and not CJK.search(value):
                problems.append(f"{kind}: {field} {value!r} is not Chinese")
        if RULE_NUMBER.search(words.get("title") or ""):
            problems.append(f"{kind}: rule number in title {words['title']!r}")
        if words.get("title") == kind or "_" in (words.get("title") or ""):
            problems.append(f"{kind}: the title is the kind's id")
    for reason, label, words in result["reasons"]:
        for text in (label, words["title"]):
            if RULE_NUMBER.search(text) or re.search(r"\(\d", text):
                problems.append(f"{reason!r} shows a rule number: {text!r}")
        if lang == "zh_CN" and label and not CJK.search(label):
            problems.append(f"{reason!r} is not translated: {label!r}")
    assert result["phase"].strip()
    assert not problems, problems
