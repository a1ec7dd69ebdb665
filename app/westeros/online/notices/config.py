"""How turn notices are sent (issue 40; docs/online-notices.md): environment variables only,
read once per worker (``NoticeConfig.from_env``).

E-mail needs an SMTP server (``WESTEROS_SMTP_HOST``; without it the server offers no e-mail);
Web Push needs nothing (its VAPID keys are made at first start, ``push``); webhooks need
nothing. Links in messages lead to ``WESTEROS_PUBLIC_URL``, else to the address the player
used when they saved their settings."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from urllib.parse import urlsplit

TLS_MODES = ("starttls", "tls", "none")
"""``starttls``: upgrade a plain connection (port 587); ``tls``: TLS from the first byte
(port 465); ``none``: no TLS (a relay on this machine only)."""
DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}

SETTINGS: dict[str, tuple[str, str]] = {
    "smtp_host": ("WESTEROS_SMTP_HOST", "the SMTP server (no e-mail notices without it)"),
    "smtp_port": ("WESTEROS_SMTP_PORT", "its port (default: 587, 465 for tls, 25 for none)"),
    "smtp_user": ("WESTEROS_SMTP_USER", "the user name to log in with (none: no login)"),
    "smtp_password": ("WESTEROS_SMTP_PASSWORD", "its password"),
    "smtp_from": ("WESTEROS_SMTP_FROM", "the sender address, e.g. Westeros <turns@example.org>"),
    "smtp_tls": ("WESTEROS_SMTP_TLS", "starttls (default), tls or none"),
    "smtp_timeout": ("WESTEROS_SMTP_TIMEOUT", "seconds one SMTP exchange may take (default 30)"),
    "public_url": ("WESTEROS_PUBLIC_URL", "the server's address in links, https://host[:port]"),
    "vapid_subject": (
        "WESTEROS_VAPID_SUBJECT",
        "the VAPID contact, mailto:… or https://… (default: mailto: the sender address)",
    ),
    "http_timeout": (
        "WESTEROS_NOTICE_TIMEOUT",
        "seconds one webhook or push request may take (default 10)",
    ),
    "private_targets": (
        "WESTEROS_NOTICE_PRIVATE_TARGETS",
        "1: webhooks and push endpoints may be http:// and on private or loopback addresses",
    ),
}
"""Each setting's environment variable and meaning."""


@dataclasses.dataclass(frozen=True, slots=True)
class NoticeConfig:
    """The notice settings of this server."""

    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = ""
    smtp_tls: str = "starttls"
    smtp_timeout: float = 30.0
    public_url: str = ""
    vapid_subject: str = ""
    http_timeout: float = 10.0
    private_targets: bool = False

    def __post_init__(self) -> None:
        if self.smtp_tls not in TLS_MODES:
            raise ValueError(f"WESTEROS_SMTP_TLS is one of {', '.join(TLS_MODES)}")
        if self.smtp_host and not self.smtp_from:
            raise ValueError("e-mail notices need a sender address: set WESTEROS_SMTP_FROM")
        if self.public_url and urlsplit(self.public_url).scheme not in ("http", "https"):
            raise ValueError("WESTEROS_PUBLIC_URL is an http:// or https:// address")
        if self.smtp_timeout <= 0 or self.http_timeout <= 0:
            raise ValueError("notice timeouts are above 0 seconds")

    @property
    def email(self) -> bool:
        """Can this server send e-mail?"""
        return bool(self.smtp_host)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> NoticeConfig:
        """The settings the environment gives; ValueError names a wrong one."""

        def get(name: str) -> str:
            return env.get(SETTINGS[name][0], "").strip()

        def number(name: str, default: float) -> float:
            raw = get(name)
            try:
                return float(raw) if raw else default
            except ValueError as exc:
                raise ValueError(f"{SETTINGS[name][0]} is a number, not {raw!r}") from exc

        tls = get("smtp_tls").lower() or "starttls"
        return cls(
            smtp_host=get("smtp_host"),
            smtp_port=int(number("smtp_port", DEFAULT_PORTS.get(tls, 587))),
            smtp_user=get("smtp_user"),
            smtp_password=env.get(SETTINGS["smtp_password"][0], ""),
            smtp_from=get("smtp_from"),
            smtp_tls=tls,
            smtp_timeout=number("smtp_timeout", 30.0),
            public_url=get("public_url").rstrip("/"),
            vapid_subject=get("vapid_subject"),
            http_timeout=number("http_timeout", 10.0),
            private_targets=get("private_targets").lower() in ("1", "true", "yes"),
        )
