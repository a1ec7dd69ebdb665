"""A chat flood over reconnecting sockets against a real ``westeros server --workers 2``
(issue 35, finding 15 and acceptance 3; finding 17's /watch chat). Chat allows ``BURST``
lines in a row, then one every ``REFILL_SECONDS``, counted per key or, for a spectator
without one, per network address (docs/online.md "Limits"): closing a socket and opening
another, on either worker, never fills the allowance again.

Two senders flood public chat mid-game, eight lines a socket, each socket closed once its
lines are answered and another opened: a spectator without a key from 127.0.0.2 (lobby and
/watch sockets), then a player with their key (seat and lobby sockets). Meanwhile the table
plays and two honest senders, a player and a spectator from another address, write a line
each. The test counts what the flooders' sockets showed back against the time it measured
itself, reads the store and every other socket of the table."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import pytest

from westeros.online.chat import BURST, REFILL_SECONDS

from .live import (
    FaultServer,
    Table,
    check_nothing_lost,
    check_views,
    rss_mb,
    seat_table,
    socket_worker,
    stored_chat,
    stored_count,
)

LINES_PER_SOCKET = 8
SOCKETS = 24  # per sender; more (up to MAX_SOCKETS) until both workers held some
MAX_SOCKETS = 40
ANSWER_S = 5.0  # the longest wait for the answer to one of a socket's lines
RATE_MARGIN = 1  # one line for the rounding of the test's clock against the server's
RSS_GROWTH_MB = 100.0
FLOOD_ADDRESS = "127.0.0.2"


@dataclasses.dataclass
class Flood:
    """What one flooding sender did, and the answers its own sockets got."""

    who: str
    sockets: int = 0
    workers: set[int] = dataclasses.field(default_factory=set)
    sent: list[str] = dataclasses.field(default_factory=list)
    accepted: dict[str, int] = dataclasses.field(default_factory=dict)  # text: chat id
    refused: dict[str, str] = dataclasses.field(default_factory=dict)  # text: error code
    started: float = 0.0
    ended: float = 0.0

    @property
    def elapsed(self) -> float:
        """Seconds from the first line sent to the last answer received (test's clock)."""
        return self.ended - self.started

    @property
    def allowed(self) -> float:
        """The most lines the documented rate lets through in ``elapsed``."""
        return BURST + self.elapsed / REFILL_SECONDS + RATE_MARGIN

    @property
    def unanswered(self) -> list[str]:
        return [t for t in self.sent if t not in self.accepted and t not in self.refused]

    def __str__(self) -> str:
        codes = sorted(set(self.refused.values()))
        return (
            f"{self.who}: {self.sockets} sockets opened on workers {sorted(self.workers)}, "
            f"{len(self.sent)} lines sent, {len(self.accepted)} accepted, "
            f"{len(self.refused)} refused {codes}, {len(self.unanswered)} unanswered, "
            f"in {self.elapsed:.1f} s (the rate allows {self.allowed:.1f})"
        )


def _answer(ws: Any, texts: list[str], flood: Flood) -> None:
    """Read ``ws`` until each of ``texts`` came back as a chat line or was refused (by its
    ``in_reply_to``), or ANSWER_S passed without an answer, or the server closed it."""
    waiting = set(texts)
    last = time.monotonic()
    while waiting and time.monotonic() - last < ANSWER_S:
        try:
            message = json.loads(ws.recv(timeout=0.2))
        except TimeoutError:
            continue
        except Exception as exc:  # websockets' ConnectionClosed
            if type(exc).__name__.startswith("Connection"):
                print(f"  {flood.who}: the server closed a socket ({exc})")
                return
            raise
        if message.get("type") == "chat" and message.get("text") in waiting:
            text = message["text"]
            flood.accepted[text] = int(message["id"])
        elif message.get("type") == "error" and message.get("in_reply_to") in waiting:
            text = message["in_reply_to"]
            flood.refused[text] = str(message.get("code"))
        else:
            continue
        waiting.discard(text)
        last = flood.ended = time.monotonic()


def _flood(
    table: Table,
    flood: Flood,
    paths: list[str],
    headers: dict[str, str],
    source: str,
    honest: list[Any],
) -> Flood:
    """Flood public chat over sockets opened in turn on ``paths`` (from ``source``, with
    ``headers``), each closed once its lines are answered; between two sockets the table
    reads and plays; halfway every client of ``honest`` writes one public line."""
    from websockets.sync.client import connect

    server = table.server
    while flood.sockets < MAX_SOCKETS and (flood.sockets < SOCKETS or len(flood.workers) < 2):
        with connect(
            f"{server.ws}{paths[flood.sockets % len(paths)]}",
            additional_headers=headers,
            source_address=(source, 0),
            open_timeout=30,
        ) as ws:
            worker = socket_worker(server, ws)
            if worker is not None:
                flood.workers.add(worker)
            texts = [f"{flood.who} floods {flood.sockets}.{n}" for n in range(LINES_PER_SOCKET)]
            flood.sockets += 1
            flood.started = flood.started or time.monotonic()
            for text in texts:
                ws.send(json.dumps({"type": "chat", "text": text, "id": text}))
            flood.sent += texts
            _answer(ws, texts, flood)
        if flood.sockets == SOCKETS // 2:
            for client in honest:
                client.say()
        for client in table.clients:
            client.pump(0.01)
    print(f"injected: {flood}")
    return flood


def _check_rate(flood: Flood, stored: dict[int, tuple[str, str | None, str | None]]) -> None:
    """The flood's lines in the store and those shown back stay within the rate; every
    line was answered, every refusal is the rate's; the sockets used both workers."""
    sent = set(flood.sent)
    kept = sum(1 for text, _, _ in stored.values() if text in sent)
    assert kept <= flood.allowed, (
        f"{flood.who}: {kept} lines stored, the rate allows {flood.allowed:.1f} "
        f"in {flood.elapsed:.1f} s"
    )
    assert len(flood.accepted) <= flood.allowed
    assert len(flood.accepted) >= BURST + int(flood.elapsed / REFILL_SECONDS / 2), str(flood)
    assert not flood.unanswered, f"never answered: {flood.unanswered[:5]}"
    assert set(flood.refused.values()) == {"chat/rate-limited"}, flood.refused
    assert len(flood.workers) == 2, f"{flood.who}'s sockets all on {flood.workers}"


@pytest.mark.slow
def test_a_chat_flood_over_reconnecting_sockets_keeps_the_rate_and_loses_nothing(
    database: tuple[str, str], services: tuple[str, str], fault_server: Any
) -> None:
    """Issue 35 finding 15 (M5: a spectator's chat limit was per socket; reconnecting let
    100 lines through in 6 s) and finding 17 (/watch sockets wrote chat they never
    received), acceptance 3: a keyless spectator, then a player with their key, flood public
    chat over sockets they keep closing and reopening on both workers. For each, the lines
    stored and shown back stay within 5 in a row then 1 a second of the time the test
    measured; every line is answered, shown back or refused ``chat/rate-limited``. The honest
    player's and another spectator's lines get through; the store holds exactly the
    acknowledged lines, and every socket of the table, seats and spectators, received
    exactly those; the game goes on (people's actions accepted after the flood), nothing
    accepted is lost, every socket shows its seat's view; the workers' memory stays bounded
    and the server logged no traceback."""
    server_url, reader = database
    server: FaultServer = fault_server(server_url, services[1], workers=2)
    table = seat_table(server, reader)
    try:
        table.play(actions=4)
        stark = table.answering[0]
        watcher = table.spectators[0]
        brynden = table.people["lannister"]
        before = {w: rss_mb(w) for w in server.workers()}
        held = {socket_worker(server, c.ws) or 0 for c in table.seats}
        print(f"seat sockets on workers {sorted(held)}")

        spectator = _flood(
            table,
            Flood("a spectator"),
            [f"/ws/lobbies/{table.lobby_id}", f"/ws/games/{table.game_id}/watch"],
            {},
            FLOOD_ADDRESS,
            [stark, watcher],
        )
        player = _flood(
            table,
            Flood("lannister"),
            [f"/ws/games/{table.game_id}/seats/lannister", f"/ws/lobbies/{table.lobby_id}"],
            {"x-westeros-key": brynden.key},
            "127.0.0.1",
            [stark],
        )
        after_flood = stored_count(reader, table.game_id)
        reached = table.play(actions=4)
        print(f"the game went on from action {after_flood} to {reached} after the flood")
        state = table.settle()
        table.pump(2.0)  # the last lines' way to every socket

        stored = stored_chat(reader, table.lobby_id)
        for flood in (spectator, player):
            _check_rate(flood, stored)
        honest = {text: (stark.house, i) for text, i in stark.acknowledged().items()}
        honest |= {text: (None, i) for text, i in watcher.acknowledged().items()}
        assert len(honest) == 3, f"the honest lines were held back: {stark}; {watcher}"
        acknowledged: dict[int, tuple[str, str | None, str | None]] = {
            i: (text, None, None) for text, i in spectator.accepted.items()
        }
        acknowledged |= {i: (text, "lannister", None) for text, i in player.accepted.items()}
        acknowledged |= {i: (text, house, None) for text, (house, i) in honest.items()}
        print(f"honest lines shown back: {sorted(honest)}; lines stored: {len(stored)}")
        extra = [stored[i] for i in set(stored) - set(acknowledged)]
        unlike = [
            (line, stored.get(i)) for i, line in acknowledged.items() if stored.get(i) != line
        ]
        assert not extra and not unlike, f"stored, not acknowledged: {extra}; not as sent: {unlike}"
        for client in table.clients:
            assert set(client.chat) == set(acknowledged), (
                f"{client.path}: missed {sorted(set(acknowledged) - set(client.chat))}, "
                f"extra {sorted(set(client.chat) - set(acknowledged))}"
            )

        late = [s for c in table.seats for s in c.accepted if s > after_flood]
        assert late, "no person's action was accepted after the flood"
        check_nothing_lost(table)
        check_views(table, state)
        for worker, rss in before.items():
            print(f"worker {worker}: {rss:.0f} MB before, {rss_mb(worker):.0f} MB after")
            assert rss_mb(worker) < rss + RSS_GROWTH_MB
        assert "Traceback" not in server.log(), server.log()[-3000:]
    finally:
        table.close()
