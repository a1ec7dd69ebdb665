"""Turn notices by Web Push (issue 40 acceptance 3; docs/online-notices.md): the server encrypts
each notice for the browser's subscription (RFC 8291, aes128gcm) and signs its request with the
VAPID key it made at first start (RFC 8292). The subscription's endpoint here is a local HTTP
receiver; the test decrypts what arrives with the subscription's own private key and auth
secret (http_ece), reads the game and the house, and checks the VAPID JWT with the public key
the server hands browsers."""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from westeros.online.notices.records import MAX_SUBSCRIPTIONS

from .helpers import start_game, wait_for
from .notices_helpers import Receiver, notice_server, people, receiver


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps of its push subscription: the key pair and the auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        """Decrypt a push message's body (RFC 8291) and read its JSON."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


def check_vapid(authorization: str, server_key: str, audience: str) -> dict[str, Any]:
    """The claims of a ``vapid t=…, k=…`` header, whose JWT (ES256) verifies with
    ``server_key``, the key the server hands browsers."""
    scheme, params = authorization.split(" ", 1)
    assert scheme.lower() == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # and not with another key
        other = ec.generate_private_key(ec.SECP256R1()).public_key()
        other.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    found: dict[str, Any] = json.loads(unb64(claims))
    assert found["aud"] == audience
    assert found["exp"] > time.time()
    return found


@pytest.fixture
def endpoint() -> Iterator[Receiver]:
    with receiver(status=201) as found:
        yield found


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    env = {"WESTEROS_VAPID_SUBJECT": "mailto:operator@westeros.test"}
    with notice_server(tmp_path, monkeypatch, env) as found:
        yield found


def test_the_push_is_encrypted_for_the_subscription_and_signed_by_the_stored_key(
    app: Any, endpoint: Receiver
) -> None:
    alice = people(app)("Alice")
    browser = Browser(endpoint.url("/push/alice-laptop"))
    reply = alice.post("/api/notices/push", browser.subscription())
    assert reply.status_code == 200, reply.text
    assert reply.json()["push"]["subscriptions"] == 1
    server_key = alice.client.get("/api/notices/push/key").json()["key"]
    assert server_key == reply.json()["push"]["key"]

    lobby = start_game(alice, [], grace_seconds=3600)
    wait_for(lambda: endpoint.at("/push/alice-laptop"))
    headers, body = endpoint.at("/push/alice-laptop")[0]
    print("push request headers:", sorted(headers))
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    assert b"Test table" not in body  # encrypted

    notice = browser.read(body)
    assert notice["game"] == lobby["game_id"]
    assert notice["lobby_name"] == "Test table"
    assert notice["house"] == "stark"
    assert notice["phase"] == "place_orders"
    assert notice["url"] == f"/games/{lobby['game_id']}/play/stark"
    claims = check_vapid(headers["authorization"], server_key, endpoint.url(""))
    assert claims["sub"] == "mailto:operator@westeros.test"

    stored = app.state.notices.store.key("vapid", lambda: "never made twice")
    assert app.state.notices.pusher.public_key == server_key
    assert stored.startswith("-----BEGIN PRIVATE KEY-----")


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(app: Any) -> None:
    bob = people(app)("Bob")
    with receiver(status=410) as gone:
        bob.post("/api/notices/push", Browser(gone.url("/push/old")).subscription())
        start_game(bob, [], grace_seconds=3600)
        wait_for(lambda: gone.at("/push/old"))
        wait_for(lambda: bob.client.get("/api/notices").json()["push"]["subscriptions"] == 0)


def test_a_subscription_must_be_one(app: Any) -> None:
    cara = people(app)("Cara")
    good = Browser("https://push.example.org/send/1").subscription()
    for wrong in (
        {**good, "endpoint": "ftp://push.example.org/1"},
        {**good, "keys": {"p256dh": "short", "auth": good["keys"]["auth"]}},
        {"endpoint": good["endpoint"]},
    ):
        reply = cara.post("/api/notices/push", wrong)
        assert reply.status_code == 400, wrong
        assert reply.json()["code"] == "online/notice-refused"
    assert cara.post("/api/notices/push", good).status_code == 200
    removed = cara.post("/api/notices/push/remove", {"endpoint": good["endpoint"]})
    assert removed.json()["push"]["subscriptions"] == 0


def test_a_player_keeps_only_their_latest_subscriptions(app: Any) -> None:
    """Each subscription is a URL the server calls for every notice: a player cannot pile
    them up; the oldest go (the latest browser keeps working)."""
    dan = people(app)("Dan")
    for n in range(MAX_SUBSCRIPTIONS + 3):
        endpoint = f"https://push.example.org/send/{n}"
        assert dan.post("/api/notices/push", Browser(endpoint).subscription()).status_code == 200
    assert dan.client.get("/api/notices").json()["push"]["subscriptions"] == MAX_SUBSCRIPTIONS
    latest = f"https://push.example.org/send/{MAX_SUBSCRIPTIONS + 2}"
    assert dan.post("/api/notices/push/remove", {"endpoint": latest}).status_code == 200
    oldest = dan.post("/api/notices/push/remove", {"endpoint": "https://push.example.org/send/0"})
    assert oldest.json()["push"]["subscriptions"] == MAX_SUBSCRIPTIONS - 1
