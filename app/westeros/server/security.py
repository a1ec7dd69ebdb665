"""The local core's front door (DESIGN §4): only this machine's own pages may talk to it.

Every HTTP request and WebSocket handshake must

1. carry a Host header naming ``127.0.0.1``, ``localhost`` or ``[::1]`` (and the core's port,
   when known) — a DNS-rebinding page sends its own host name and is refused (400);
2. carry the per-launch secret token, as the token cookie or as ``?token=`` (the first page
   load); a correct query token sets the cookie (HttpOnly, SameSite=Strict), so the page's own
   requests carry it from then on. A page loaded with ``?token=`` is redirected (303) to the
   same address without it, so the token stays in neither the address bar nor the history.
   The cookie is named for the core's port (``westeros_token_<port>``): cookies do not tell
   ports apart, and a second core must not overwrite the first one's. Missing or wrong
   token: 403;
3. for a WebSocket or any request that may change something (not GET/HEAD/OPTIONS), if the
   browser names an ``Origin``, come from the core's own origin (403 otherwise): another site
   can neither open a seat's socket nor post a form to the core.

A refused WebSocket handshake is closed before it completes (code 1008), which the server
answers with HTTP 403 whatever the reason.

Every HTTP response carries ``HEADERS``: a Content-Security-Policy allowing only the core's
own scripts, styles, images and sockets (no inline code; ``frame-ancestors 'none'``, so no
other page — another local port included — can frame a screen and click through it),
X-Frame-Options for older engines, a Referrer-Policy that sends no address to any other site
(``same-origin``: with ``no-referrer`` browsers send ``Origin: null`` on the core's own form
posts, which rule 3 refuses), and ``nosniff``."""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_COOKIE = "westeros_token"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("x-content-type-options", "nosniff"),
)
TOKEN_QUERY = "token"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
POLICY_VIOLATION = 1008


def token_cookie(port: int | None) -> str:
    """The token cookie's name for a core on ``port`` (unknown port: ``westeros_token``)."""
    return f"{TOKEN_COOKIE}_{port}" if port is not None else TOKEN_COOKIE


def split_host(host: str) -> tuple[str, int | None] | None:
    """(host name, port or None) of a Host header value, or None if it cannot be read."""
    try:
        parts = urlsplit(f"//{host}")
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if name is None:
        return None
    return (f"[{name}]" if ":" in name else name.lower()), port


class LocalOnly:
    """ASGI middleware enforcing the rules in the module docstring. ``port`` None accepts the
    local host names on any port (tests; the desktop shell passes its port)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str,
        port: int | None = None,
        hosts: Iterable[str] = LOCAL_HOSTS,
    ) -> None:
        if not token:
            raise ValueError("the local core needs a non-empty launch token")
        self.app = app
        self.token = token.encode()
        self.port = port
        self.hosts = tuple(hosts)
        self.cookie = token_cookie(port)

    # ------------------------------------------------------------------ checks
    def host_ok(self, host: str | None) -> bool:
        """Does the Host header name this machine (and port)?"""
        if not host:
            return False
        parsed = split_host(host)
        if parsed is None:
            return False
        name, port = parsed
        return name in self.hosts and (self.port is None or port == self.port)

    def origin_ok(self, origin: str | None) -> bool:
        """Is a browser-sent Origin (if any) the core's own?"""
        if origin is None:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False
        return self.host_ok(parts.netloc)

    def token_ok(self, candidate: str | None) -> bool:
        """Constant-time comparison with the launch token."""
        return candidate is not None and hmac.compare_digest(candidate.encode(), self.token)

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            send = self._with_headers(send)
        headers = Headers(scope=scope)
        if not self.host_ok(headers.get("host")):
            await self.deny(scope, receive, send, 400, "Invalid Host header")
            return
        unsafe = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if unsafe and not self.origin_ok(headers.get("origin")):
            await self.deny(scope, receive, send, 403, "Cross-origin request refused")
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        from_query = next((v for k, v in reversed(query) if k == TOKEN_QUERY), None)
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:
            cookie = SimpleCookie()
        morsel = cookie.get(self.cookie)
        from_cookie = morsel.value if morsel is not None else None
        query_ok = self.token_ok(from_query)
        if not (query_ok or self.token_ok(from_cookie)):
            await self.deny(scope, receive, send, 403, "Missing or wrong launch token")
            return
        if scope["type"] == "http" and query_ok:
            if scope.get("method", "GET") in ("GET", "HEAD"):
                await self._without_token(scope, receive, send, query)
                return
            if not self.token_ok(from_cookie):
                send = self._setting_cookie(send)
        await self.app(scope, receive, send)

    def _cookie_header(self) -> str:
        return f"{self.cookie}={self.token.decode()}; HttpOnly; SameSite=Strict; Path=/"

    async def _without_token(
        self, scope: Scope, receive: Receive, send: Send, query: list[tuple[str, str]]
    ) -> None:
        """Answer a page load with ``?token=``: set the cookie and send the browser to the
        same address without the token (303)."""
        rest = urlencode([(k, v) for k, v in query if k != TOKEN_QUERY])
        target = "/" + quote(scope.get("path", "/").lstrip("/")) + (f"?{rest}" if rest else "")
        response = RedirectResponse(target, status_code=303)
        response.headers.append("set-cookie", self._cookie_header())
        await response(scope, receive, send)

    def _setting_cookie(self, send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("set-cookie", self._cookie_header())
            await send(message)

        return wrapped

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS:
                    headers[name] = value
            await send(message)

        return wrapped

    @staticmethod
    async def deny(scope: Scope, receive: Receive, send: Send, status: int, text: str) -> None:
        """Refuse the request: an HTTP error, or for a WebSocket a close before the handshake
        completes (code 1008, policy violation), which servers answer with HTTP 403."""
        if scope["type"] == "http":
            await PlainTextResponse(text, status_code=status)(scope, receive, send)
            return
        await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": text})
