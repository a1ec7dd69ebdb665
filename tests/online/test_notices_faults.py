"""Failing notice channels never stall or break a game (issue 40; docs/online-notices.md):
an SMTP server that refuses every message, a push service that answers 500 and a webhook that
never answers. The game goes on (each decision is answered and the next one asked), every
channel is tried for each decision, and each failure is logged once, however often it fails;
a webhook that hangs holds up neither the e-mails nor the game."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from .helpers import start_game
from .notices_helpers import (
    mailbox,
    next_announced,
    notice_server,
    people,
    receiver,
    take_turn,
    verify,
)
from .test_notices_push import Browser

FAILED = "turn notices by %s failed (%s: %s); logged again once one goes through"


def _failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        str(r.args[0])
        for r in caplog.records
        if r.name == "westeros.online.notices" and r.msg == FAILED and isinstance(r.args, tuple)
    ]


def test_refusing_smtp_failing_push_and_a_hanging_webhook_leave_the_game_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="westeros.online.notices")
    with (
        mailbox() as box,
        receiver(hang=True) as hook,
        receiver(status=500) as push_service,
        notice_server(tmp_path, monkeypatch, {**box.env(), "WESTEROS_NOTICE_TIMEOUT": "1"}) as app,
    ):
        alice = people(app)("Alice")
        verify(alice, box, "alice@example.org")
        alice.post("/api/notices", {"webhook_url": hook.url("/hook")})
        alice.post("/api/notices/push", Browser(push_service.url("/push/1")).subscription())
        box.refuse = True
        print("injected: the SMTP server answers 554 to every message; the push service 500;")
        print("          the webhook never answers (the server waits 1 s)")

        game_id = start_game(alice, [], grace_seconds=3600)["game_id"]
        digest = None
        kinds = []
        for _ in range(3):
            digest = next_announced(app, game_id, "stark", digest)  # tried, and failed
            kinds.append(take_turn(alice, game_id, "stark"))  # the game goes on
        next_announced(app, game_id, "stark", digest)  # and asks again
        print("decisions answered meanwhile:", kinds)

        assert box.attempts >= 1 + 3 and len(box.to("alice@example.org")) == 1  # the link
        assert len(hook.at("/hook")) >= 3
        assert len(push_service.at("/push/1")) >= 3
        failures = _failures(caplog)
        print("logged:", failures)
        assert sorted(failures) == ["e-mail", "push", "webhook"]  # once each
        assert alice.client.get("/api/notices").json()["push"]["subscriptions"] == 1


def test_a_webhook_that_hangs_holds_up_neither_the_e_mails_nor_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"WESTEROS_NOTICE_TIMEOUT": "60"}  # longer than this test
    with (
        mailbox() as box,
        receiver(hang=True) as hook,
        notice_server(tmp_path, monkeypatch, {**box.env(), **env}) as app,
    ):
        alice = people(app)("Alice")
        verify(alice, box, "alice@example.org")
        alice.post("/api/notices", {"webhook_url": hook.url("/hook")})
        print("injected: the webhook never answers; the server would wait 60 s for it")
        game_id = start_game(alice, [], grace_seconds=3600)["game_id"]
        for count in (2, 3, 4):
            box.wait("alice@example.org", count)
            take_turn(alice, game_id, "stark")
        assert len(hook.at("/hook")) >= 3  # each still waiting for its answer
        assert not app.state.notices.wait_idle(0.1)
