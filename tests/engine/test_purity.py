"""The engine imports nothing but the standard library and itself (issue acceptance 7)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import westeros.engine

ENGINE = Path(westeros.engine.__file__).parent


def imports_of(path: Path, root: Path = ENGINE.parent.parent) -> list[str]:
    """Absolute module names imported by ``path`` (relative imports resolved from ``root``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                resolved = path.relative_to(root).with_suffix("").parts
                base = ".".join(resolved[: len(resolved) - node.level])
                out.append(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                out.append(node.module)
    return out


def test_engine_imports_only_stdlib_and_itself() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    offenders = []
    for path in files:
        for name in imports_of(path):
            root = name.split(".")[0]
            if root in sys.stdlib_module_names:
                continue
            if name == "westeros.engine" or name.startswith("westeros.engine."):
                continue
            offenders.append(f"{path.relative_to(ENGINE)} imports {name}")
    assert offenders == []


def test_the_import_check_catches_a_foreign_import(tmp_path: Path) -> None:
    fake = tmp_path / "westeros" / "engine" / "combat" / "probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ...base import content\nimport pluggy\n", "utf-8")
    names = imports_of(fake, tmp_path)
    assert "westeros.base" in names and "pluggy" in names
