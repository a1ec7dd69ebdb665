"""Turn notices by Web Push (issue 40; docs/online-notices.md).

The server's VAPID key pair (RFC 8292) is made at first start and stored in the database
(``records.NoticeStore.key``), so every worker signs with the same pair and browsers keep
their subscriptions across restarts. A payload is encrypted for the subscription's keys per
RFC 8291 (``aes128gcm``) and sent by pywebpush, which is synchronous: ``Pusher.send`` runs
in a thread, off the event loop. A subscription the push service says is gone (404, 410) is
forgotten."""

from __future__ import annotations

import base64
from typing import Any

import orjson
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from .records import Subscription
from .targets import check_host

TTL = 24 * 3600
"""Seconds a push service keeps a notice for a device that is offline."""
GONE = (404, 410)
VAPID_KEY = "vapid"


def new_vapid_pem() -> str:
    """A fresh VAPID private key (P-256), PEM."""
    vapid = Vapid()
    vapid.generate_keys()
    return bytes(vapid.private_pem()).decode()


class Gone(Exception):
    """The push service no longer knows this subscription."""


class Pusher:
    """Sends push messages signed with one VAPID key."""

    def __init__(self, pem: str, subject: str, timeout: float, *, private: bool) -> None:
        self.vapid = Vapid.from_pem(pem.encode())
        self.subject = subject
        self.timeout = timeout
        self.private = private

    @property
    def public_key(self) -> str:
        """The ``applicationServerKey`` a browser subscribes with (base64url, no padding)."""
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def send(self, subscription: Subscription, payload: dict[str, Any]) -> None:
        """Encrypt ``payload`` (JSON) for ``subscription`` and post it to its endpoint;
        blocking. Gone for a subscription that is no more; pywebpush's and requests' errors
        otherwise."""
        check_host(subscription.endpoint, private=self.private)
        try:
            webpush(
                subscription.info(),
                orjson.dumps(payload).decode(),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject},
                timeout=self.timeout,
                ttl=TTL,
            )
        except WebPushException as exc:
            if exc.response is not None and getattr(exc.response, "status_code", 0) in GONE:
                raise Gone(subscription.endpoint) from exc
            raise
