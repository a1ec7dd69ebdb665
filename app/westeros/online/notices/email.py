"""Turn notices by e-mail (issue 40; docs/online-notices.md), sent with aiosmtplib.

An address gets notices only once its player followed the link sent to it (``verify_link``:
a random token, stored only as its SHA-256 hash, good for VERIFY_HOURS). Every notice carries
a one-click unsubscribe link that needs no login, in its text and in the RFC 8058 headers
(``List-Unsubscribe`` with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``): a token that
is the player's id and an HMAC-SHA256, under the server's own secret (``records.NoticeStore.key``),
of their id and address, so that it stops only that address and needs nothing stored."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from email import errors
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote

import aiosmtplib

from .config import NoticeConfig

VERIFY_HOURS = 48
MAX_ADDRESS = 254
SECRET_KEY = "unsubscribe"


def clean_address(address: object) -> str:
    """An e-mail address as a person typed it, one ``user@domain`` as the standard library's
    parser reads it (ValueError otherwise); whether it is theirs, its link tells."""
    if not isinstance(address, str) or len(address.strip()) > MAX_ADDRESS:
        raise ValueError("this is not an e-mail address")
    try:
        parsed = Address(addr_spec=address.strip())
    except (ValueError, IndexError, errors.MessageError) as exc:
        raise ValueError("this is not an e-mail address") from exc
    if "." not in parsed.domain:
        raise ValueError("this is not an e-mail address")
    return parsed.addr_spec


def new_secret() -> str:
    """A fresh secret for unsubscribe links (hex, 256 bits)."""
    return secrets.token_hex(32)


def unsubscribe_token(secret: str, player_id: str, address: str) -> str:
    """The token of ``player_id``'s unsubscribe link for ``address``."""
    mac = hmac.new(secret.encode(), f"{player_id}\n{address}".encode(), hashlib.sha256)
    return f"{player_id}.{base64.urlsafe_b64encode(mac.digest()).decode().rstrip('=')}"


def token_player(secret: str, token: str, address_of: dict[str, str | None]) -> str | None:
    """The player an unsubscribe ``token`` is for, if it is right for their current address
    (``address_of``: player id → address, read by the caller)."""
    player_id = token.split(".", 1)[0]
    address = address_of.get(player_id)
    if not address:
        return None
    expected = unsubscribe_token(secret, player_id, address)
    return player_id if hmac.compare_digest(expected.encode(), token.encode()) else None


def link(base: str, path: str, token: str) -> str:
    """``base`` + ``path`` with ``?token=`` (URL-quoted)."""
    return f"{base}{path}?token={quote(token, safe='')}"


def message(
    config: NoticeConfig,
    to: str,
    subject: str,
    text: str,
    *,
    unsubscribe: str | None = None,
) -> EmailMessage:
    """An e-mail of plain text (UTF-8); with ``unsubscribe`` (the one-click URL that takes a
    POST), the RFC 8058 headers."""
    mail = EmailMessage()
    mail["From"] = config.smtp_from
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = make_msgid(domain=_domain(config.smtp_from))
    mail["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(text)
    return mail


def _domain(sender: str) -> str | None:
    found = re.search(r"@([^>\s]+)", sender)
    return found.group(1) if found else None


async def send(config: NoticeConfig, mail: EmailMessage) -> None:
    """Hand ``mail`` to the configured SMTP server (aiosmtplib's errors and timeouts rise)."""
    await aiosmtplib.send(
        mail,
        hostname=config.smtp_host,
        port=config.smtp_port,
        username=config.smtp_user or None,
        password=config.smtp_password or None,
        use_tls=config.smtp_tls == "tls",
        start_tls=config.smtp_tls == "starttls",
        timeout=config.smtp_timeout,
    )
