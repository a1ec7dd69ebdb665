"""``westeros serve`` as a user runs it (release issue, acceptance 2): the address is printed
only once the core listens; a port it cannot use, a database it cannot open and Ctrl+C give one
clear paragraph and no traceback (``-v`` adds the details)."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

from tests.cli.helpers import ADDRESS, Running, isolated_env, page_opener, run


def test_the_address_is_printed_only_once_a_connection_succeeds(tmp_path: Path) -> None:
    core = Running(["serve", "--ai-delay", "0"], isolated_env(tmp_path), tmp_path)
    try:
        match = core.wait_for(ADDRESS)
        # No retry: the very first connection after the line appears must be accepted.
        with socket.create_connection(("127.0.0.1", int(match.group(1))), timeout=5):
            pass
        with page_opener().open(match.group(0), timeout=10) as page:
            assert page.status == 200
    finally:
        core.interrupt()
        assert core.finish() == 0
    assert "Traceback" not in core.stderr


def test_a_port_in_use_gives_one_paragraph_and_no_traceback(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run(["serve", "--port", str(port)], isolated_env(tmp_path), tmp_path)
    assert done.process.returncode == 1
    assert f"could not listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
    assert "Westeros is running" not in done.stdout


def test_a_database_that_cannot_be_opened_gives_one_paragraph(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("not a folder")
    database = f"sqlite:///{not_a_folder / 'games.db'}"
    done = run(["serve", "--database", database], isolated_env(tmp_path), tmp_path)
    assert done.process.returncode == 1
    paragraphs = [p for p in done.stderr.split("\n\n") if p.strip()]
    assert len(paragraphs) == 1, done.stderr
    assert paragraphs[0].startswith("Westeros could not open its database")
    assert "--database" in paragraphs[0]
    assert "Traceback" not in done.stderr
    assert "Westeros is running" not in done.stdout


def test_verbose_shows_the_traceback_of_a_database_failure(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("not a folder")
    database = f"sqlite:///{not_a_folder / 'games.db'}"
    done = run(["-v", "serve", "--database", database], isolated_env(tmp_path), tmp_path)
    assert done.process.returncode == 1
    assert "Westeros could not open its database" in done.stderr
    assert "Traceback" in done.stderr


def test_a_second_ctrl_c_while_stopping_prints_no_traceback(tmp_path: Path) -> None:
    core = Running(["serve", "--ai-delay", "0"], isolated_env(tmp_path), tmp_path)
    match = core.wait_for(ADDRESS)
    # Keep a connection open, so that stopping has something to wait for.
    with socket.create_connection(("127.0.0.1", int(match.group(1))), timeout=5):
        core.interrupt()
        time.sleep(0.2)
        core.interrupt()
        code = core.finish()
    assert code in (0, 130)
    assert "Traceback" not in core.stderr
    assert "KeyboardInterrupt" not in core.stderr


def test_sigterm_stops_the_core_cleanly(tmp_path: Path) -> None:
    core = Running(["serve", "--ai-delay", "0"], isolated_env(tmp_path), tmp_path)
    core.wait_for(ADDRESS)
    core.process.send_signal(signal.SIGTERM)
    assert core.finish() == 0
    assert "Traceback" not in core.stderr
