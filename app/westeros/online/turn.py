"""The ICE servers (STUN and TURN) a browser uses for table voice (issue 39; docs/online.md
"Voice behind firewalls").

The URLs are configuration: ``westeros server --stun-url URL --turn-url URL --turn-secret S
--turn-ttl SECONDS`` (each option also an environment variable, ``SETTINGS``; the options
reach the workers as those variables, as the limits do). TURN credentials are never a fixed
password: each member gets, in its voice ``state`` message, a time-limited one of the TURN REST
scheme that coturn's ``use-auth-secret`` checks: username ``<expiry>:<lobby>:<seat>`` (expiry
in Unix seconds), credential ``base64(HMAC-SHA1(secret, username))``."""

from __future__ import annotations

import argparse
import base64
import dataclasses
import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

DEFAULT_TTL = 3600
"""Seconds a TURN credential lasts (a browser keeps an allocation it made with it)."""
SCHEMES = {"stun": ("stun:", "stuns:"), "turn": ("turn:", "turns:")}

SETTINGS: dict[str, tuple[str, str, str]] = {
    "stun_urls": ("WESTEROS_STUN_URLS", "--stun-url", "a STUN server (stun:host:port)"),
    "turn_urls": (
        "WESTEROS_TURN_URLS",
        "--turn-url",
        "a TURN server (turn:host:3478?transport=udp, turns:…)",
    ),
    "turn_secret": (
        "WESTEROS_TURN_SECRET",
        "--turn-secret",
        "the secret the TURN server shares (coturn static-auth-secret)",
    ),
    "turn_ttl": ("WESTEROS_TURN_TTL", "--turn-ttl", "seconds a TURN credential lasts"),
}
"""Each setting's environment variable (URLs: separated by spaces or commas), option and
meaning."""


@dataclasses.dataclass(frozen=True, slots=True)
class IceConfig:
    """The ICE servers this server hands out (none by default: people on one network reach
    each other directly)."""

    stun_urls: tuple[str, ...] = ()
    turn_urls: tuple[str, ...] = ()
    turn_secret: str = ""
    turn_ttl: int = DEFAULT_TTL

    def __post_init__(self) -> None:
        for kind, urls in (("stun", self.stun_urls), ("turn", self.turn_urls)):
            for url in urls:
                if not url.startswith(SCHEMES[kind]):
                    start = " or ".join(SCHEMES[kind])
                    raise ValueError(f"a {kind.upper()} URL starts with {start}, not {url!r}")
        if self.turn_urls and not self.turn_secret:
            raise ValueError("a TURN server needs its shared secret: give --turn-secret")
        if self.turn_ttl <= 0:
            raise ValueError(f"--turn-ttl must be above 0, not {self.turn_ttl}")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> IceConfig:
        """The ICE servers the environment sets; ValueError names a wrong setting."""

        def urls(name: str) -> tuple[str, ...]:
            return tuple(env.get(name, "").replace(",", " ").split())

        ttl = env.get(SETTINGS["turn_ttl"][0], "").strip()
        try:
            seconds = int(ttl) if ttl else DEFAULT_TTL
        except ValueError as exc:
            raise ValueError(f"--turn-ttl must be a whole number, not {ttl!r}") from exc
        return cls(
            stun_urls=urls(SETTINGS["stun_urls"][0]),
            turn_urls=urls(SETTINGS["turn_urls"][0]),
            turn_secret=env.get(SETTINGS["turn_secret"][0], ""),
            turn_ttl=seconds,
        )

    def env(self) -> dict[str, str]:
        """These settings as the environment variables ``from_env`` reads."""
        return {
            SETTINGS["stun_urls"][0]: " ".join(self.stun_urls),
            SETTINGS["turn_urls"][0]: " ".join(self.turn_urls),
            SETTINGS["turn_secret"][0]: self.turn_secret,
            SETTINGS["turn_ttl"][0]: str(self.turn_ttl),
        }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``westeros server`` options of ``SETTINGS`` (``from_options`` reads them)."""
    for field, (name, option, meaning) in SETTINGS.items():
        many = field.endswith("_urls")
        parser.add_argument(
            option,
            dest=f"ice_{field}",
            action="append" if many else "store",
            default=None,
            metavar="URL" if many else ("SECONDS" if field == "turn_ttl" else "SECRET"),
            help=f"{meaning}{' (repeatable)' if many else ''}; or {name}",
        )


def from_options(options: Mapping[str, object], env: Mapping[str, str]) -> IceConfig:
    """The ICE servers the ``add_arguments`` options give, else ``env``; ValueError names a
    setting that is wrong."""
    given: dict[str, str] = {}
    for field, (name, _, _) in SETTINGS.items():
        value = options.get(f"ice_{field}")
        if value is not None:
            given[name] = " ".join(value) if isinstance(value, list) else str(value)
    return IceConfig.from_env({**env, **given})


def credential(secret: str, username: str) -> str:
    """The TURN REST password of ``username``: base64(HMAC-SHA1(secret, username))."""
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def ice_servers(
    config: IceConfig | None, lobby_id: str, seat: str, now: float
) -> list[dict[str, Any]]:
    """The RTCPeerConnection ``iceServers`` for ``seat`` of ``lobby_id`` at ``now`` (Unix
    seconds): the STUN URLs, and the TURN URLs with a credential that expires
    ``turn_ttl`` seconds after ``now``."""
    if config is None:
        return []
    servers: list[dict[str, Any]] = []
    if config.stun_urls:
        servers.append({"urls": list(config.stun_urls)})
    if config.turn_urls:
        username = f"{int(now) + config.turn_ttl}:{lobby_id}:{seat}"
        servers.append(
            {
                "urls": list(config.turn_urls),
                "username": username,
                "credential": credential(config.turn_secret, username),
            }
        )
    return servers
