# Build the Windows 10/11 x64 app (one folder, windowed) from a clean checkout.
#   powershell -ExecutionPolicy Bypass -File packaging\build-windows.ps1
# The dependency set is packaging\requirements-windows.txt (pinned with hashes; the same lock as
# the Wine build, build-windows-wine.sh). Output: dist\westeros\westeros.exe; then a smoke run
# lists the bundled plugins.
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")

function Invoke-Checked {
    & $args[0] $args[1..($args.Count - 1)]
    if ($LASTEXITCODE -ne 0) { throw "failed ($LASTEXITCODE): $args" }
}

py -3.11 -m venv .venv-build
if ($LASTEXITCODE -ne 0) { throw "no Python 3.11 (py -3.11)" }
$python = ".\.venv-build\Scripts\python"
Invoke-Checked $python -m pip install --require-hashes --no-deps -r packaging\requirements-windows.txt
Invoke-Checked $python -m pip install --no-deps .
Invoke-Checked $python -m pip check
Invoke-Checked $python -m PyInstaller --noconfirm packaging\westeros.spec

$exe = "dist\westeros\westeros.exe"
if (-not (Test-Path $exe)) { throw "the build did not produce $exe" }
$listing = & $exe plugins --json | ConvertFrom-Json
$names = $listing.plugins | ForEach-Object { $_.name }
foreach ($want in "westeros-base", "westeros_ports", "westeros_tides_of_battle", "westeros_mother_of_dragons") {
    if ($names -notcontains $want) { throw "the frozen app does not list $want" }
}
if ($listing.errors.Count -gt 0) { throw "plugin load errors: $($listing.errors | ConvertTo-Json)" }
$size = [math]::Round(((Get-ChildItem dist\westeros -Recurse -File | Measure-Object Length -Sum).Sum) / 1MB)
Write-Host "Built $exe ($size MB); bundled plugins: $($names -join ', ')"
