"""Run the real ``westeros`` command as a subprocess in a throw-away home (its own data, log
and database folders), reading its output through pipes."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import IO

ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)")


def command() -> list[str]:
    """The installed ``westeros`` console script of this environment."""
    script = Path(sys.executable).with_name("westeros")
    return [str(script)] if script.exists() else [sys.executable, "-m", "westeros.cli"]


def isolated_env(home: Path, **extra: str) -> dict[str, str]:
    """An environment whose user folders lie in ``home``; no display, no browser."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WESTEROS_DATABASE_URL", "BROWSER")
    }
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_CONFIG_HOME=str(home / "config"),
        WESTEROS_DISABLE_PLUGIN_AUTOLOAD="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


class Running:
    """A running ``westeros`` process whose stdout and stderr are collected in threads."""

    def __init__(self, args: Sequence[str], env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [*command(), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        self._out: list[str] = []
        self._err: list[str] = []
        self._threads = [
            threading.Thread(target=self._read, args=(self.process.stdout, self._out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self._err), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _read(pipe: IO[str] | None, into: list[str]) -> None:
        assert pipe is not None
        for line in pipe:
            into.append(line)

    @property
    def stdout(self) -> str:
        return "".join(self._out)

    @property
    def stderr(self) -> str:
        return "".join(self._err)

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 60) -> re.Match[str]:
        """The first match of ``pattern`` in stdout, waiting for it to be printed."""
        deadline = time.monotonic() + timeout
        while not (match := pattern.search(self.stdout)):
            if self.process.poll() is not None:
                self.finish(5)
                raise AssertionError(f"exited {self.process.returncode}: {self.stderr}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern.pattern!r} not printed: {self.stderr}")
            time.sleep(0.01)
        return match

    def wait_for_stderr(self, text: str, timeout: float = 30) -> None:
        """Wait until ``text`` was printed on stderr."""
        deadline = time.monotonic() + timeout
        while text not in self.stderr:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"{text!r} not printed: {self.stderr}")
            time.sleep(0.01)

    def interrupt(self) -> None:
        self.process.send_signal(signal.SIGINT)

    def finish(self, timeout: float = 30) -> int:
        """Wait for the process to end (killing it after ``timeout``); its exit code."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(5)
        for thread in self._threads:
            thread.join(5)
        return code


def run(args: Sequence[str], env: dict[str, str], cwd: Path, timeout: float = 60) -> Running:
    """Run ``westeros ARGS`` to its end."""
    done = Running(args, env, cwd)
    done.finish(timeout)
    return done


def page_opener() -> urllib.request.OpenerDirector:
    """An opener that keeps cookies as a browser does: the core trades the launch token in
    the address for its cookie and redirects to the address without it."""
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
