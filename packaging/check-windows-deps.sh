#!/usr/bin/env bash
# Check that the Windows build's locked dependency set (packaging/requirements-windows.txt)
# downloads for CPython 3.11 on Windows x64, every file matching its hash, and that the lock
# still covers pyproject.toml's runtime dependencies (regenerate: bash packaging/lock-windows.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - <<'PY'
import re, tomllib
from pathlib import Path

def name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement)[0]).lower()

wanted = {name(r) for r in tomllib.loads(Path("pyproject.toml").read_text())["project"]["dependencies"]}
locked = {name(line) for line in Path("packaging/requirements-windows.txt").read_text().splitlines()
          if re.match(r"[a-z0-9]", line)}
missing = sorted(wanted - locked)
if missing:
    raise SystemExit(f"requirements-windows.txt lacks {missing}: run bash packaging/lock-windows.sh")
PY
bash packaging/fetch-windows-deps.sh "$work/win" 2>&1 | { grep -v "^WARNING: Location" || true; }
echo "win_amd64 dependency set downloads, hashes match: $(ls "$work/win" | wc -l) files"
ls "$work/win" | grep -i -E '^(pywebview|pythonnet|clr_loader|proxy_tools|psycopg_binary|pyinstaller)' || true
