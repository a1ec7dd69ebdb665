"""The plugin template ``westeros new-plugin NAME`` writes (docs/plugins.md, "Start from the
template"): a pip-installable package with the ``westeros.plugins`` entry point, a hook module,
a client script, a zh_CN catalog and a test that passes with the ``westeros_game`` fixture."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from .. import __version__

FILES = Path(__file__).resolve().parent / "files"
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
LAYOUT = {
    "pyproject.toml": "pyproject.toml.tmpl",
    "README.md": "README.md.tmpl",
    "babel.cfg": "babel.cfg.tmpl",
    "{package}/__init__.py": "__init__.py.tmpl",
    "{package}/plugin.py": "plugin.py.tmpl",
    "{package}/static/{package}.js": "client.js.tmpl",
    "{package}/locale/zh_CN/LC_MESSAGES/westeros.po": "zh_CN.po.tmpl",
    "tests/test_plugin.py": "test_plugin.py.tmpl",
}
"""Where each template file goes in the new plugin's folder."""


class TemplateError(ValueError):
    """The plugin cannot be written (a bad name, or its folder already exists)."""


def package_name(name: str) -> str:
    """The import package of distribution ``name`` (``westeros-night-watch`` →
    ``westeros_night_watch``); TemplateError unless ``name`` is lower-case letters, digits and
    single dashes, starting with a letter."""
    if not NAME.fullmatch(name):
        raise TemplateError(
            f"{name!r} is not a plugin name: use lower-case letters, digits and single dashes, "
            "starting with a letter (e.g. westeros-night-watch)"
        )
    return name.replace("-", "_")


def write_plugin(name: str, parent: Path) -> Path:
    """Write the plugin ``name`` into the new folder ``parent / name`` and return it. Raises
    TemplateError, writing nothing, for a bad name or an existing folder."""
    package = package_name(name)
    root = parent / name
    if root.exists():
        raise TemplateError(f"{root} already exists; choose another name or folder")
    words = {
        "name": name,
        "package": package,
        "title": " ".join(w.capitalize() for w in name.split("-")),
        "release": ".".join(__version__.split(".")[:2]) + ".0",
    }
    for target, source in LAYOUT.items():
        path = root / target.format(package=package)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = Template((FILES / source).read_text("utf-8")).substitute(words)
        path.write_text(text, encoding="utf-8")
    return root
