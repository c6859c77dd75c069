"""Opening the database: SQLite by default, PostgreSQL by URL, migrated on open.

SQLite on Python 3.11 needs care (see ``shared/research/platform.md`` §2): the driver's legacy
transaction handling is switched off so SQLAlchemy's ``BEGIN`` is real, writers take the lock
up front with ``BEGIN IMMEDIATE`` (a deferred writer that read first gets SQLITE_BUSY), and every
connection runs in WAL mode with foreign keys on. Readers use a second engine with plain ``BEGIN``
so they never wait for the writer.
"""

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

DEFAULT_URL = "sqlite:///var/stichwerk.db"
MIGRATIONS = Path(__file__).with_name("migrations")


def database_url() -> str:
    """The URL from ``STICHWERK_DATABASE_URL``, else the SQLite file under ``var/``."""
    return os.environ.get("STICHWERK_DATABASE_URL") or DEFAULT_URL


def normalise_url(url: str) -> str:
    """Let people write ``postgresql://``; we ship psycopg 3, not psycopg2.

    >>> normalise_url("postgresql://u:p@localhost/db")
    'postgresql+psycopg://u:p@localhost/db'
    >>> normalise_url("sqlite:///var/x.db")
    'sqlite:///var/x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_hooks(engine: Engine, begin: str) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)


class Database:
    """The engines of one database: ``write`` for transactions that write, ``read`` for reads."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or database_url())
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            if parsed.database and parsed.database != ":memory:":
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.write = create_engine(self.url, connect_args={"check_same_thread": False})
            _sqlite_hooks(self.write, "BEGIN IMMEDIATE")
            self.read = create_engine(self.url, connect_args={"check_same_thread": False})
            _sqlite_hooks(self.read, "BEGIN")
        else:
            self.write = create_engine(self.url, pool_size=10, max_overflow=20, pool_pre_ping=True)
            self.read = self.write

    def migrate(self) -> None:
        """Bring the schema to the newest migration (run at every start; a no-op when current)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.write.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.write.dispose()
        if self.read is not self.write:
            self.read.dispose()
