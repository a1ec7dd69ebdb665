"""Turn notices by e-mail (issue 40 acceptance 2; docs/online-notices.md), to a real SMTP server
the test runs (aiosmtpd): an address gets notices only once its link was followed; one e-mail
per new decision of its player, in the player's language, while their board is closed; a
one-click unsubscribe link that needs no login, in the text and in the RFC 8058 headers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros.online.notices.config import NoticeConfig
from westeros.online.notices.texts import TITLES

from .helpers import start_game
from .notices_helpers import (
    SENDER,
    Mailbox,
    links,
    mailbox,
    next_announced,
    notice_server,
    path_of,
    people,
    take_turn,
    text,
    verify,
)


@pytest.fixture
def box() -> Iterator[Mailbox]:
    with mailbox() as found:
        yield found


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: Mailbox) -> Iterator[Any]:
    with notice_server(tmp_path, monkeypatch, box.env()) as found:
        yield found


def test_one_email_per_decision_in_english_until_the_link_unsubscribes(
    app: Any, box: Mailbox
) -> None:
    alice = people(app)("Alice")
    verify(alice, box, "alice@example.org")
    lobby = start_game(alice, [], grace_seconds=3600)  # the other two seats: the AI's
    game_id = lobby["game_id"]

    decided: list[str] = []
    for count in (2, 3, 4):  # the link's e-mail, then one per decision
        mail = box.wait("alice@example.org", count)[-1]
        assert len(box.to("alice@example.org")) == count  # never two for one decision
        assert mail["Subject"] == "Your turn in “Test table”"
        assert mail["From"] == SENDER
        kind = take_turn(alice, game_id, "stark")  # the decision the e-mail names
        assert TITLES[kind] in text(mail), (kind, text(mail))
        assert f"/games/{game_id}/play/stark" in text(mail)
        decided.append(kind)
    assert decided[0] == "place_orders"

    last = box.wait("alice@example.org", 5)[-1]  # the decision after the third
    one_click = last["List-Unsubscribe"].strip("<>")
    assert last["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    page_link = next(u for u in links(last) if "/notices/unsubscribe?" in u)
    stranger = TestClient(app)  # no key, no cookie: the link is enough
    assert stranger.get(path_of(page_link)).status_code == 200
    token = page_link.split("token=", 1)[1]
    assert one_click.endswith(f"/api/notices/unsubscribe?token={token}")
    done = stranger.post(
        f"/api/notices/unsubscribe?token={token}", content=b"List-Unsubscribe=One-Click"
    )  # what the page's script posts, and a mail program too
    assert done.status_code == 200, done.text
    assert alice.client.get("/api/notices").json()["email"]["on"] is False

    before = app.state.notices.store.announced(game_id)["stark"]
    take_turn(alice, game_id, "stark")
    next_announced(app, game_id, "stark", before)  # a new decision, its notices done
    assert len(box.to("alice@example.org")) == 5  # and no e-mail for it


def test_a_chinese_player_gets_chinese_e_mail(app: Any, box: Mailbox) -> None:
    bo = people(app)("Bo")
    link_mail = verify(bo, box, "bo@example.org", language="zh_CN")
    assert link_mail["Subject"] == "确认接收维斯特洛回合通知的地址"
    start_game(bo, [], grace_seconds=3600)
    mail = box.wait("bo@example.org", 2)[-1]
    assert mail["Subject"] == "轮到你了：“Test table”"
    body = text(mail)
    assert "史塔克" in body and "下达命令" in body  # Stark, "Place your orders"
    assert "一键退订" in body


def test_no_email_to_an_address_whose_link_was_not_followed(app: Any, box: Mailbox) -> None:
    carl = people(app)("Carl")
    reply = carl.post("/api/notices/email", {"address": "carl@example.org"})
    assert reply.status_code == 200, reply.text
    link_mail = box.wait("carl@example.org", 1)[-1]
    lobby = start_game(carl, [], grace_seconds=3600)
    next_announced(app, lobby["game_id"], "stark", None)  # his decision, its notices done
    assert box.to("carl@example.org") == [link_mail]  # only the link

    page = carl.client.get(path_of(links(link_mail)[0]))  # the link still works
    assert 'data-testid="verified"' in page.text
    again = carl.client.get(path_of(links(link_mail)[0]))  # once
    assert 'data-testid="not-verified"' in again.text


def test_a_wrong_or_foreign_link_changes_nothing(app: Any, box: Mailbox) -> None:
    make = people(app)
    dana, eve = make("Dana"), make("Eve")
    verify(dana, box, "dana@example.org")
    verify(eve, box, "eve@example.org")
    start_game(dana, [], grace_seconds=3600)
    mail = box.wait("dana@example.org", 2)[-1]
    token = next(u for u in links(mail) if "/notices/unsubscribe?" in u).split("token=", 1)[1]
    player_id, mac = token.split(".", 1)
    stranger = TestClient(app)
    forged = f"{eve.id}.{mac}"  # Dana's signature on Eve's id
    assert stranger.post(f"/api/notices/unsubscribe?token={forged}").status_code == 404
    assert stranger.post("/api/notices/unsubscribe?token=nonsense").status_code == 404
    assert eve.client.get("/api/notices").json()["email"]["on"] is True
    assert dana.client.get("/api/notices").json()["email"]["on"] is True

    dana.post("/api/notices/email", {"address": "dana@elsewhere.org"})  # a new address
    assert player_id == dana.id
    stale = stranger.post(f"/api/notices/unsubscribe?token={token}")
    assert stale.status_code == 404  # the old address's link does not stop the new one


def test_a_verification_link_is_sent_at_most_once_a_minute(app: Any, box: Mailbox) -> None:
    fay = people(app)("Fay")
    assert fay.post("/api/notices/email", {"address": "fay@example.org"}).status_code == 200
    again = fay.post("/api/notices/email", {"address": "fay@example.org"})
    assert again.status_code == 429
    assert again.json()["code"] == "online/too-soon"
    bad = fay.post("/api/notices/email", {"address": "fay@example.org\r\nBcc: x@example.org"})
    assert bad.status_code == 400
    assert len(box.to("fay@example.org")) == 1


def test_the_smtp_settings_come_from_the_environment() -> None:
    config = NoticeConfig.from_env(
        {
            "WESTEROS_SMTP_HOST": "smtp.example.org",
            "WESTEROS_SMTP_TLS": "tls",
            "WESTEROS_SMTP_FROM": SENDER,
            "WESTEROS_SMTP_USER": "turns",
            "WESTEROS_SMTP_PASSWORD": " secret ",
            "WESTEROS_PUBLIC_URL": "https://westeros.example.org/",
        }
    )
    assert (config.smtp_port, config.smtp_password, config.email) == (465, " secret ", True)
    assert config.public_url == "https://westeros.example.org"
    assert NoticeConfig.from_env({}).email is False  # no host: no e-mail offered
    for wrong in (
        {"WESTEROS_SMTP_HOST": "smtp.example.org"},  # no sender
        {"WESTEROS_SMTP_TLS": "ssl3"},
        {"WESTEROS_SMTP_PORT": "five"},
        {"WESTEROS_PUBLIC_URL": "westeros.example.org"},
    ):
        with pytest.raises(ValueError):
            NoticeConfig.from_env(wrong)


def test_clearing_the_address_does_not_restart_the_minute(app: Any, box: Mailbox) -> None:
    """Clearing and setting the address again would otherwise send a link every time."""
    gil = people(app)("Gil")
    assert gil.post("/api/notices/email", {"address": "gil@example.org"}).status_code == 200
    assert gil.post("/api/notices/email", {"address": ""}).status_code == 200
    again = gil.post("/api/notices/email", {"address": "gil@example.org"})
    assert again.status_code == 429
    assert again.json()["code"] == "online/too-soon"
    assert len(box.to("gil@example.org")) == 1
