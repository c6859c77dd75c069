"""Host and Origin checks (websockets are not covered by CORS) and security headers."""

import re
from collections.abc import Iterable

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names every server answers to, on any port: a visitor on the machine itself."""
_PORT = re.compile(r":[0-9]{1,5}")


def host_name(header: str) -> str | None:
    """The host a ``Host`` header names, lower case, without its port or IPv6 brackets;
    ``None`` for a header that is not a host (and port).

    >>> host_name("Example.org:8000"), host_name("[::1]:8000"), host_name("localhost.")
    ('example.org', '::1', 'localhost')
    >>> host_name("evil.example@localhost"), host_name("a:b"), host_name("")
    (None, None, None)
    """
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not _PORT.fullmatch(rest):
        return None
    name = name.rstrip(".")
    if not name or not re.fullmatch(r"[a-z0-9._:-]+", name):
        return None
    return name


def host_allowed(header: str, allowed: Iterable[str] = ()) -> bool:
    """Whether a request naming ``header`` as its ``Host`` is for this server: a loopback
    name, or one of ``allowed`` (``*``: any).

    >>> host_allowed("127.0.0.1:8000"), host_allowed("[::1]:1"), host_allowed("localhost")
    (True, True, True)
    >>> host_allowed("rebound.evil.example:8000"), host_allowed("karten.example", ["*"])
    (False, True)
    >>> host_allowed("Karten.Example:443", ["karten.example"])
    True
    """
    extra = tuple(allowed)
    if "*" in extra:
        return True
    name = host_name(header)
    return name is not None and (name in LOOPBACK_HOSTS or name in extra)


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
