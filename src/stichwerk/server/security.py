"""Origin checks (websockets are not covered by CORS) and security headers."""

from collections.abc import Iterable


def origin_allowed(origin: str | None, host: str | None, extra: Iterable[str] = ()) -> bool:
    """Whether a request from page ``origin`` may act on this server at ``host``.

    A browser sends ``Origin`` with every websocket handshake and cross-site POST; a page of
    another site gets refused, so it cannot use a visitor's session cookie (CSWSH/CSRF).

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> origin_allowed("https://evil.example", "127.0.0.1:8000")
    False
    >>> origin_allowed(None, "127.0.0.1:8000")
    False
    """
    if not origin:
        return False
    if origin in extra:
        return True
    return host is not None and origin in (f"http://{host}", f"https://{host}")


SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
}
