"""The first thing every HTTP request meets, before anything reads or parses its body.

In this order, each refusal the app's JSON error with one line:

0. a ``Host`` the server does not answer to is refused (400), websockets too: a page of another
   site whose DNS name was rebound to this server names its own host (DNS rebinding), so it
   gets nothing, although its requests are "same-origin" to the browser;
1. a write (POST, PUT, ...) from another site's page is refused (403): CSRF;
2. logins, registrations, guest sign-ups and password changes are rate-limited per address
   (429), and so, more generously, is every other write to the API: a flood costs a dict
   look-up, not a body read;
3. an API write must say it sends JSON (415);
4. a body whose ``Content-Length`` is over the cap is refused (413) without reading a byte of
   it. A body sent without a length (chunked) is counted as it streams in: the chunk that
   crosses the cap raises a 413 inside the handler's body read, before anything is parsed (and
   the rest is never read);
5. a body that has not arrived whole within ``body_timeout`` seconds of its first read is
   refused (408) the same way: a sender that trickles a byte now and then holds nothing for
   long.

Every response, the refusals included, gets the security headers.

A websocket handshake meets the ``Host`` check, then the per-address handshake rate and the
cap on open websockets per address (``max_sockets_per_address``, counted here for every
websocket route while its scope lives). Over either limit it is accepted and closed at once
with 1013 (try again later), as documented: a refused handshake would reach the browser as
HTTP 403, which a client cannot tell from "no such table" or "revoked token".
"""

import asyncio
import re

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stichwerk.server.config import Settings
from stichwerk.server.errors import refusal_headers
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.security import SECURITY_HEADERS, host_allowed, origin_allowed

TRY_LATER = 1013
"""The websocket close code for "try again later" (RFC 6455 registry)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ACCOUNT_PATHS = frozenset({"/api/login", "/api/register", "/api/guest", "/api/password"})
"""Writes that cost an Argon2 hash or make an account: the per-address login limit."""
LARGE_BODIES: dict[str, int] = {
    r"/api/sheets/import": 1 << 20,
    r"/api/tournaments/import": 16 << 20,
    r"/api/tournaments/[^/]+/changes": 64 << 10,
    r"/api/tournaments/[^/]+/history": 2 << 20,
}
"""Paths (regular expressions matched whole) whose body may be larger than ``max_body``: a
whole list, a tournament's backup or a club's history to import, a director's registration of
a hall of players. Each has its own cap; the handler checks its exact limit."""
_LARGE = [(re.compile(pattern), cap) for pattern, cap in LARGE_BODIES.items()]
_LENGTH = re.compile(r"[0-9]{1,18}")
"""A ``Content-Length``: ASCII digits only (``"²".isdigit()`` is true, ``int("²")`` fails)."""


def client_key(scope: Scope) -> str:
    """The address a request comes from (the key of the per-address limits)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def send_denial(response: JSONResponse, send: Send) -> None:
    """Send ``response`` as the answer to a websocket handshake (ASGI's denial response)."""
    await send(
        {
            "type": "websocket.http.response.start",
            "status": response.status_code,
            "headers": response.raw_headers,
        }
    )
    await send({"type": "websocket.http.response.body", "body": response.body})


class Gate:
    """Pure ASGI middleware (no body buffering, no task per request)."""

    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        login_limiter: KeyedLimiter,
        write_limiter: KeyedLimiter,
        connect_limiter: KeyedLimiter,
    ) -> None:
        self.app = app
        self.settings = settings
        self.login_limiter = login_limiter
        self.write_limiter = write_limiter
        self.connect_limiter = connect_limiter
        self.sockets: dict[str, int] = {}
        """Open websockets per address."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refuse_host(scope) or self.refuse(scope)
        if refusal is not None:
            status, message = refusal
            headers = refusal_headers(status, message)
            response = JSONResponse({"error": message}, status_code=status, headers=headers)
            response.headers.update(SECURITY_HEADERS)
            if status == 413:
                # The rest of the body is not read: the connection cannot be kept.
                response.headers["connection"] = "close"
            await response(scope, receive, send)
            return

        cap = self.body_cap(scope)
        timeout = self.settings.body_timeout
        received = 0
        whole = False
        deadline: float | None = None

        async def counted() -> Message:
            nonlocal received, whole, deadline
            if whole:
                return await receive()  # the body is in: only the disconnect is left
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + timeout
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise HTTPException(
                    408, f"the request body did not arrive within {timeout:g} seconds"
                ) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    # FastAPI lets an HTTPException from the body read through to the app's
                    # error handler: the JSON 413.
                    raise HTTPException(413, f"the request body is over {cap} bytes")
                whole = not message.get("more_body", False)
            else:
                whole = True
            return message

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    if key not in headers:
                        headers[key] = value
            await send(message)

        await self.app(scope, counted, send_with_headers)

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A websocket handshake: the host, the rate and the cap, then the endpoint; the
        address's count of open websockets lasts as long as the socket."""
        refusal = self.refuse_host(scope)
        if refusal is not None:
            await receive()  # websocket.connect
            if "websocket.http.response" in scope.get("extensions", {}):
                status, message = refusal
                headers = refusal_headers(status, message)
                response = JSONResponse({"error": message}, status_code=status, headers=headers)
                response.headers.update(SECURITY_HEADERS)
                await send_denial(response, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        key = client_key(scope)
        cap = self.settings.max_sockets_per_address
        if not self.connect_limiter.take(key) or (cap and self.sockets.get(key, 0) >= cap):
            # Too many handshakes, or too many open websockets, from this address: try again
            # later (1013), before any endpoint looks up a session or a table. The close code
            # reaches a client only on an accepted socket.
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_LATER})
            return
        self.sockets[key] = self.sockets.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            held = self.sockets.get(key, 1) - 1
            if held > 0:
                self.sockets[key] = held
            else:
                self.sockets.pop(key, None)

    def refuse_host(self, scope: Scope) -> tuple[int, str] | None:
        """400 for a ``Host`` this server does not answer to (DNS rebinding)."""
        host = Headers(scope=scope).get("host")
        if host is None or host_allowed(host, self.settings.allowed_hosts):
            return None  # no Host (HTTP/1.0 from a script): no browser page sends that
        return 400, "unknown host; this server answers only to its own names"

    def body_cap(self, scope: Scope) -> int:
        """The most bytes a request's body may hold."""
        path = scope["path"]
        large = (cap for pattern, cap in _LARGE if pattern.fullmatch(path))
        return max(self.settings.max_body, next(large, 0))

    def refuse(self, scope: Scope) -> tuple[int, str] | None:
        """Why the request is refused before it reaches the app, if it is."""
        headers = Headers(scope=scope)
        method = scope["method"]
        path: str = scope["path"]
        if method not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not origin_allowed(
                origin, headers.get("host"), self.settings.allowed_origins
            ):
                return 403, "cross-site request refused"
            if path.startswith("/api/"):
                key = client_key(scope)
                limiter = self.login_limiter if path in ACCOUNT_PATHS else self.write_limiter
                if not limiter.take(key):
                    return 429, "too many attempts; wait a little"
                kind = headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json":
                    return 415, "send JSON (application/json)"
        lengths = headers.getlist("content-length")
        if lengths:
            if len(lengths) > 1 or not _LENGTH.fullmatch(lengths[0]):
                return 400, "a bad Content-Length"
            cap = self.body_cap(scope)
            if int(lengths[0]) > cap:
                return 413, f"the request body is over {cap} bytes"
        return None
