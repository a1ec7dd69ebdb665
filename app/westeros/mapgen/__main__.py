"""``python -m westeros.mapgen``: write (or ``--check``) the bundled SVG map."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import OUTPUT, bundled_maps


def main(argv: list[str] | None = None) -> int:
    """Write the map to ``--out`` (default: the bundled map path, from the repository root),
    and beside it the map of each game option that changes the board."""
    parser = argparse.ArgumentParser(prog="python -m westeros.mapgen", description=main.__doc__)
    parser.add_argument("--out", type=Path, default=OUTPUT, help=f"default: {OUTPUT}")
    parser.add_argument(
        "--check", action="store_true", help="only report whether --out is up to date"
    )
    parser.add_argument(
        "--disable", action="append", default=[], metavar="PLUGIN", help="leave a plugin out"
    )
    args = parser.parse_args(argv)
    try:
        maps = bundled_maps(args.out, args.disable)
    except ModuleNotFoundError as missing:
        if missing.name != "shapely":
            raise
        print(
            "python -m westeros.mapgen needs shapely, which a plain install leaves out: "
            "pip install 'westeros-game[mapgen]' (from a checkout: pip install '.[mapgen]').",
            file=sys.stderr,
        )
        return 2
    stale = 0
    for path, text in maps.items():
        current = path.read_bytes().decode("utf-8") if path.is_file() else None
        if args.check:
            if current != text:
                print(f"{path} is out of date: run python -m westeros.mapgen", file=sys.stderr)
                stale += 1
            else:
                print(f"{path} is up to date")
            continue
        if current != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
        print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
