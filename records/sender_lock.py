"""One alert sender per town (records/alert_sender.py), whatever runs: a second sender started by mistake (two
hosts, `make run` beside a Procfile) waits instead of sending.

- PostgreSQL: a session-level advisory lock (``pg_try_advisory_lock``) on a connection the sender keeps for as
  long as it runs. The server releases it when that session ends (the process exits or is killed, its
  connection drops), and only then; a paused sender keeps it.
- SQLite: a row of ``sender_locks`` with the holder and an expiry on the database's clock, renewed by the sender
  as it works (before every alert, during a long look-up). A sender stopped longer than the lock's time
  (``ALERT_SENDER_LOCK_SECONDS``, 60 s) loses it, and a waiting sender may take over.

``acquire()`` takes the lock or keeps it (renewing the row), and says whether it is held now; the sender
calls it before every alert and again just before sending, and stops at once when it is lost. The claim of
each alert is fenced too (records/outbox.py ``claim_token``), so a sender that lost its lock or its claim
changes nothing it no longer owns.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
from datetime import timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from . import schema as s
from .engine import db_now
from .failure_log import describe

log = logging.getLogger(__name__)

DEFAULT_TTL = 60.0


def _advisory_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


class SenderLock:
    def __init__(self, engine: Engine, name: str, ttl: float = DEFAULT_TTL):
        self.engine, self.name, self.ttl = engine, name, ttl
        self.holder = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(6)}"
        self._conn = None  # PostgreSQL: the session that holds the advisory lock

    @property
    def postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def acquire(self) -> bool:
        """Take the lock, or keep (renew) it; True while this sender holds it."""
        try:
            return self._pg_acquire() if self.postgres else self._row_acquire()
        except DBAPIError as exc:  # the database is down or locked: not held (a round is skipped)
            log.warning("alert sender lock %s: %s", self.name, describe(exc))
            self._drop_pg()
            return False

    def release(self) -> None:
        try:
            if self.postgres:
                self._drop_pg()
            else:
                t = s.sender_locks
                with self.engine.begin() as conn:
                    conn.execute(delete(t).where(t.c.name == self.name, t.c.holder == self.holder))
        except DBAPIError as exc:
            log.warning("alert sender lock %s not released: %s", self.name, describe(exc))

    # -- PostgreSQL ----------------------------------------------------------------------------------

    def _pg_acquire(self) -> bool:
        if self._conn is not None:
            try:  # the session is alive, so its lock is still held
                self._conn.exec_driver_sql("SELECT 1").scalar()
                self._conn.commit()
                return True
            except DBAPIError:
                self._drop_pg()
        conn = self.engine.connect()
        try:
            got = conn.exec_driver_sql("SELECT pg_try_advisory_lock(%(k)s)", {"k": _advisory_key(self.name)}).scalar()
            conn.commit()
        except BaseException:
            conn.close()
            raise
        if not got:
            conn.close()
            return False
        self._conn = conn
        return True

    def _drop_pg(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.exec_driver_sql("SELECT pg_advisory_unlock(%(k)s)", {"k": _advisory_key(self.name)})
            conn.commit()
        except DBAPIError:
            pass
        finally:
            try:
                conn.invalidate()  # never back to the pool with any lock of this session
                conn.close()
            except DBAPIError:
                pass

    # -- SQLite (and any other database): a row with an expiry --------------------------------------

    def _row_acquire(self) -> bool:
        t = s.sender_locks
        with self.engine.begin() as conn:
            now = db_now(conn)
            until = now + timedelta(seconds=self.ttl)
            done = conn.execute(update(t).where(t.c.name == self.name,
                                                (t.c.holder == self.holder) | (t.c.expires_at <= now))
                                .values(holder=self.holder, expires_at=until))
            if done.rowcount == 1:
                return True
            if conn.execute(select(t.c.name).where(t.c.name == self.name)).first() is not None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(insert(t).values(name=self.name, holder=self.holder, expires_at=until))
            except IntegrityError:  # another sender inserted it first
                return False
        return True

    def holder_of(self) -> str | None:
        """Who holds the row now (SQLite), for messages and tests; None when free or on PostgreSQL."""
        if self.postgres:
            return None
        t = s.sender_locks
        with self.engine.connect() as conn:
            row = conn.execute(select(t.c.holder, t.c.expires_at).where(t.c.name == self.name)).first()
            return row.holder if row and row.expires_at > db_now(conn) else None
