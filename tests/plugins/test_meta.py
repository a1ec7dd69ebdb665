"""Meta-tests of the plugin API (DESIGN §3): every hook is documented in docs/plugins.md with its
exact signature, and every hook has a ``test_hook_<name>`` test somewhere under tests/."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from westeros import hookspecs

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "plugins.md"


def hooks() -> dict[str, Callable[..., Any]]:
    """Every hookspec of westeros.hookspecs, by name."""
    return {
        name: fn
        for name, fn in vars(hookspecs).items()
        if callable(fn) and getattr(fn, "westeros_spec", None) is not None
    }


def signature(fn: Callable[..., Any]) -> str:
    """``def name(param: annotation, ...) -> return:`` as written in hookspecs.py."""
    annotations = dict(fn.__annotations__)
    ret = annotations.pop("return")
    params = ", ".join(f"{name}: {annotation}" for name, annotation in annotations.items())
    return f"def {fn.__name__}({params}) -> {ret}:"


def test_the_api_has_hooks_and_each_has_a_docstring() -> None:
    assert len(hooks()) >= 20
    assert all((fn.__doc__ or "").strip() for fn in hooks().values())


@pytest.mark.parametrize("name", sorted(hooks()))
def test_hook_documented_with_its_exact_signature(name: str) -> None:
    guide = GUIDE.read_text("utf-8")
    assert f"\n### {name}\n" in guide, f"docs/plugins.md has no section '### {name}'"
    section = guide.split(f"\n### {name}\n", 1)[1].split("\n### ", 1)[0]
    assert signature(hooks()[name]) in section, f"{name}: signature missing or different"
    assert "@hookimpl" in section, f"{name}: the section has no example"


def defined_tests() -> set[str]:
    """Names of every test function under tests/."""
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
    return names


def test_every_hook_has_a_test() -> None:
    defined = defined_tests()
    missing = sorted(n for n in hooks() if f"test_hook_{n}" not in defined)
    assert not missing, f"hooks without a test_hook_<name> test: {missing}"
