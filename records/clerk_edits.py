"""What the clerk's edits on the web (fees.py, contacts.py) share: a row per change, never edited; undoing one
stamps who withdrew it, when and why; each change is read again at once by the process that made it (kept.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Engine

from . import kept
from .clock import utcnow
from .engine import db_text


def one_line(text: str | None) -> str:
    return db_text(" ".join((text or "").split()))


def add(store, table: Table, town: str, row: dict) -> int:
    """Insert a change for ``town`` (``row`` without the withdrawal columns); its id."""
    with store.engine.begin() as conn:
        new_id = conn.execute(insert(table).values(town=town, **row)).inserted_primary_key[0]
    kept.forget(store, town)
    return new_id


def withdraw(store, table: Table, *, town: str, change_id: int, withdrawn_by: str, reason: str = "",
             now: datetime | None = None) -> bool:
    """Undo change ``change_id`` of ``town``; False when there is no such change in force."""
    t = table
    with store.engine.begin() as conn:
        done = conn.execute(update(t).where(t.c.id == change_id, t.c.town == town, t.c.withdrawn_at.is_(None))
                            .values(withdrawn_at=now or utcnow(), withdrawn_by=withdrawn_by,
                                    withdrawn_reason=one_line(reason)))
    kept.forget(store, town)
    return done.rowcount == 1


def changes(engine: Engine, table: Table, town: str, in_force: bool, make) -> list:
    """Every change of ``town``, oldest first, each made by ``make(**row)`` (``in_force``: not withdrawn)."""
    q = select(table).where(table.c.town == town)
    if in_force:
        q = q.where(table.c.withdrawn_at.is_(None))
    with engine.connect() as conn:
        return [make(**dict(r._mapping)) for r in conn.execute(q.order_by(table.c.id))]
