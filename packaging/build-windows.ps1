# Build the Windows 10/11 x64 app (one folder, windowed) from a clean checkout.
#   powershell -ExecutionPolicy Bypass -File packaging\build-windows.ps1
# Output: dist\westeros\westeros.exe; then a smoke run lists the bundled plugins.
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")

py -3.11 -m venv .venv-build
.\.venv-build\Scripts\python -m pip install --upgrade pip
.\.venv-build\Scripts\python -m pip install . "pyinstaller>=6.10"
.\.venv-build\Scripts\python -m PyInstaller --noconfirm packaging\westeros.spec

$exe = "dist\westeros\westeros.exe"
if (-not (Test-Path $exe)) { throw "the build did not produce $exe" }
$listing = & $exe plugins --json | ConvertFrom-Json
$names = $listing.plugins | ForEach-Object { $_.name }
foreach ($want in "westeros-base", "westeros_ports", "westeros_tides_of_battle") {
    if ($names -notcontains $want) { throw "the frozen app does not list $want" }
}
if ($listing.errors.Count -gt 0) { throw "plugin load errors: $($listing.errors | ConvertTo-Json)" }
Write-Host "Built $exe; bundled plugins: $($names -join ', ')"
