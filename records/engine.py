"""The database under the records: the SQLAlchemy engine and its settings, and the store's base class.

SQLite (the default) runs in WAL mode with ``synchronous=FULL``, foreign keys on and a 5 s busy timeout; every
record is written in its own transaction, so a record the resident was told about survives a crash or power
loss. ``DATABASE_URL`` switches to PostgreSQL (``postgresql://user:pass@host/db``; pre-ping on each checkout).

The records are personal data: a SQLite file (and its -wal and -shm) is readable by its owner only (0600), the
engine never puts bound values in its error messages (``hide_parameters``), and the URL is shown with its
password masked (``safe_url``).
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, insert, select, update
from sqlalchemy.engine import Engine, make_url

from . import schema as s
from . import settings

REPO = settings.REPO
DEFAULT_URL = settings.DEFAULT_DATABASE_URL
SQLITE_FILES = ("", "-wal", "-shm", "-journal")


def safe_url(url) -> str:
    """The database URL with its password masked, for messages and logs."""
    return make_url(str(url)).render_as_string(hide_password=True)


def _private_sqlite_file(path: str) -> None:
    """Create the database file 0600 before SQLite does (SQLite gives its -wal and -shm the main file's mode),
    and take group and other access away from files an older version made 0644."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for suffix in SQLITE_FILES:
        try:
            os.chmod(path + suffix, 0o600)
        except FileNotFoundError:
            pass


def _sqlite_pragmas(dbapi_connection, connection_record):  # noqa: ARG001 - SQLAlchemy event signature
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def make_engine(url: str) -> Engine:
    if url.startswith("postgres://"):  # Heroku-style URLs
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            _private_sqlite_file(path)
        engine = create_engine(url, future=True, hide_parameters=True,
                               connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, future=True, pool_pre_ping=True, hide_parameters=True)


def db_now(conn) -> datetime:
    """The database's clock, as an aware UTC datetime: the one clock every process that shares the database
    agrees on (PostgreSQL's server clock; for SQLite, a file on one host, that host's clock). Leases, retry
    times and the sender's lock are read and written against it, never against a host's own clock or a
    pinned ASSISTANT_NOW (records.clock), which would freeze them."""
    dialect = conn.dialect.name
    if dialect == "postgresql":
        value = conn.exec_driver_sql("SELECT clock_timestamp()").scalar()
    elif dialect == "sqlite":
        raw = conn.exec_driver_sql("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')").scalar()
        value = datetime.fromisoformat(raw).replace(tzinfo=timezone.utc)
    else:  # pragma: no cover - only the two databases are supported
        value = datetime.now(timezone.utc)
    return value.astimezone(timezone.utc)


def db_text(value):
    """Text as every database takes it: PostgreSQL refuses NUL in text, so it is stored as U+FFFD."""
    return value.replace("\x00", "\ufffd") if isinstance(value, str) else value


class Database:
    """The engine the record kinds share, opened (and migrated) once; thread-safe."""

    engine: Engine

    def __init__(self, url: str = DEFAULT_URL, create: bool = True):
        self.url = url
        self.engine = make_engine(url)
        if create:
            from .migrate import upgrade
            upgrade(self.engine)  # alembic: new databases get every table, older ones the missing changes

    @classmethod
    def from_env(cls):
        """``DATABASE_URL`` or ``sqlite:///instance/assistant.db`` under the repository root."""
        return cls(settings.database_url())

    def close(self) -> None:
        self.engine.dispose()

    def heartbeat(self, name: str, now: datetime | None = None) -> datetime:
        """A committed write (one row per process name): proves the database takes writes now (not locked,
        read-only or full). Raises the database's error otherwise. Stamped with the database's clock."""
        t = s.heartbeats
        with self.engine.begin() as conn:
            when = now or db_now(conn)
            done = conn.execute(update(t).where(t.c.name == name).values(at=when))
            if done.rowcount == 0:
                conn.execute(insert(t).values(name=name, at=when))
        return when

    def db_now(self) -> datetime:
        """The database's clock now (``db_now``)."""
        with self.engine.connect() as conn:
            return db_now(conn)

    def last_heartbeat(self, name: str) -> tuple[datetime | None, datetime]:
        """(the last heartbeat of ``name`` or None, the database's clock now): how long ago, by one clock."""
        t = s.heartbeats
        with self.engine.connect() as conn:
            return conn.execute(select(t.c.at).where(t.c.name == name)).scalar(), db_now(conn)

    def pragma(self, name: str) -> Any:
        """A SQLite PRAGMA's value on a pooled connection (for checks and tests)."""
        with self.engine.connect() as conn:
            return conn.exec_driver_sql(f"PRAGMA {name}").scalar()
