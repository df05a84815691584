"""Rasa's SQL tracker store, configured from DATABASE_URL like the records store.

endpoints.yml names it (``type: bot.tracker_store.UrlSQLTrackerStore``). With DATABASE_URL unset it uses the
embedded SQLite file the records store defaults to (instance/assistant.db under the repository; Rasa's table
is ``events``); with ``postgresql://user:pass@host:5432/db`` it uses PostgreSQL.

Same table, same rows and same durability as Rasa's SQLTrackerStore; the per-turn cost is lower (measured with
bench/bot_bench.py --probe: Rasa's store took ~14 ms of Rasa's ~43 ms CPU per turn, run on its event loop):

- SQLite: SQLAlchemy 1.4 gives a file database a NullPool, so Rasa opened a new connection (and re-read the
  schema) twice a turn. Here connections are pooled and each is set up like the records store's (WAL,
  ``synchronous=FULL`` -- a committed turn survives a power loss --, ``busy_timeout``).
- retrieve/save use two Core statements instead of ORM queries (ORM object loading, the ``count()`` subquery
  compiled per call); the rows written are the ones Rasa writes (sender_id, type_name, timestamp,
  intent_name, action_name, data), inserted in one transaction per turn.

Like the records store (records/engine.py): the engine never puts bound values (a resident's words) in its error
messages (``hide_parameters``), the SQLite file is created 0600 whichever process opens it first, and a turn
that meets a locked or busy database is retried (LOCKED_RETRIES, with waits) instead of dropped.
"""
from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any, Optional

import sqlalchemy as sa
from rasa.core.tracker_store import SQLTrackerStore, create_engine_kwargs
from rasa.shared.core.events import SessionStarted
from rasa.shared.core.trackers import DialogueStateTracker
from rasa.shared.nlu.constants import INTENT_NAME_KEY
from sqlalchemy.engine.url import make_url

from records.engine import _private_sqlite_file
from records.failure_log import describe
from records.settings import DEFAULT_DATABASE_URL, INSTANCE, REPO, database_url

log = logging.getLogger(__name__)

DEFAULT_SQLITE = INSTANCE / "assistant.db"
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA busy_timeout=5000")
#: Waits (seconds) before each retry of a turn whose save met a locked or busy database (after the driver's own
#: busy timeout): the turn is kept, not dropped, if the lock goes within about 5 x 5 s + 7 s.
LOCKED_RETRIES = (0.5, 1.5, 2.0, 3.0)
#: PostgreSQL: lock not available, serialization failure, deadlock
_PG_RETRY_CODES = {"55P03", "40001", "40P01"}


def _locked(exc: sa.exc.OperationalError) -> bool:
    orig = getattr(exc, "orig", None)
    if getattr(orig, "pgcode", None) in _PG_RETRY_CODES:
        return True
    text = str(orig).lower() if orig is not None else ""
    return "database is locked" in text or "database table is locked" in text or "busy" in text


def sql_settings(url: str | None = None) -> dict[str, Any]:
    """SQLTrackerStore keyword arguments for a database URL (or DATABASE_URL, or the SQLite default)."""
    url = (database_url() if url is None else url).strip() or DEFAULT_DATABASE_URL
    u = make_url(url)
    dialect = u.drivername
    if dialect.startswith("sqlite"):
        db = u.database or str(DEFAULT_SQLITE)
        if not Path(db).is_absolute():
            db = str(REPO / db)
        Path(db).parent.mkdir(parents=True, exist_ok=True)
        return {"dialect": "sqlite", "db": db}
    if dialect == "postgres":
        dialect = "postgresql"
    return {"dialect": dialect, "host": u.host, "port": u.port, "db": u.database, "username": u.username,
            "password": u.password, "query": dict(u.query) or None}


def _sqlite_pragmas(dbapi_connection, connection_record) -> None:  # noqa: ARG001 - SQLAlchemy event signature
    cur = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cur.execute(pragma)
    cur.close()


class UrlSQLTrackerStore(SQLTrackerStore):
    def __init__(self, domain=None, host: Optional[str] = None, event_broker=None, **kwargs: Any) -> None:
        settings = sql_settings()
        kwargs = {k: v for k, v in kwargs.items() if k not in settings}
        if settings["dialect"] == "sqlite":
            _private_sqlite_file(settings["db"])  # 0600 before Rasa's engine creates it (0644 under umask 022)
        super().__init__(domain=domain, event_broker=event_broker, **settings, **kwargs)
        # Rasa's engine has created the table; replace it with one that hides bound values in its errors (a
        # resident's address reached rasa.log with a locked database). SQLite: pooled (Rasa's NullPool opened a
        # connection per session), every connection with the pragmas.
        url = self.engine.url
        self.engine.dispose()
        if self.engine.dialect.name == "sqlite":
            self.engine = sa.create_engine(url, poolclass=sa.pool.QueuePool, pool_size=2, max_overflow=8,
                                           hide_parameters=True,
                                           connect_args={"check_same_thread": False, "timeout": 10})
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = sa.create_engine(url, hide_parameters=True, pool_pre_ping=True,
                                           **create_engine_kwargs(url))
        self.sessionmaker = sa.orm.session.sessionmaker(bind=self.engine)
        table = self.SQLEvent.__table__
        self._table = table
        c = table.c
        session_start = (sa.select(sa.func.max(c.timestamp))
                         .where(c.sender_id == sa.bindparam("sid"), c.type_name == SessionStarted.type_name)
                         .scalar_subquery())
        in_session = sa.or_(session_start.is_(None), c.timestamp >= session_start)
        self._q_events = sa.select(c.data).where(c.sender_id == sa.bindparam("sid"), in_session).order_by(c.id)
        self._q_count = sa.select(sa.func.count()).select_from(table).where(c.sender_id == sa.bindparam("sid"),
                                                                              in_session)
        self._q_events_all = sa.select(c.data).where(c.sender_id == sa.bindparam("sid")).order_by(c.id)

    async def _retrieve(self, sender_id: str, fetch_events_from_all_sessions: bool
                        ) -> Optional[DialogueStateTracker]:
        query = self._q_events_all if fetch_events_from_all_sessions else self._q_events
        with self.engine.connect() as conn:
            rows = conn.execute(query, {"sid": sender_id}).fetchall()
        events = [json.loads(data) for (data,) in rows]
        if self.domain and events:
            return DialogueStateTracker.from_dict(sender_id, events, self.domain.slots)
        return None

    async def save(self, tracker: DialogueStateTracker) -> None:
        """Append the events of the current session that are not stored yet (one transaction); a locked or busy
        database is retried (LOCKED_RETRIES) before the error is raised, which then carries no bound values."""
        await self.stream_events(tracker)
        for wait in (*LOCKED_RETRIES, None):
            try:
                return self._save(tracker)
            except sa.exc.OperationalError as exc:
                if wait is None or not _locked(exc):
                    raise
                log.warning("tracker store: the database is locked (%s); retrying the turn in %.1f s",
                            describe(exc), wait)
                await asyncio.sleep(wait)

    def _save(self, tracker: DialogueStateTracker) -> None:
        with self.engine.begin() as conn:
            stored = conn.execute(self._q_count, {"sid": tracker.sender_id}).scalar() or 0
            rows = []
            for i, event in enumerate(tracker.events):
                if i < stored:
                    continue
                data = event.as_dict()
                rows.append({"sender_id": tracker.sender_id, "type_name": event.type_name,
                             "timestamp": data.get("timestamp"),
                             "intent_name": data.get("parse_data", {}).get("intent", {}).get(INTENT_NAME_KEY),
                             "action_name": data.get("name"), "data": json.dumps(data)})
            if rows:
                conn.execute(self._table.insert(), rows)
