"""Helpers of the table-voice browser tests and benchmark (issue 39): Chromium with fake media
devices whose microphone is a generated tone, people seated in a running online game with
their board pages open, and the audio counters of each page's peer connections
(``window.westerosVoice.stats()``, frontend/static/js/online/voice.js)."""

from __future__ import annotations

import dataclasses
import math
import struct
import time
import wave
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS
from .seat_helpers import LiveOnline, browser_context, page_post

WAIT_S = 20.0
STEP_S = 0.25


def tone_file(path: Path, seconds: float = 5.0, hertz: float = 440.0, rate: int = 48_000) -> Path:
    """A sine of ``hertz`` as a 16-bit mono WAV at ``rate`` (Chromium loops it as the fake
    microphone)."""
    frames = b"".join(
        struct.pack("<h", int(12_000 * math.sin(2 * math.pi * hertz * i / rate)))
        for i in range(int(seconds * rate))
    )
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)
    return path


def voice_args(tone: Path) -> list[str]:
    """Chromium's arguments for voice: fake devices (the tone as microphone), no permission
    prompt, audio that plays without a gesture, loopback host candidates without mDNS."""
    return [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={tone}",
        "--autoplay-policy=no-user-gesture-required",
        "--disable-features=WebRtcHideLocalIpsWithMdns",
    ]


def launch_voice_browser(launch_chromium: Callable[..., Any], tmp_path: Path) -> Any:
    """Chromium (through the ``launch_chromium`` fixture) with a 440 Hz tone as microphone."""
    return launch_chromium(CHROMIUM, voice_args(tone_file(tmp_path / "tone.wav")))


@dataclasses.dataclass
class Seated:
    """A person at the table: their house and their board page."""

    name: str
    house: str
    page: Any


def seat_people(
    live: LiveOnline,
    browser: Any | Sequence[Any],
    houses: Sequence[tuple[str, str]],
    players: int | None = None,
    **settings: Any,
) -> tuple[str, list[Seated]]:
    """A running game (lobby ``settings`` added) whose seats ``houses`` ((name, house), the
    first the host's) are people, each with the board open in a context of ``browser`` (or
    of the browser of the same rank in that list; script errors collected in the page's
    ``errors``): the lobby id and the people."""
    browsers = list(browser) if isinstance(browser, Sequence) else [browser] * len(houses)
    contexts = [browser_context(one) for one in browsers]
    for context, (name, _) in zip(contexts, houses, strict=True):
        page_post(context, live.url, "/api/players", {"name": name})
    host, first = contexts[0], houses[0][1]
    body = {"players": players or len(houses), "house": first, "name": "Voices", **settings}
    lobby_id = page_post(host, live.url, "/api/lobbies", body)["lobby"]["id"]
    for context, (_, house) in zip(contexts[1:], houses[1:], strict=True):
        page_post(context, live.url, f"/api/lobbies/{lobby_id}/take", {"house": house})
        page_post(context, live.url, f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = page_post(host, live.url, f"/api/lobbies/{lobby_id}/start", {})["lobby"]["game_id"]
    people = []
    for context, (name, house) in zip(contexts, houses, strict=True):
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc, page=page: page.errors.append(str(exc)))
        page.goto(f"{live.url}/games/{game_id}/play/{house}")
        page.wait_for_function("() => document.body.dataset.stateId")
        people.append(Seated(name, house, page))
    return lobby_id, people


def spectator_page(live: LiveOnline, browser: Any, lobby_id: str, name: str) -> Any:
    """``name``, registered without a seat, on the lobby page of ``lobby_id`` (a running
    game), in a context of its own."""
    context = browser_context(browser)
    page_post(context, live.url, "/api/players", {"name": name})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{live.url}/lobbies/{lobby_id}")
    return page


def join_voice(page: Any) -> None:
    """Press "Join table voice" on ``page``; it shows "Leave table voice" once joined."""
    page.get_by_test_id("voice-join").click()
    page.get_by_test_id("voice-leave").wait_for(state="visible")


def stats(page: Any) -> dict[str, dict[str, Any]]:
    """The page's peer connections' audio counters by the peer's house (or peer id)."""
    return {s["house"] or s["peer"]: s for s in page.evaluate("window.westerosVoice.stats()")}


def connected(page: Any, houses: Sequence[str], timeout: float = WAIT_S) -> None:
    """Wait until ``page`` has a connected peer connection with exactly ``houses`` among the
    seats (a listening spectator's connections aside)."""
    deadline = time.monotonic() + timeout
    while True:
        now = {house: s for house, s in stats(page).items() if s["house"]}
        if sorted(now) == sorted(houses) and all(s["state"] == "connected" for s in now.values()):
            return
        assert time.monotonic() < deadline, f"connections: {now}, wanted {sorted(houses)}"
        time.sleep(STEP_S)


def received(page: Any, house: str) -> tuple[int, float]:
    """Bytes and total audio energy ``page`` has received from ``house`` so far."""
    inbound = stats(page).get(house, {}).get("inbound") or {}
    return inbound.get("bytesReceived", 0), inbound.get("totalAudioEnergy", 0.0)


def sent(page: Any) -> int:
    """Bytes of audio ``page`` has sent, over all its peer connections."""
    return sum((s.get("outbound") or {}).get("bytesSent", 0) for s in stats(page).values())


def hears(page: Any, house: str) -> bool:
    """Whether ``page`` receives sound from ``house``: its bytes and audio energy rise and
    the level is above silence (waits until they do, False if they do not in time)."""
    bytes0, energy0 = received(page, house)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        time.sleep(STEP_S)
        inbound = stats(page).get(house, {}).get("inbound") or {}
        if (
            inbound.get("bytesReceived", 0) > bytes0
            and inbound.get("totalAudioEnergy", 0.0) > energy0
            and inbound.get("audioLevel", 0.0) > 0.01
        ):
            return True
    return False


def settles(read: Callable[[], Any], quiet_s: float = 1.5) -> Any:
    """Wait until ``read()`` stays the same for ``quiet_s`` (None if it never does in time):
    a counter that stopped rising."""
    deadline = time.monotonic() + WAIT_S
    last = read()
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(STEP_S)
        now = read()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return now
    return None
