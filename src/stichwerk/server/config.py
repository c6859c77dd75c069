"""Server settings, read once from the environment (``STICHWERK_*``)."""

import os
from dataclasses import dataclass


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return default if raw in (None, "") else float(raw)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    return default if raw in (None, "") else raw.lower() in ("1", "true", "yes", "on")


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
    login_rate: float = 0.5
    """Login, register and guest requests per second per address (burst 10)."""
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

    @classmethod
    def from_env(cls) -> "Settings":
        """Settings from ``STICHWERK_*`` environment variables."""
        origins = tuple(
            o.strip() for o in os.environ.get("STICHWERK_ALLOWED_ORIGINS", "").split(",") if o
        )
        return cls(
            database_url=os.environ.get("STICHWERK_DATABASE_URL") or None,
            allowed_origins=origins,
            cookie_secure=_env_bool("STICHWERK_COOKIE_SECURE", False),
            bot_delay=_env_float("STICHWERK_BOT_DELAY", 0.7),
            bot_workers=_env_int("STICHWERK_BOT_WORKERS", 1),
            ws_rate=_env_float("STICHWERK_WS_RATE", 10.0),
            ws_burst=_env_float("STICHWERK_WS_BURST", 30.0),
            login_rate=_env_float("STICHWERK_LOGIN_RATE", 0.5),
            min_time_limit=_env_int("STICHWERK_MIN_TIME_LIMIT", 5),
            analysis_workers=_env_int("STICHWERK_ANALYSIS_WORKERS", 1),
            analysis_seconds=_env_float("STICHWERK_ANALYSIS_SECONDS", 0.3),
            analysis_worlds=_env_int("STICHWERK_ANALYSIS_WORLDS", 0) or None,
            analysis_threshold=_env_float("STICHWERK_ANALYSIS_THRESHOLD", 1.0),
        )
