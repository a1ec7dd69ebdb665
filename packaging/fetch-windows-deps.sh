#!/usr/bin/env bash
# Download every package of requirements-windows.txt for CPython 3.11 on Windows x64 into DEST,
# checking each file against its hash: binary wheels for win_amd64, and the source archive of the
# few packages published only as one (their wheels are built where they are installed).
#   bash packaging/fetch-windows-deps.sh DEST
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:?usage: fetch-windows-deps.sh DEST}
lock=packaging/requirements-windows.txt
sdist_only='^(proxy-tools|http-ece)=='
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Split the lock into wheel and sdist-only requirement blocks (a block is a pin and its hashes).
awk -v re="$sdist_only" -v wheels="$work/wheels.txt" -v sdists="$work/sdists.txt" '
    /^[a-z0-9]/ { out = ($0 ~ re) ? sdists : wheels }
    /^ +--hash/ || /^[a-z0-9]/ { print > out }
' "$lock"
python3 -m pip download -q --no-deps --require-hashes --dest "$dest" -r "$work/wheels.txt" \
    --platform win_amd64 --python-version 3.11 --implementation cp --only-binary=:all:
python3 -m pip download -q --no-deps --require-hashes --dest "$dest" -r "$work/sdists.txt" \
    --no-binary=:all:
