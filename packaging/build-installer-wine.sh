#!/usr/bin/env bash
# Build the Windows installer (dist/westeros-<version>-setup.exe) of the folder build with NSIS's
# makensis (packaging/westeros.nsi), then smoke-run it under Wine in a fresh prefix, as a person
# without administrator rights would: silent install, its files, shortcuts and uninstall entry,
# the installed exe; silent uninstall, which keeps a saved game; uninstall with /REMOVEDATA, which
# removes it.
#   bash packaging/build-installer-wine.sh [FOLDER]     (FOLDER: default dist/westeros, made by
#                                                          build-windows-wine.sh; needs nsis, wine64)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

for tool in makensis wine winepath wineserver python3; do
    command -v "$tool" >/dev/null || {
        echo "build-installer-wine: '$tool' is missing; on Debian: apt-get install nsis wine wine64" >&2
        exit 2
    }
done
bundle=$(realpath "${1:-dist/westeros}")
[[ -f $bundle/westeros.exe ]] || {
    echo "build-installer-wine: no $bundle/westeros.exe; build it first (build-windows-wine.sh)" >&2
    exit 2
}
version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' app/westeros/__init__.py)
installer=$root/dist/westeros-$version-setup.exe

step() { printf '\n== %s (%ds)\n' "$1" $((SECONDS - started)); }
fail() {
    echo "build-installer-wine: $*" >&2
    exit 1
}
checked() { echo "  ok: $*"; }

step "makensis $(makensis -VERSION): $installer"
mkdir -p dist
# -WX: every warning is an error. (makensis works in the script's folder: absolute paths.)
makensis -WX -V2 -DSOURCE="$bundle" -DVERSION="$version" -DOUTFILE="$installer" \
    packaging/westeros.nsi
printf 'installer: %d MB\n' $(($(stat -c %s "$installer") / 1024 / 1024))

work=$(mktemp -d)
# A fresh prefix, and a HOME of its own: Wine links the Windows desktop to the Linux one.
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all HOME=$work/home
# No Mono or Gecko dialogs, and no Linux menu entries for the Windows shortcuts.
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
mkdir -p "$HOME"
cleanup() {
    wineserver -k 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# Every wine call's output goes through a pipe (as in build-windows-wine.sh).
run_wine() { wine "$@" 2>&1 | tr -d '\r'; }
# Runs a program and waits for every process it started (an uninstaller runs from a copy).
run_wait() {
    run_wine "$@"
    wineserver -w
}
# A Windows folder as a Linux path. A fresh prefix sometimes answers its first calls with
# nothing (seen once in four runs here): ask up to three times.
folder() {
    local windows unix
    for _ in 1 2 3; do
        windows=$(run_wine cmd /c echo "$1" || true)
        if [[ -n $windows && $windows != "$1" ]]; then
            unix=$(winepath -u "$windows" 2>/dev/null | sed 's:/*$::' || true)
            [[ -n $unix ]] && echo "$unix" && return 0
        fi
        sleep 2
    done
    fail "Wine did not name the folder $1"
}

step "Fresh Wine prefix (wine $(wine --version 2>/dev/null)) as an ordinary user"
if ! wine wineboot --init </dev/null >"$work/wineboot.log" 2>&1; then
    wineserver -w
    echo "wineboot failed once; again:" && tail -5 "$work/wineboot.log"
    wine wineboot --init </dev/null >"$work/wineboot.log" 2>&1 || fail "wineboot failed"
fi
wineserver -w
local_app=$(folder '%LOCALAPPDATA%')
start_menu=$(folder '%APPDATA%')/Microsoft/Windows/Start\ Menu/Programs
desktop=$(folder '%USERPROFILE%')/Desktop
program=$local_app/Programs/Westeros
data=$local_app/westeros/westeros
key='HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Westeros'
echo "LOCALAPPDATA: $local_app"

# A saved game from an earlier play (platformdirs.user_data_dir("westeros") on Windows).
mkdir -p "$data"
echo "a saved game" >"$data/games.db"

check_installed() {
    [[ -f $program/westeros.exe && -f $program/uninstall.exe ]] || fail "no $program/westeros.exe"
    local want got
    want=$(find "$bundle" -type f | wc -l)
    got=$(find "$program" -type f ! -name uninstall.exe | wc -l)
    ((want == got)) || fail "installed $got files, the bundle has $want"
    checked "$want files and uninstall.exe in %LOCALAPPDATA%\\Programs\\Westeros"
    python3 - "$start_menu/Westeros.lnk" "$desktop/Westeros.lnk" <<'EOF'
import sys
from pathlib import Path

target = "Programs\\Westeros\\westeros.exe"
for link in map(Path, sys.argv[1:]):
    assert link.is_file(), f"no shortcut {link}"
    data = link.read_bytes()
    assert data[:4] == b"L\0\0\0", f"{link} is not a shell link"
    assert target.encode() in data or target.encode("utf-16-le") in data, f"{link}: no target"
    print(f"  ok: shortcut {link.parent.name}/{link.name} -> ...\\{target}")
EOF
    run_wine reg query "$key" >"$work/key.txt" || fail "no uninstall entry $key"
    grep -q 'UninstallString.*uninstall.exe' "$work/key.txt" || fail "$key has no UninstallString"
    grep -q "DisplayVersion.*$version" "$work/key.txt" || fail "$key has no DisplayVersion $version"
    checked "uninstall entry $key (UninstallString, DisplayVersion $version)"
    if run_wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\Westeros' \
        >/dev/null; then
        fail "the installer wrote to HKLM (it needs no administrator rights)"
    fi
    checked "nothing under HKLM"
}

check_uninstalled() {
    [[ ! -e $program ]] || fail "$program is still there: $(find "$program" | head -5)"
    [[ ! -e $start_menu/Westeros.lnk && ! -e $desktop/Westeros.lnk ]] || fail "a shortcut is left"
    if run_wine reg query "$key" >/dev/null; then fail "$key is still there"; fi
    checked "program folder, both shortcuts and the uninstall entry are gone"
}

step "Silent install (/S), no administrator rights"
run_wait "$installer" /S
check_installed
got=$(run_wine "$program/westeros.exe" --version)
[[ $got == "westeros $version" ]] || fail "the installed exe printed '$got'"
checked "installed westeros.exe --version: $got"

step "Silent uninstall (/S): the saved games stay"
run_wait "$program/uninstall.exe" /S
check_uninstalled
[[ $(cat "$data/games.db") == "a saved game" ]] || fail "the saved game is gone"
checked "the saved game $data/games.db is kept"

step "Install again, then uninstall with /S /REMOVEDATA: the saved games go too"
run_wait "$installer" /S
check_installed
run_wait "$program/uninstall.exe" /S /REMOVEDATA
check_uninstalled
[[ ! -e $data && ! -e $local_app/westeros ]] || fail "the saved games are still in $data"
checked "the user data folder %LOCALAPPDATA%\\westeros is removed"

printf '\nWindows installer %s: built and smoke-run under Wine in %ds\n' \
    "${installer#"$root"/}" $((SECONDS - started))
