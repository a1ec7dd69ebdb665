"""Where a webhook or a push endpoint may lead (issue 40): a player gives the URL, and the
server posts to it, so it must not reach the server's own network.

A URL is ``https://`` with a host name and no user name or password; its host must resolve to
public addresses only, checked just before each request (``check_host``). A server for a LAN,
or a test, allows ``http://`` and private or loopback addresses with
``WESTEROS_NOTICE_PRIVATE_TARGETS=1``. (Not done: a name that resolves to a public address
for the check and to a private one for the request a moment later, DNS rebinding, is not
caught.)"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

MAX_URL = 500


def clean_url(url: object, *, private: bool) -> str:
    """A webhook or push endpoint URL as given, checked for its form (ValueError)."""
    if not isinstance(url, str) or not url.strip() or len(url.strip()) > MAX_URL:
        raise ValueError(f"a URL is 1 to {MAX_URL} characters")
    url = url.strip()
    try:
        parts = urlsplit(url)
        if parts.port == 0:
            raise ValueError("port 0")
    except ValueError as exc:  # urlsplit's own: a port out of range, a wrong IPv6 address
        raise ValueError("this is not a URL") from exc
    schemes = ("https", "http") if private else ("https",)
    if parts.scheme not in schemes:
        raise ValueError(f"the URL must start with {' or '.join(s + '://' for s in schemes)}")
    if not parts.hostname or parts.username or parts.password or not url.isprintable():
        raise ValueError("the URL needs a host name, and no user name or password")
    if any(c.isspace() for c in url):
        raise ValueError("a URL has no spaces")
    return url


def check_host(url: str, *, private: bool) -> None:
    """Refuse (ValueError) a URL whose host resolves to an address that is not public,
    unless ``private``; blocking (a name lookup): call it off the event loop."""
    if private:
        return
    host = urlsplit(url).hostname or ""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise ValueError(f"{host!r} cannot be resolved") from exc
    for info in found:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if not address.is_global:
            raise ValueError(f"{host!r} is a private address: notices go to public ones only")
