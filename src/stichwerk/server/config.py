"""Server settings, read once from the environment (``STICHWERK_*``)."""

import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from stichwerk.bots.base import bot_names
from stichwerk.games import game_names
from stichwerk.server.public import origin_of


class SettingError(ValueError):
    """A ``STICHWERK_*`` variable that cannot be read; the message is one line."""


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingError(f"{name} must be a number, not {raw!r}") from None
    if not math.isfinite(value) or value < 0:
        raise SettingError(f"{name} must be a finite number of at least 0, not {raw!r}")
    return value


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {raw!r}") from None
    if value < 0:
        raise SettingError(f"{name} must be at least 0, not {raw!r}")
    return value


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    return default if raw in (None, "") else raw.lower() in ("1", "true", "yes", "on")


EXTERNAL_NAME = re.compile(r"[a-z0-9_-]{1,24}")
EXTERNAL_PREFIX = "ext:"
"""Outside bots the operator configured are seated under ``ext:NAME``."""


@dataclass(frozen=True)
class ExternalSpec:
    """An outside bot program the server's operator configured (never typed by a web user):
    seated as ``ext:<name>``, run as ``command`` speaking the bot protocol."""

    name: str
    command: str
    time_limit: float = 5.0
    """Seconds per decision; a later answer loses the turn to ``fallback``."""
    startup_limit: float = 10.0
    fallback: str = "heuristic"
    games: tuple[str, ...] = ()
    """The games it plays (empty: every game)."""

    @property
    def bot_name(self) -> str:
        return f"{EXTERNAL_PREFIX}{self.name}"


def _seconds(value: Any, what: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingError(f"{what} must be a number of seconds")
    if not (0 < value <= 600) or not math.isfinite(value):
        raise SettingError(f"{what} must be more than 0 and at most 600 seconds")
    return float(value)


def load_external_bots(path: str) -> tuple[ExternalSpec, ...]:
    """The outside bots of the TOML file ``path`` (``STICHWERK_EXTERNAL_BOTS``)::

    [bots.firstlegal]
    command = "python3 /srv/bots/first_legal.py"
    time_limit = 5.0         # optional, seconds per decision
    startup_limit = 10.0     # optional, seconds to say ready
    fallback = "heuristic"   # optional, a built-in bot
    games = ["doppelkopf"]   # optional, default: every game
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingError(f"STICHWERK_EXTERNAL_BOTS: cannot read {path}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingError(f"STICHWERK_EXTERNAL_BOTS: {path} is not TOML: {exc}") from None
    bots = data.get("bots", {})
    unknown_top = set(data) - {"bots"}
    if unknown_top or not isinstance(bots, dict):
        raise SettingError(f"STICHWERK_EXTERNAL_BOTS: {path} holds only [bots.NAME] tables")
    specs = []
    for name, entry in bots.items():
        where = f"STICHWERK_EXTERNAL_BOTS: bots.{name}"
        if not EXTERNAL_NAME.fullmatch(name):
            raise SettingError(f"{where}: a name has 1 to 24 of a-z, 0-9, '-' and '_'")
        if not isinstance(entry, dict):
            raise SettingError(f"{where} must be a table")
        extra = set(entry) - {"command", "time_limit", "startup_limit", "fallback", "games"}
        if extra:
            raise SettingError(f"{where}: unknown key {sorted(extra)[0]!r}")
        command = entry.get("command")
        if not isinstance(command, str) or not command.strip():
            raise SettingError(f"{where}: command must name the program to run")
        fallback = entry.get("fallback", "heuristic")
        if fallback not in bot_names():
            raise SettingError(f"{where}: fallback must be one of {', '.join(bot_names())}")
        games = entry.get("games", [])
        if not isinstance(games, list) or any(g not in game_names() for g in games):
            raise SettingError(f"{where}: games must list some of {', '.join(game_names())}")
        specs.append(
            ExternalSpec(
                name=name,
                command=command,
                time_limit=_seconds(entry.get("time_limit"), f"{where}.time_limit", 5.0),
                startup_limit=_seconds(entry.get("startup_limit"), f"{where}.startup_limit", 10.0),
                fallback=fallback,
                games=tuple(games),
            )
        )
    return tuple(specs)


def host_of(url: str) -> str:
    """The host of ``url`` as a ``Host`` header names it, lower case, without port or brackets.

    >>> host_of("https://Karten.example:8443/x"), host_of("http://[::1]:8000")
    ('karten.example', '::1')
    """
    host = urlsplit(url).hostname
    if not host:
        raise SettingError(f"not an http(s) address with a host: {url!r}")
    return host.lower()


def _hosts_from_env(public_url: str | None) -> tuple[str, ...]:
    """``STICHWERK_ALLOWED_HOSTS`` (comma-separated) and the host of the public address (the
    one reading of ``STICHWERK_PUBLIC_URL``, :func:`_public_url_from_env`)."""
    hosts = [
        h.strip().lower().rstrip(".").strip("[]")
        for h in os.environ.get("STICHWERK_ALLOWED_HOSTS", "").split(",")
        if h.strip()
    ]
    if public_url:
        hosts.append(host_of(public_url))
    return tuple(dict.fromkeys(hosts))


def _public_url_from_env() -> str | None:
    """``STICHWERK_PUBLIC_URL`` as an origin (a path is left out: links are paths from the
    root), or a one-line error."""
    public = os.environ.get("STICHWERK_PUBLIC_URL", "").strip()
    try:
        return origin_of(public) if public else None
    except ValueError:
        raise SettingError(
            f"STICHWERK_PUBLIC_URL must be an http(s) address with a host, not {public!r}"
        ) from None


@dataclass(frozen=True)
class Settings:
    """What can be tuned without touching code."""

    database_url: str | None = None
    """``None``: ``STICHWERK_DATABASE_URL`` or the SQLite file under ``var/``."""
    allowed_origins: tuple[str, ...] = ()
    """Extra origins allowed to open websockets and post (the server's own is always allowed)."""
    cookie_secure: bool = False
    """Mark the session cookie ``Secure`` (behind HTTPS)."""
    bot_delay: float = 0.7
    """Seconds a bot waits before it acts, so people can follow the play."""
    bot_workers: int = 1
    """Processes that run bots off the event loop (0: a thread instead, for tests)."""
    ws_rate: float = 10.0
    """Websocket messages per second a connection may send on average ..."""
    ws_burst: float = 30.0
    """... and at once."""
    ws_max_message: int = 4096
    """Bytes of one client message."""
    ws_connect_rate: float = 5.0
    """Websocket handshakes (tables, bots, sheets, tournaments) per second per address, burst
    twelve times as many: a page that reconnects is never refused, a flood of handshakes is."""
    login_rate: float = 0.5
    """Login, register, guest and password requests per second per address (burst 10)."""
    write_rate: float = 20.0
    """Other writes to the API (POST, PUT) per second per address (burst 60)."""
    max_body: int = 16384
    body_timeout: float = 30.0
    """Seconds a request's whole body may take to arrive (a body that trickles in is refused
    with 408, so a slow sender cannot hold a connection and its handler for ever)."""
    """Bytes of one request body (every body the API takes is small JSON)."""
    min_time_limit: int = 5
    """Seconds: the smallest away limit a table may set."""
    analysis_workers: int = 1
    """Processes that run post-game analyses (0: a thread instead, for tests)."""
    analysis_seconds: float = 0.3
    """Search time per decision of a post-game analysis."""
    analysis_worlds: int | None = None
    """Sampled worlds per decision instead of a time budget (reproducible analyses)."""
    analysis_threshold: float = 1.0
    """Expected points lost above which a decision is marked a Fehler."""
    external_bots: tuple[ExternalSpec, ...] = ()
    """Outside bot programs the operator configured (``STICHWERK_EXTERNAL_BOTS``)."""
    bot_time_limit: float = 5.0
    """Seconds a bot account on the bot websocket has for a decision."""
    bot_connect_rate: float = 1.0
    """Bot websocket handshakes per second per address (burst 20)."""
    header_timeout: float = 10.0
    """Seconds a connection may take to send a request's head (request line and headers), and
    to begin its next request on a kept-alive connection, before the server closes it: a
    client that sends half a request line, or nothing, holds nothing for long (Slowloris)."""
    max_connections_per_address: int = 64
    """Open TCP connections one address may hold (websockets included); the next one is closed
    at once. 0: no cap (behind a proxy on the same machine every connection comes from the
    proxy's address: cap there, e.g. nginx ``limit_conn``)."""
    max_sockets_per_address: int = 32
    """Open websockets (tables, bots, sheets, tournaments) one address may hold; the next
    handshake is accepted and closed at once with 1013 (try again later). 0: no cap."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names (or addresses) a request's ``Host`` header may name besides the loopback
    names; ``*`` allows any (an operator whose proxy checks it). A page of another site that
    rebinds its DNS name to this server names its own host and is refused (400)."""
    bot_tables_per_account: int = 2
    """Tables without a person (every seat a bot or a bot account) one account may have running
    at once; guests may start none. 0: none for anyone."""
    bot_table_deals: int = 48
    """The longest list (ordinary deals) a table without a person may play."""
    idle_release: float = 300.0
    """Seconds a table's actor stays in memory with nobody connected and nothing to do (waiting
    for people, or at a person's turn with nobody there); then it is released and recovers
    from the event log when someone comes back."""
    public_url: str | None = None
    """The address phones and other computers reach the server at (``scheme://host[:port]``),
    which every QR code, share link and printout is made of: ``STICHWERK_PUBLIC_URL``, else
    what ``python -m stichwerk.server`` finds at start (:mod:`stichwerk.server.public`).
    ``None`` (a server made in code): the address each request came in on."""
    deal_seed: str | None = None
    """``None`` (always, in service): every deal is shuffled from the system's secure random
    source, so nobody can foresee a hand. A string seeds each table's deals (and its bots) from
    it and the deal's number instead: for tests and demonstrations that must replay the same
    cards. Set in code only; no environment variable reaches it."""

    @classmethod
    def from_env(cls) -> "Settings":
        """Settings from ``STICHWERK_*`` environment variables."""
        origins = tuple(
            o.strip() for o in os.environ.get("STICHWERK_ALLOWED_ORIGINS", "").split(",") if o
        )
        public_url = _public_url_from_env()
        return cls(
            database_url=os.environ.get("STICHWERK_DATABASE_URL") or None,
            allowed_origins=origins,
            cookie_secure=_env_bool("STICHWERK_COOKIE_SECURE", False),
            bot_delay=_env_float("STICHWERK_BOT_DELAY", 0.7),
            bot_workers=_env_int("STICHWERK_BOT_WORKERS", 1),
            ws_rate=_env_float("STICHWERK_WS_RATE", 10.0),
            ws_burst=_env_float("STICHWERK_WS_BURST", 30.0),
            ws_connect_rate=_env_float("STICHWERK_WS_CONNECT_RATE", 5.0),
            login_rate=_env_float("STICHWERK_LOGIN_RATE", 0.5),
            write_rate=_env_float("STICHWERK_WRITE_RATE", 20.0),
            max_body=_env_int("STICHWERK_MAX_BODY", 16384),
            body_timeout=_env_float("STICHWERK_BODY_TIMEOUT", 30.0),
            min_time_limit=_env_int("STICHWERK_MIN_TIME_LIMIT", 5),
            analysis_workers=_env_int("STICHWERK_ANALYSIS_WORKERS", 1),
            analysis_seconds=_env_float("STICHWERK_ANALYSIS_SECONDS", 0.3),
            analysis_worlds=_env_int("STICHWERK_ANALYSIS_WORLDS", 0) or None,
            analysis_threshold=_env_float("STICHWERK_ANALYSIS_THRESHOLD", 1.0),
            external_bots=load_external_bots(os.environ["STICHWERK_EXTERNAL_BOTS"])
            if os.environ.get("STICHWERK_EXTERNAL_BOTS")
            else (),
            bot_time_limit=_seconds(
                _env_float("STICHWERK_BOT_TIME_LIMIT", 5.0), "STICHWERK_BOT_TIME_LIMIT", 5.0
            ),
            bot_connect_rate=_env_float("STICHWERK_BOT_CONNECT_RATE", 1.0),
            header_timeout=_env_float("STICHWERK_HEADER_TIMEOUT", 10.0),
            max_connections_per_address=_env_int("STICHWERK_MAX_CONNECTIONS_PER_ADDRESS", 64),
            max_sockets_per_address=_env_int("STICHWERK_MAX_SOCKETS_PER_ADDRESS", 32),
            allowed_hosts=_hosts_from_env(public_url),
            bot_tables_per_account=_env_int("STICHWERK_BOT_TABLES_PER_ACCOUNT", 2),
            bot_table_deals=_env_int("STICHWERK_BOT_TABLE_DEALS", 48),
            idle_release=_env_float("STICHWERK_IDLE_RELEASE", 300.0),
            public_url=public_url,
        )
