"""The address phones and other computers reach this server at (its public address).

A club director runs the server on a laptop and opens its pages at ``http://127.0.0.1:8000``;
no phone in the hall reaches that address. So every QR code, share link and printout is made
from the public address instead of the address the director's browser used:
``STICHWERK_PUBLIC_URL`` when set, else, for a server listening on every interface, the
machine's address in the local network (found at start-up without sending anything), else the
address it listens on. ``GET /api/address`` (``routers/pages.py``) tells a page that address
and whether the page itself was opened on a loopback address, so it can warn the director; a
route asks ``deps.public_origin`` for the address links are made of.
"""

import contextlib
import ipaddress
import socket
from urllib.parse import urlsplit

ALL_INTERFACES = frozenset({"", "0.0.0.0", "::", "[::]"})
"""What ``--host`` says to listen on every interface."""

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})

# Where a UDP "connect" asks the routing table for the local address, sending nothing: the
# default route first (TEST-NET-1), then the private ranges (a hall's network without a way
# to the internet has no default route but still a route to its own range).
_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, brackets allowed) names this machine only.

    >>> [is_loopback(h) for h in ("127.0.0.1", "[::1]", "LocalHost", "app.localhost", "10.0.0.7")]
    [True, True, True, True, False]
    """
    host = host.strip().strip("[]").lower().rstrip(".").split("%")[0]
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_of(host: str, port: int, scheme: str = "http") -> str:
    """``scheme://host:port`` with an IPv6 address in brackets and the scheme's own port left out.

    >>> url_of("192.168.1.5", 8000), url_of("::1", 80), url_of("[fd00::2]", 8443, "https")
    ('http://192.168.1.5:8000', 'http://[::1]', 'https://[fd00::2]:8443')
    """
    host = host.strip("[]")
    shown = f"[{host}]" if ":" in host else host
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{shown}" if port == default else f"{scheme}://{shown}:{port}"


def origin_of(url: str) -> str:
    """The origin (scheme, host, port) of an address, without a path or a trailing slash: the
    links are paths from the server's root.

    >>> origin_of("https://Karten.example:8443/lobby/")
    'https://karten.example:8443'
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) address with a host: {url!r}")
    port = parts.port or (443 if parts.scheme == "https" else 80)  # a bad port: ValueError
    return url_of(parts.hostname.lower(), port, parts.scheme)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", maxsplit=1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other computers may reach, best first: the one of the
    default route, then those of the private ranges' routes and of the host name; private
    (a club's or a home's network) before any other."""
    found: list[str] = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))  # a UDP connect only picks a route: nothing is sent
                found.append(str(udp.getsockname()[0]))
        except OSError:
            pass
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.extend(str(info[4][0]) for info in infos)
    usable = [a for a in dict.fromkeys(found) if _usable(a)]
    return sorted(usable, key=lambda a: not ipaddress.ip_address(a).is_private)


def public_url(bind: str, port: int, configured: str | None) -> str:
    """The address phones should use for a server started on ``bind``:``port``: the configured
    one, else on every interface the first LAN address (the loopback one if there is none),
    else the address it listens on."""
    if configured:
        return configured
    if bind in ALL_INTERFACES:
        found = lan_addresses()
        return url_of(found[0] if found else "127.0.0.1", port)
    return url_of(bind, port)


def startup_lines(bind: str, port: int, public: str) -> list[str]:
    """What the server prints at start: where to open it here, and where phones reach it (or
    why they cannot and what to do)."""
    here = url_of("127.0.0.1" if bind in ALL_INTERFACES else bind, port)
    lines = [f"Stichwerk: open {here} in your browser"]
    host = urlsplit(public).hostname or ""
    if is_loopback(host) and bind in ALL_INTERFACES:
        lines.append(
            "Stichwerk: this computer has no address in a network yet; phones reach the server "
            "once it joins one (start it again then) or at STICHWERK_PUBLIC_URL"
        )
    elif is_loopback(host):
        lines.append(
            "Stichwerk: only this computer reaches the server; for phones and other computers "
            "start it on every interface (--host 0.0.0.0, make run LISTEN=0.0.0.0) "
            "or set STICHWERK_PUBLIC_URL"
        )
    else:
        lines.append(f"Stichwerk: phones and other computers use {public} (links and QR codes)")
    return lines
