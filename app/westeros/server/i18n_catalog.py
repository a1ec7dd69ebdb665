"""Extract, update and check every gettext catalog: the game's and each plugin's.

One command (from a checkout, after any change to visible strings)::

    python -m westeros.server.i18n_catalog           # re-extract, update every .po, list gaps
    python -m westeros.server.i18n_catalog --check   # list gaps only; exit 1 if any

The first also re-derives the zh_TW catalogs from the zh_CN ones (``i18n_derive``, which needs
the test extras' OpenCC): translate zh_CN, then run ``python -m westeros.server.i18n_derive``.

A catalog holds the messages of its sources: the game's (``app/westeros`` Python,
``frontend/templates``, ``frontend/static/js``; the methods of ``babel.cfg``) in
``app/westeros/locale``, and each plugin's (its package's Python, templates and scripts) in the
folder its ``register_translations`` hook returns, usually ``<plugin>/locale``. Content names
and texts (areas, houses, cards, units, options: the strings ``tc()`` and the log translate at
run time) are collected from each plugin's content hooks into that plugin's catalog, so
Babel's file extraction and the loaded content together cover every visible string. A message
the game's catalog already holds is not repeated in a plugin's. The ``.po`` files are the
committed source, read at run time (``westeros.server.i18n.load_folder``); ``pybabel compile``
is optional.

Only catalogs inside this repository are extracted, updated and checked: a plugin installed
from elsewhere (an entry point in site-packages, a file in the user plugin folder) keeps its
catalog with its own sources, so it is skipped, and the command says so (issue 35 finding 18)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from westeros.plugins import CONTENT_HOOKS, PluginHost, load

from . import pages
from .i18n import DOMAIN

LANGUAGES = ("zh_CN", "zh_TW")
"""Languages the project keeps complete (the completeness test checks each)."""
DERIVED = ("zh_TW",)
"""Languages written by ``i18n_derive`` from another catalog, never updated with empty msgids."""
REPO = Path(__file__).resolve().parents[3]
GAME_LOCALE = Path(__file__).resolve().parent.parent / "locale"
PY_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
JS_KEYWORDS = {**PY_KEYWORDS, "t": None, "tn": (1, 2)}
PLUGIN_METHODS = [
    ("**/locale/**", "ignore"),
    ("**.py", "python"),
    ("**/templates/**.html", "jinja2"),
    ("**/static/**.js", "javascript"),
]
PLUGIN_OPTIONS = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
CONTENT_FIELDS = ("name", "text", "description")
BASE_SOURCE = "default"
"""``PluginInfo.source`` of the base game's plugin, whose content is the game's catalog's."""

Message = str | tuple[str, ...]


@dataclasses.dataclass
class Target:
    """One catalog: where it lives, which folders Babel extracts from, and content messages."""

    name: str
    locale: Path
    sources: list[tuple[Path, list[tuple[str, str]], dict[str, dict[str, str]]]]
    content: dict[str, str] = dataclasses.field(default_factory=dict)


def game_methods() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """The method map and options of ``babel.cfg`` (the game's own sources)."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as handle:
        return parse_mapping_cfg(handle)


def content_messages(items: Iterable[Any], what: str) -> dict[str, str]:
    """{text: where it comes from} for the visible fields of content objects."""
    out: dict[str, str] = {}
    for item in items:
        for field in CONTENT_FIELDS:
            value = getattr(item, field, None)
            if isinstance(value, str) and value.strip():
                out.setdefault(value, f"{what} {getattr(item, 'id', '')} {field}".strip())
    return out


def targets(skipped: list[str] | None = None) -> list[Target]:
    """The game's catalog, then one per plugin of this repository that registers a
    translation folder; a plugin whose folder lies outside the repository is left out and,
    if ``skipped`` is given, named there with its folder."""
    methods, options = game_methods()
    game = Target("westeros", GAME_LOCALE, [(REPO, methods, options)])
    out = [game]
    host = PluginHost((), (), autoload=True)
    folders = host.call_each("register_translations")
    switches = {p["id"]: p["name"] for p in pages.toggleable_plugins(load(autoload=True))}
    for name, info in host.info.items():
        content: dict[str, str] = {}
        if name in switches:
            content[switches[name]] = f"plugin {name} name on the start screen"
        for hook, (_, _, what) in CONTENT_HOOKS.items():
            found = host.call_each(hook).get(name) if hook != "register_translations" else None
            if isinstance(found, list | tuple):
                content.update(content_messages(found, what))
        if info.source == BASE_SOURCE:
            game.content.update(content)
            continue
        locale = next(iter(folders.get(name) or ()), None)
        if locale is None:
            continue
        package = Path(str(locale)).resolve().parent
        if not package.is_relative_to(REPO):
            if skipped is not None:
                skipped.append(f"{name} ({package}): outside {REPO}, not this repository's")
            continue
        sources = [(package, PLUGIN_METHODS, PLUGIN_OPTIONS)]
        out.append(Target(name, Path(str(locale)), sources, content))
    return out


def extracted(target: Target) -> Iterator[tuple[str, int, Message, list[str], str | None]]:
    """Babel's extraction of ``target``'s sources (Python with gettext keywords only, scripts
    also with ``t``/``tn``); paths relative to the repository."""
    for folder, methods, options in target.sources:
        python = [(pattern, m) for pattern, m in methods if m in ("python", "ignore")]
        other = [(pattern, m) for pattern, m in methods if m != "python"]
        for subset, keywords in ((python, PY_KEYWORDS), (other, JS_KEYWORDS)):
            for path, line, message, comments, context in extract_from_dir(
                str(folder), subset, options, keywords=keywords, comment_tags=("TRANSLATORS:",)
            ):
                where = str((folder / path).resolve().relative_to(REPO))
                yield where, line, message, comments, context


def extract(target: Target, skip: set[str] = frozenset()) -> Catalog:  # type: ignore[assignment]
    """The template catalog (.pot) of ``target``: extracted messages plus content, without the
    messages in ``skip`` (held by the game's catalog)."""
    catalog = Catalog(domain=DOMAIN, project="Westeros", charset="utf-8", fuzzy=False)
    for path, line, message, comments, context in extracted(target):
        key = message if isinstance(message, str) else message[0]
        if key and key not in skip:
            catalog.add(message, None, [(path, line)], auto_comments=comments, context=context)
    for text, where in sorted(target.content.items()):
        if text not in skip and text not in catalog:
            catalog.add(text, None, auto_comments=[f"content: {where}"])
    return catalog


def po_path(target: Target, lang: str) -> Path:
    """Where ``target``'s catalog of ``lang`` lives."""
    return target.locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, lang: str) -> Catalog:
    """A .po file (an empty catalog if there is none yet)."""
    if not path.is_file():
        return Catalog(locale=lang, domain=DOMAIN, project="Westeros", fuzzy=False)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def templates(skipped: list[str] | None = None) -> Iterator[tuple[Target, Catalog]]:
    """Every target with its freshly extracted template catalog, the game's first (plugins
    outside the repository are named in ``skipped``, see ``targets``)."""
    game_ids: set[str] = set()
    for target in targets(skipped):
        template = extract(target, game_ids)
        if target.locale == GAME_LOCALE:
            game_ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
        yield target, template


def untranslated(template: Catalog, catalog: Catalog) -> list[str]:
    """Msgids of ``template`` that ``catalog`` lacks, leaves empty or marks fuzzy."""
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = [] if found is None else found.string or [""]
        strings = [strings] if isinstance(strings, str) else list(strings)
        if found is None or found.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def gaps(
    langs: Sequence[str] = LANGUAGES, skipped: list[str] | None = None
) -> dict[str, list[str]]:
    """{"<catalog> <lang>": untranslated msgids} for every catalog and language."""
    out: dict[str, list[str]] = {}
    for target, template in templates(skipped):
        for lang in langs:
            out[f"{target.name} {lang}"] = untranslated(template, read(po_path(target, lang), lang))
    return out


def update(
    langs: Sequence[str] = LANGUAGES, skipped: list[str] | None = None
) -> dict[str, list[str]]:
    """Write every .pot and update every .po from it (new msgids empty, vanished ones dropped,
    translations kept); return the gaps."""
    out: dict[str, list[str]] = {}
    for target, template in templates(skipped):
        target.locale.mkdir(parents=True, exist_ok=True)
        with (target.locale / f"{DOMAIN}.pot").open("wb") as handle:
            write_po(handle, template, width=100, sort_output=True)
        for lang in (lang for lang in langs if lang not in DERIVED):
            path = po_path(target, lang)
            catalog = read(path, lang)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, catalog, width=100, sort_output=True, omit_header=False)
            out[f"{target.name} {lang}"] = untranslated(template, catalog)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Update (or with ``--check`` only check) every catalog; print what lacks translation."""
    parser = argparse.ArgumentParser(prog="python -m westeros.server.i18n_catalog")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 on gaps")
    args = parser.parse_args(argv)
    skipped: list[str] = []
    found = gaps(skipped=skipped) if args.check else update(skipped=skipped)
    if not args.check:
        from . import i18n_derive

        i18n_derive.main([])
    for plugin in skipped:
        print(f"skipped plugin {plugin}")
    total = 0
    for name, missing in found.items():
        print(f"{name}: {len(missing)} untranslated")
        for msgid in missing:
            print(f"  {msgid!r}")
        total += len(missing)
    return 1 if args.check and total else 0


if __name__ == "__main__":
    sys.exit(main())
