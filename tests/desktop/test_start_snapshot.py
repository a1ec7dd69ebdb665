"""The start screen kept between launches (issue 37 point 5; ``server.start_snapshot`` and
``server.core_gate``): shown before the core is built only when it is exactly what the core
would answer, behind the same front door; anything that may have changed means the usual wait."""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.store.helpers import three_player_setup
from westeros import desktop
from westeros.desktop import DATABASE_ENV, LocalCore
from westeros.plugin_env import ENV_DISABLE, ENV_PLUGIN_DIR, user_plugin_dir
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.server import start_snapshot
from westeros.store import db

ENGLISH = "en-US,en;q=0.9"
CHINESE = "zh-CN,zh;q=0.9"


class Browser:
    """A window's requests: keeps the token cookie, sends one Accept-Language."""

    def __init__(self, language: str = ENGLISH) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.opener.addheaders = [("Accept-Language", language)]

    def get(self, url: str, timeout: float = 60) -> tuple[int, bytes]:
        try:
            with self.opener.open(url, timeout=timeout) as page:
                return page.status, page.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A database URL, a kept-screen file and an empty user plugin folder of this test."""
    monkeypatch.setenv(ENV_PLUGIN_DIR, str(tmp_path / "plugins"))
    monkeypatch.delenv(ENV_DISABLE, raising=False)
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    yield {"url": f"sqlite:///{tmp_path / 'games.db'}", "kept": tmp_path / "start-screen.json"}


def launch(places: dict[str, Any], language: str = ENGLISH, *, play: bool = False) -> bytes:
    """One launch of the app's core: the start screen asked as a window does (with ``play``,
    then a new game started from it), then a clean stop, which keeps the start screen; returns
    the start screen shown at the launch."""
    core = LocalCore(store_url=places["url"], ai_delay=0, start_screen=places["kept"])
    url = core.start()
    try:
        browser = Browser(language)
        status, page = browser.get(url)
        assert status == 200
        if play:
            origin = url.split("/?")[0]
            new_game = urllib.request.Request(
                f"{origin}/games", data=b"players=3", headers={"Origin": origin}, method="POST"
            )
            with browser.opener.open(new_game, timeout=60) as board:
                assert "/play/" in board.geturl()
        return page
    finally:
        core.stop()


class HeldBuild:
    """A launch whose core build waits until :meth:`release` (the monkeypatched step is the
    shell's own ``_open_app``; what it builds is the real core)."""

    def __init__(self, places: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
        self.go = threading.Event()
        build: Callable[[LocalCore], Any] = LocalCore._open_app

        def held(core: LocalCore) -> Any:
            assert self.go.wait(120)
            return build(core)

        monkeypatch.setattr(LocalCore, "_open_app", held)
        self.core = LocalCore(store_url=places["url"], ai_delay=0, start_screen=places["kept"])
        self.url = self.core.listen()
        self.starting = threading.Thread(target=self.core.start)
        self.starting.start()

    def release(self) -> None:
        self.go.set()
        self.starting.join(120)

    def ask(self, browser: Browser, path: str) -> tuple[threading.Thread, dict[str, Any]]:
        """Ask ``path`` in a thread (it may have to wait for the core)."""
        answer: dict[str, Any] = {}

        def get() -> None:
            answer["status"], answer["page"] = browser.get(path, timeout=120)

        asking = threading.Thread(target=get)
        asking.start()
        return asking, answer


def test_the_kept_start_screen_is_shown_before_the_core_is_built_and_is_the_core_s_own(
    places: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = launch(places, play=True)  # the screen kept at its stop lists the game played
    assert b'data-testid="continue"' not in first
    held = HeldBuild(places, monkeypatch)
    browser = Browser()
    try:
        status, page = browser.get(held.url, timeout=30)  # the build is still held
        assert status == 200
        assert b'data-testid="continue"' in page
        origin = held.url.split("/?")[0]
        asking, answer = held.ask(browser, f"{origin}/settings.json")
        asking.join(1.0)
        assert asking.is_alive(), "a request the kept screen cannot answer waited for the core"
        assert browser.get(f"{origin}/static/css/base.css")[0] == 200
        held.release()
        asking.join(60)
        assert answer["status"] == 200
        assert browser.get(f"{origin}/")[1] == page  # the built core's own answer, to the byte
    finally:
        held.release()
        held.core.stop()


def test_the_kept_screen_keeps_the_core_s_front_door(
    places: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the core is built: no token, 403; another Host, 400; the token sets the cookie."""
    launch(places)
    held = HeldBuild(places, monkeypatch)
    try:
        bare = held.url.split("?")[0]
        assert Browser().get(bare, timeout=30)[0] == 403
        assert Browser().get(bare + "static/css/base.css", timeout=30)[0] == 403
        renamed = bare.replace("127.0.0.1", "localhost.example")
        request = urllib.request.Request(
            bare, headers={"Host": renamed.split("/")[2], "Accept-Language": ENGLISH}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        assert Browser().get(held.url, timeout=30)[0] == 200
    finally:
        held.release()
        held.core.stop()


def test_a_page_asked_in_another_language_waits_for_the_core(
    places: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    launch(places, ENGLISH)
    held = HeldBuild(places, monkeypatch)
    try:
        asking, answer = held.ask(Browser(CHINESE), held.url)
        asking.join(1.0)
        assert asking.is_alive(), "the English start screen was shown to a Chinese window"
        held.release()
        asking.join(60)
        assert answer["status"] == 200
        assert "新游戏".encode() in answer["page"] or "开始".encode() in answer["page"]
    finally:
        held.release()
        held.core.stop()


def test_a_core_that_cannot_be_built_answers_the_waiting_window_with_the_reason(
    places: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(core: LocalCore) -> Any:
        raise desktop.CoreStartError("the database is on fire")

    monkeypatch.setattr(LocalCore, "_open_app", broken)
    core = LocalCore(store_url=places["url"], ai_delay=0, start_screen=places["kept"])
    url = core.listen()
    try:
        with pytest.raises(desktop.CoreStartError):
            core.start()
        status, page = Browser().get(url, timeout=30)
        assert (status, page) == (503, b"the database is on fire")
    finally:
        core.stop()


def test_a_kept_screen_whose_static_folder_is_gone_still_starts(
    places: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A plugin's static folder removed since (not part of the page): its files are not
    served early, and the kept screen and the core still are."""
    launch(places)
    record = json.loads(places["kept"].read_text("utf-8"))
    record["static"].insert(0, ["gone", str(tmp_path / "gone")])
    places["kept"].write_text(json.dumps(record), "utf-8")
    held = HeldBuild(places, monkeypatch)
    try:
        status, page = Browser().get(held.url, timeout=30)
        assert (status, b'id="new-game"' in page) == (200, True)
    finally:
        held.release()
        held.core.stop()


def _kept(places: dict[str, Any]) -> start_snapshot.Snapshot | None:
    core = LocalCore(store_url=places["url"], start_screen=places["kept"])
    return core._kept_screen()


def _save_a_game(places: dict[str, Any]) -> None:
    """Another program (or a second copy of the app) saves a game in the same database."""
    store = open_store(places["url"] or db.database_url())
    try:
        store.create_game(three_player_setup(build_ruleset({})))
    finally:
        store.close()


def _replace_the_database(places: dict[str, Any]) -> None:
    path = Path((places["url"] or db.database_url()).removeprefix("sqlite:///"))
    copy = path.with_name("copy.db")
    shutil.copy(path, copy)
    copy.replace(path)


def _add_a_user_plugin(places: dict[str, Any]) -> None:
    folder = user_plugin_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "banners.py").write_text('"""A plugin that adds nothing."""\n', "utf-8")


CHANGES: dict[str, Callable[[dict[str, Any], pytest.MonkeyPatch], None]] = {
    "a game saved": lambda places, _: _save_a_game(places),
    "the database replaced by a copy": lambda places, _: _replace_the_database(places),
    "a user plugin added": lambda places, _: _add_a_user_plugin(places),
    "a plugin disabled": lambda _, mp: mp.setenv(ENV_DISABLE, "westeros_ports"),
    "another database named": lambda places, mp: mp.setenv(
        DATABASE_ENV, f"sqlite:///{places['kept'].with_name('elsewhere.db')}"
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_nothing_that_may_have_changed_the_start_screen_lets_the_kept_one_show(
    change: str, places: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    if change == "another database named":  # the core opens what the environment names
        monkeypatch.setenv(DATABASE_ENV, places["url"])
        places = {**places, "url": None}
    launch(places)
    assert _kept(places) is not None, "an unchanged launch shows the kept screen"
    CHANGES[change](places, monkeypatch)
    assert _kept(places) is None, f"{change}: the kept start screen would be stale"


def test_the_shell_reads_the_database_variable_the_store_reads() -> None:
    """The shell names it without importing the store (start-up); the two must agree."""
    assert DATABASE_ENV == db.ENV_DATABASE_URL
