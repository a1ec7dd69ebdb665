"""Issue 35 finding 18 (c): ``python -m westeros.server.i18n_catalog --check`` raised ValueError
once a plugin from outside the repository was installed (its sources' paths were made
relative to the repository). Now it checks the repository's catalogs and names the plugin it
skipped. The plugin is a real distribution with an entry point on ``sys.path``."""

from __future__ import annotations

from pathlib import Path

import pytest

from westeros.server import i18n_catalog

from .fakes import install_dist

FAR_AWAY = """
    from pathlib import Path

    from westeros import hookimpl

    def _(text):
        return text

    TITLE = _("A message of a plugin far away")

    @hookimpl
    def register_translations():
        return [str(Path(__file__).parent / "far_away_locale")]
"""


def test_the_catalog_check_skips_a_plugin_installed_outside_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35 finding 18 (c): the check runs to its end, reports the game's and the bundled
    plugins' catalogs, and says that it skipped the outside plugin (by name and folder)."""
    install_dist(
        tmp_path,
        monkeypatch,
        "westeros-far-away",
        "1.0",
        {"far_away": "far_away_mod"},
        {"far_away_mod": FAR_AWAY},
    )
    (tmp_path / "site-westeros-far-away" / "far_away_locale").mkdir()
    i18n_catalog.main(["--check"])
    out = capsys.readouterr().out
    print(out)
    assert f"skipped plugin far_away ({tmp_path / 'site-westeros-far-away'})" in out
    assert "westeros zh_CN:" in out and "westeros_tides_of_battle zh_CN:" in out
    assert "A message of a plugin far away" not in out
