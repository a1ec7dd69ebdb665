#!/usr/bin/env bash
# Check that the Windows 10/11 x64 dependency set resolves to binary wheels for Python 3.11:
# the runtime dependencies from pyproject.toml plus PyInstaller. proxy_tools (needed by pywebview)
# is published only as an sdist, so its wheel is built here first. pip evaluates environment
# markers for this Linux machine even with --platform, so the requirements that only Windows
# pulls in (pywebview's pythonnet, psycopg's tzdata, click's colorama, PyInstaller's helpers) are
# named explicitly.
set -euo pipefail
set -f
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip wheel -q --no-deps -w "$work/local" proxy_tools
mapfile -t deps < <(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
python3 -m pip download -q --dest "$work/win" --find-links "$work/local" \
    --platform win_amd64 --python-version 3.11 --implementation cp --only-binary=:all: \
    "${deps[@]}" "pyinstaller>=6.10" pythonnet tzdata colorama pywin32-ctypes pefile
echo "win_amd64 dependency resolution succeeded: $(ls "$work/win" | wc -l) wheels"
ls "$work/win" | grep -i -E '^(pywebview|pythonnet|clr_loader|proxy_tools|psycopg_binary|pyinstaller)' || true
