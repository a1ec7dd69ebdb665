"""Derive the Traditional Chinese (Taiwan) catalogs from the Simplified Chinese ones.

One command (from a checkout with the test extras, after any change to a zh_CN catalog)::

    python -m westeros.server.i18n_derive           # write every zh_TW .po from its zh_CN .po
    python -m westeros.server.i18n_derive --check   # write nothing; exit 1 if one is stale

Every catalog ``python -m westeros.server.i18n_catalog`` keeps (the game's and each bundled
plugin's) gets ``<locale>/zh_TW/LC_MESSAGES/westeros.po`` beside its zh_CN one: each translation
converted by OpenCC's ``s2twp`` configuration (Taiwan characters and Taiwan phrases), then the
reviewed term list ``westeros/locale/zh_TW_terms.toml`` applied in order (board-game terms where
the plain conversion is wrong or where the product's source text says otherwise). The output
depends on the zh_CN catalog, the converter and the term list only, so running it twice writes
the same files. The zh_TW files are committed and never edited by hand: fix the zh_CN text or
add a term. OpenCC is a development dependency (the ``test`` extra); the game reads the
committed .po files."""

from __future__ import annotations

import argparse
import copy
import io
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from . import i18n_catalog

SOURCE = "zh_CN"
DERIVED = "zh_TW"
OPENCC_CONFIG = "s2twp"
TERMS = i18n_catalog.GAME_LOCALE / "zh_TW_terms.toml"
HEADER = (
    "Chinese (Traditional, Taiwan) translations for Westeros.\n"
    "Derived from the zh_CN catalog by `python -m westeros.server.i18n_derive` (OpenCC s2twp\n"
    "and westeros/locale/zh_TW_terms.toml): do not edit; change zh_CN or the term list."
)


def load_terms(path: Path = TERMS) -> list[tuple[str, str]]:
    """The reviewed (from, to) replacements, in the order they are applied."""
    with path.open("rb") as handle:
        return [(term["from"], term["to"]) for term in tomllib.load(handle)["term"]]


def converter(terms: Sequence[tuple[str, str]]) -> Callable[[str], str]:
    """Simplified text to Taiwan Traditional: OpenCC ``s2twp``, then ``terms``."""
    import opencc

    convert = opencc.OpenCC(OPENCC_CONFIG).convert

    def apply(text: str) -> str:
        out = convert(text)
        for old, new in terms:
            out = out.replace(old, new)
        return out

    return apply


def derive(source: Catalog, convert: Callable[[str], str]) -> Catalog:
    """A zh_TW copy of ``source`` with every translation converted (ids and comments kept)."""
    catalog = copy.deepcopy(source)
    catalog.locale = DERIVED
    catalog.language_team = f"{DERIVED} (derived from {SOURCE})"
    catalog.header_comment = "\n".join(f"# {line}" for line in HEADER.splitlines())
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.string, str):
            message.string = convert(message.string)
        else:
            message.string = tuple(convert(form) for form in message.string)
    return catalog


def render(catalog: Catalog) -> bytes:
    """``catalog`` as a .po file, written as ``i18n_catalog`` writes every catalog."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, omit_header=False)
    return out.getvalue()


def derived_files() -> dict[Path, bytes]:
    """{zh_TW .po path: its derived content} for every catalog of this repository."""
    convert = converter(load_terms())
    out: dict[Path, bytes] = {}
    for target in i18n_catalog.targets():
        source = i18n_catalog.po_path(target, SOURCE)
        if source.is_file():
            catalog = derive(i18n_catalog.read(source, SOURCE), convert)
            out[i18n_catalog.po_path(target, DERIVED)] = render(catalog)
    return out


def stale(files: dict[Path, bytes]) -> list[Path]:
    """The paths whose committed content differs from ``files``."""
    return [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check`` only compare) every derived zh_TW catalog."""
    parser = argparse.ArgumentParser(prog="python -m westeros.server.i18n_derive")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if stale")
    args = parser.parse_args(argv)
    files = derived_files()
    changed = stale(files)
    for path in changed:
        print(f"{'stale' if args.check else 'wrote'} {path.relative_to(i18n_catalog.REPO)}")
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[path])
    print(f"{len(files)} zh_TW catalogs, {len(changed)} {'stale' if args.check else 'written'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
