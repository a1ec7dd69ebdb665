"""Table voice through TURN (issue 39 acceptance 4; docs/online.md "Voice behind firewalls"):
coturn runs in a network namespace of its own with ``use-auth-secret``, reachable only over
a veth pair this test makes; a ``westeros server`` configured with the same secret hands each
member its TURN credential in its voice ``state`` message; two WebRTC peers (aiortc) with
``iceTransportPolicy: "relay"`` exchange their offer and answer through the server's voice
relay, and the tone one sends reaches the other through a relay/relay candidate pair on the
TURN server's address. A credential whose time is up is refused by coturn (401).

Skipped with the reason where coturn, aiortc or network namespaces (root) are missing; CI
(``CI=true``, which installs coturn) fails instead."""

from __future__ import annotations

import asyncio
import fractions
import json
import math
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

import pytest

from westeros.online.turn import IceConfig, ice_servers

from .seat_helpers import LiveOnline, live_online, receive_until, register

HOST_IP, TURN_IP = "10.203.88.1", "10.203.88.2"
TURN_PORT = 3478
T = TypeVar("T")
SECRET = "coturn-test-secret-0123456789"
REALM = "westeros.test"


def _missing(reason: str) -> None:
    if os.environ.get("WESTEROS_TEST_REQUIRE_TURN") == "1":  # .ci/run sets it
        pytest.fail(f"CI runs the TURN test: {reason}")
    pytest.skip(reason)


def _in_own_thread(body: Callable[[], T]) -> T:
    """Run ``body`` in a thread of its own: a test worker that ran a browser test before has
    Playwright's event loop running in this thread, and a thread runs one loop at a time."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(body).result()


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@pytest.fixture
def coturn(tmp_path: Path) -> Iterator[Path]:
    """coturn listening on TURN_IP:TURN_PORT in a namespace of its own; its log file."""
    if shutil.which("turnserver") is None:
        _missing("the TURN test needs coturn (Debian package coturn: turnserver)")
    if os.geteuid() != 0 or shutil.which("ip") is None:
        _missing("the TURN test needs root and iproute2 (ip netns) to make a namespace")
    tag = uuid.uuid4().hex[:6]
    ns, outside, inside = f"wtv-{tag}", f"vto{tag}", f"vti{tag}"
    try:
        _ip("netns", "add", ns)
    except subprocess.CalledProcessError as exc:
        _missing(f"network namespaces are not allowed here ({exc.stderr.decode().strip()})")
    log = tmp_path / "turnserver.log"
    turn: subprocess.Popen[bytes] | None = None
    try:
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", ns)
        _ip("addr", "add", f"{HOST_IP}/24", "dev", outside)
        _ip("link", "set", outside, "up")
        _ip("-n", ns, "addr", "add", f"{TURN_IP}/24", "dev", inside)
        _ip("-n", ns, "link", "set", inside, "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        turn = subprocess.Popen(
            [
                *("ip", "netns", "exec", ns, "turnserver", "-n"),
                *("--listening-ip", TURN_IP, "--relay-ip", TURN_IP),
                *("--listening-port", str(TURN_PORT), "--min-port", "49160", "--max-port", "49300"),
                *("--use-auth-secret", "--static-auth-secret", SECRET, "--realm", REALM),
                *("--no-tls", "--no-dtls", "--no-cli", "--fingerprint"),
                *("--log-file", str(log), "--simple-log", "--verbose"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while b"listener opened on" not in (log.read_bytes() if log.exists() else b""):
            assert turn.poll() is None, "turnserver exited"
            assert time.monotonic() < deadline, "turnserver did not start listening"
            time.sleep(0.1)
        yield log
    finally:
        if turn is not None:
            turn.terminate()
            turn.wait(10)
        subprocess.run(["ip", "link", "del", outside], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    """``westeros server`` handing out credentials for the TURN server of ``coturn``."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    ice = IceConfig(turn_urls=(f"turn:{TURN_IP}:{TURN_PORT}?transport=udp",), turn_secret=SECRET)
    with live_online(tmp_path, ice=ice) as live:
        yield live


def _voice(ws: Any, op: str, **fields: Any) -> dict[str, Any]:
    """Send voice ``op``; for a join, the state naming this socket's member."""
    ws.send(json.dumps({"type": "voice", "op": op, **fields}))
    if op != "join":
        return {}
    found, _ = receive_until(ws, lambda m: m.get("op") == "state" and m.get("you"))
    return found


def _signalled(ws: Any) -> dict[str, Any]:
    found, _ = receive_until(ws, lambda m: m.get("op") == "signal")
    data: dict[str, Any] = found["data"]
    return data


def _peer(state: dict[str, Any]) -> Any:
    """An aiortc peer connection with the state's ICE servers, relay candidates only."""
    from aiortc import RTCConfiguration, RTCIceServer, RTCPeerConnection
    from aiortc.rtcconfiguration import RTCIceTransportPolicy

    servers = [
        RTCIceServer(s["urls"], s.get("username"), s.get("credential"))
        for s in state["ice_servers"]
    ]
    config = RTCConfiguration(servers, iceTransportPolicy=RTCIceTransportPolicy.RELAY)
    return RTCPeerConnection(config)


def _tone() -> Any:
    """A 440 Hz tone as an aiortc audio track (48 kHz mono, 20 ms frames)."""
    import av
    from aiortc.mediastreams import MediaStreamTrack

    class Tone(MediaStreamTrack):
        kind = "audio"

        def __init__(self) -> None:
            super().__init__()
            self.sent = 0
            self.started = time.monotonic()

        async def recv(self) -> Any:
            samples = 960
            wait = self.started + self.sent * samples / 48000 - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            wave = (
                int(8000 * math.sin(2 * math.pi * 440 * (self.sent * samples + i) / 48000))
                for i in range(samples)
            )
            frame = av.AudioFrame(format="s16", layout="mono", samples=samples)
            frame.planes[0].update(b"".join(v.to_bytes(2, "little", signed=True) for v in wave))
            frame.sample_rate, frame.pts = 48000, self.sent * samples
            frame.time_base = fractions.Fraction(1, 48000)
            self.sent += 1
            return frame

    return Tone()


def test_audio_flows_only_through_turn_with_the_server_s_credentials(
    coturn: Path, server: LiveOnline
) -> None:
    """Acceptance 4: Hal (Stark) and Bob (Lannister) join table voice and get TURN
    credentials from the server; Hal's offer and Bob's answer travel through the server's
    relay; Bob hears Hal's tone (decoded frames that are not silence, packets received), and
    both ends' selected candidate pair is relay/relay through the TURN server's address."""
    pytest.importorskip("aiortc", reason="the TURN test's WebRTC peers are aiortc")
    host, bob = register(server, "Hal"), register(server, "Bob")
    created = host.post(
        "/api/lobbies", {"players": 3, "house": "stark", "open_houses": ["stark", "lannister"]}
    )
    lobby_id = created["lobby"]["id"]
    bob.post("/api/join", {"invite": created["invites"]["lannister"].split("=", 1)[1]})
    bob.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]

    def talk() -> None:
        """Both peers, on an event loop of this thread's own."""
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)  # aiortc's senders take the current loop when made
        with ExitStack() as stack:
            stack.callback(asyncio.set_event_loop, None)
            stack.callback(loop.close)
            hal_ws = stack.enter_context(host.socket(f"/ws/games/{game_id}/seats/stark"))
            bob_ws = stack.enter_context(bob.socket(f"/ws/games/{game_id}/seats/lannister"))
            hal_state, bob_state = _voice(hal_ws, "join"), _voice(bob_ws, "join")
            assert hal_state["ice_servers"][0]["username"].endswith(f":{lobby_id}:stark")
            hal_pc, bob_pc = _peer(hal_state), _peer(bob_state)
            stack.callback(lambda: loop.run_until_complete(hal_pc.close()))
            stack.callback(lambda: loop.run_until_complete(bob_pc.close()))
            heard: list[Any] = []
            bob_pc.on("track", lambda track: heard.append(track))
            hal_pc.addTrack(_tone())

            async def offer() -> dict[str, str]:
                await hal_pc.setLocalDescription(await hal_pc.createOffer())
                return {"type": "offer", "sdp": hal_pc.localDescription.sdp}

            _voice(
                hal_ws,
                "signal",
                to=bob_state["you"],
                data={"sdp": loop.run_until_complete(offer())},
            )
            sdp = _signalled(bob_ws)["sdp"]

            async def answer(remote: dict[str, str]) -> dict[str, str]:
                from aiortc import RTCSessionDescription

                await bob_pc.setRemoteDescription(RTCSessionDescription(**remote))
                await bob_pc.setLocalDescription(await bob_pc.createAnswer())
                return {"type": "answer", "sdp": bob_pc.localDescription.sdp}

            _voice(
                bob_ws,
                "signal",
                to=hal_state["you"],
                data={"sdp": loop.run_until_complete(answer(sdp))},
            )
            remote = _signalled(hal_ws)["sdp"]

            async def listen() -> tuple[int, int]:
                from aiortc import RTCSessionDescription

                await hal_pc.setRemoteDescription(RTCSessionDescription(**remote))
                async with asyncio.timeout(60):
                    while not heard:
                        await asyncio.sleep(0.1)
                    loud = 0
                    while loud < 25:
                        frame = await heard[0].recv()
                        samples = memoryview(bytes(frame.planes[0])).cast("h")
                        loud += max(abs(v) for v in samples) > 1000
                stats = await bob_pc.getStats()
                packets = sum(s.packetsReceived for s in stats.values() if s.type == "inbound-rtp")
                return loud, packets

            loud, packets = loop.run_until_complete(listen())
            print(f"Bob decoded {loud} loud frames; {packets} RTP packets came in")
            assert loud >= 25 and packets > 0
            for pc in (hal_pc, bob_pc):
                transport = pc.getTransceivers()[0].receiver.transport.transport
                pairs = transport._connection._nominated.values()
                shown = [
                    (p.local_candidate.type, p.remote_candidate.type, p.remote_candidate.host)
                    for p in pairs
                ]
                print("selected pair (local, remote, remote address):", shown)
                assert shown and all(s == ("relay", "relay", TURN_IP) for s in shown)

    _in_own_thread(talk)
    assert f"{lobby_id}:stark" in coturn.read_text()


def test_coturn_refuses_a_credential_whose_time_is_up(coturn: Path) -> None:
    """Acceptance 4: a credential the server handed out an hour and a bit ago (its expiry in
    the past) is refused by coturn with 401, while one handed out now gets an allocation."""
    pytest.importorskip("aioice", reason="the TURN test's client is aioice (with aiortc)")
    from aioice.stun import TransactionFailed
    from aioice.turn import create_turn_endpoint

    config = IceConfig(
        turn_urls=(f"turn:{TURN_IP}:{TURN_PORT}",), turn_secret=SECRET, turn_ttl=3600
    )

    async def allocate(now: float) -> None:
        server = ice_servers(config, "lobby-1", "stark", now)[0]
        transport, _ = await create_turn_endpoint(
            asyncio.DatagramProtocol,
            (TURN_IP, TURN_PORT),
            server["username"],
            server["credential"],
        )
        transport.close()

    _in_own_thread(lambda: asyncio.run(allocate(time.time())))
    with pytest.raises(TransactionFailed) as refused:
        _in_own_thread(lambda: asyncio.run(allocate(time.time() - 3700)))
    assert refused.value.response.attributes["ERROR-CODE"][0] == 401
