"""Rasa's SQL tracker store, configured from DATABASE_URL like the records store.

endpoints.yml names it (``type: bot.tracker_store.UrlSQLTrackerStore``). With DATABASE_URL unset it uses the
embedded SQLite file the records store defaults to (instance/assistant.db under the repository; Rasa's table
is ``events``); with ``postgresql://user:pass@host:5432/db`` it uses PostgreSQL.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from rasa.core.tracker_store import SQLTrackerStore
from sqlalchemy.engine.url import make_url

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SQLITE = REPO / "instance" / "assistant.db"


def sql_settings(url: str | None = None) -> dict[str, Any]:
    """SQLTrackerStore keyword arguments for a database URL (or DATABASE_URL, or the SQLite default)."""
    url = (url if url is not None else os.environ.get("DATABASE_URL", "")).strip()
    if not url:
        url = f"sqlite:///{DEFAULT_SQLITE}"
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


class UrlSQLTrackerStore(SQLTrackerStore):
    def __init__(self, domain=None, host: Optional[str] = None, event_broker=None, **kwargs: Any) -> None:
        settings = sql_settings()
        kwargs = {k: v for k, v in kwargs.items() if k not in settings}
        super().__init__(domain=domain, event_broker=event_broker, **settings, **kwargs)
