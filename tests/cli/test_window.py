"""Plain ``westeros`` where no window and no browser can be opened (release issue, acceptance 2):
one paragraph for each, saying what to do, no traceback, and the game still served."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import ADDRESS, Running, isolated_env, page_opener


def test_no_display_and_no_browser_give_one_paragraph_each_and_the_game_runs(
    tmp_path: Path,
) -> None:
    # BROWSER names a browser command that fails, as on a machine without one.
    env = isolated_env(tmp_path, BROWSER="false")
    app = Running([], env, tmp_path)
    try:
        url = app.wait_for(ADDRESS).group(0)
        with page_opener().open(url, timeout=10) as page:
            assert page.status == 200
        app.wait_for_stderr("No web browser could be opened")
    finally:
        app.interrupt()
        assert app.finish() == 0
    paragraphs = [p for p in app.stderr.split("\n\n") if p.strip()]
    assert len(paragraphs) == 2, app.stderr
    window, browser = paragraphs
    assert window.startswith("No desktop window could be opened: there is no graphical display")
    assert "westeros --browser" in window
    assert str(tmp_path / "state" / "westeros" / "log" / "westeros.log") in window
    assert browser.startswith("No web browser could be opened")
    assert "Traceback" not in app.stderr
    log = (tmp_path / "state" / "westeros" / "log" / "westeros.log").read_text()
    assert "no desktop window: there is no graphical display" in log


def test_browser_mode_does_not_mention_the_window(tmp_path: Path) -> None:
    app = Running(["--browser"], isolated_env(tmp_path, BROWSER="true"), tmp_path)
    try:
        app.wait_for(ADDRESS)
    finally:
        app.interrupt()
        assert app.finish() == 0
    assert "desktop window" not in app.stderr
    assert "Traceback" not in app.stderr
