"""Turn notices of an anonymous table name no player (issue 40; docs/online-ui-followups.md):
at a running anonymous game, the e-mail (a real SMTP server), the Web Push payload (decrypted
with the subscription's keys), a player's own webhook and the game's webhook tell the house
and the game, never a person's name nor who sits where."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import wait_for
from .notices_helpers import Mailbox, Receiver, mailbox, notice_server, people, receiver, verify
from .notices_helpers import text as mail_text
from .ratings_helpers import houses
from .test_notices_push import Browser

BARATHEON, LANNISTER, STARK = houses(3)
NAMES = ("Alicent Hightower", "Bronn Blackwater")


@pytest.fixture
def box() -> Iterator[Mailbox]:
    with mailbox() as found:
        yield found


@pytest.fixture
def hooks() -> Iterator[Receiver]:
    with receiver(status=201) as found:
        yield found


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: Mailbox) -> Iterator[Any]:
    env = {
        **box.env(),
        "WESTEROS_VAPID_SUBJECT": "mailto:operator@westeros.test",
        "WESTEROS_NOTICE_TIMEOUT": "5",
    }
    with notice_server(tmp_path, monkeypatch, env) as found:
        yield found


def test_every_notice_of_a_running_anonymous_game_names_no_player(
    app: Any, box: Mailbox, hooks: Receiver
) -> None:
    make = people(app)
    alicent, bronn = (make(name) for name in NAMES)
    verify(bronn, box, "bronn@westeros.test")
    browser = Browser(hooks.url("/push/alicent"))
    assert alicent.post("/api/notices/push", browser.subscription()).status_code == 200
    for person, path in ((alicent, "/alicent"), (bronn, "/bronn")):
        assert person.post("/api/notices", {"webhook_url": hooks.url(path)}).status_code == 200

    created = alicent.post(
        "/api/lobbies",
        {
            "players": 3,
            "house": STARK,
            "open_houses": [STARK, LANNISTER],
            "anonymous": True,
            "grace_seconds": 3600,
        },
    ).json()
    lobby_id = created["lobby"]["id"]
    game_hook = {"url": hooks.url("/game")}
    assert alicent.post(f"/api/notices/games/{lobby_id}/webhook", game_hook).status_code == 200
    token = created["invites"][LANNISTER].split("#invite=", 1)[1]
    assert bronn.post("/api/join", {"invite": token}).status_code == 200
    assert bronn.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True}).status_code == 200
    started = alicent.post(f"/api/lobbies/{lobby_id}/start")
    assert started.status_code == 200, started.text
    game_id = started.json()["lobby"]["game_id"]

    mails = box.wait("bronn@westeros.test", 2)  # the address's link, then the turn
    wait_for(lambda: hooks.at("/push/alicent") and hooks.at("/alicent") and hooks.at("/bronn"))
    wait_for(lambda: len(_game_lines(hooks)) >= 2)  # both people are asked for orders
    assert app.state.notices.wait_idle(30)

    turn_mail = mails[-1]
    payload = browser.read(hooks.at("/push/alicent")[0][1])
    told = {
        "e-mail": f"{turn_mail['Subject']}\n{mail_text(turn_mail)}",
        "push": json.dumps(payload, ensure_ascii=False),
        **{
            path: "\n".join(body.decode() for _, body in hooks.at(path))
            for path in ("/alicent", "/bronn", "/game")
        },
    }
    print("what the notices told:", json.dumps(told, indent=1, ensure_ascii=False))
    for channel, said in told.items():
        for name in NAMES:
            for part in name.split():
                assert part not in said, f"{channel} names {part}: {said}"
        assert "Player of House" not in said, channel  # not even the label: the house is said
    assert f"/games/{game_id}/play/{LANNISTER}" in mail_text(turn_mail)
    assert payload["house"] == STARK and payload["game"] == game_id
    assert {"Stark", "Lannister"} <= {line.split(" ", 1)[0] for line in _game_lines(hooks)}


def _game_lines(hooks: Receiver) -> list[str]:
    """The lines of every message the game's webhook received."""
    return [
        line for _, body in hooks.at("/game") for line in json.loads(body)["content"].splitlines()
    ]
