"""The offices' phone, email and hours as the clerk keeps them on the web (knowledge/contacts.py checks and
applies them): each change with who entered it, when and why; undoing one withdraws it, never deletes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine

from knowledge import contacts

from . import kept
from . import schema as s
from .clock import utcnow
from .engine import db_text


@dataclass(frozen=True)
class ContactChange:
    """One office's values as the clerk entered them, and its withdrawal if it was undone."""

    id: int
    town: str
    office: str
    phone: str
    email: str
    hours: str
    reason: str
    entered_by: str
    created_at: datetime
    withdrawn_at: datetime | None = None
    withdrawn_by: str = ""
    withdrawn_reason: str = ""
    legal_hold: bool = False

    @property
    def entry(self) -> contacts.ContactEntry:
        return contacts.ContactEntry(self.office, self.phone, self.email, self.hours)


class ContactBook:
    """The ``Store`` methods for the offices' contacts the clerk keeps."""

    engine: Engine

    def set_contact(self, *, town: str, office: str, phone: str = "", email: str = "", hours: str = "",
                    reason: str = "", entered_by: str, now: datetime | None = None) -> ContactChange:
        """Record an office's phone, email and hours (all three: a value left "" is not given); ValueError
        ("field: problem") when knowledge/contacts.py refuses them."""
        e = contacts.entry(office, db_text(phone or ""), db_text(email or ""), db_text(hours or ""))
        row = dict(town=town, office=e.office, phone=e.phone, email=e.email, hours=e.hours,
                   reason=db_text(" ".join((reason or "").split())), entered_by=entered_by,
                   created_at=now or utcnow(), withdrawn_by="", withdrawn_reason="", legal_hold=False)
        with self.engine.begin() as conn:
            new_id = conn.execute(insert(s.contact_entries).values(**row)).inserted_primary_key[0]
        kept.forget(self, town)
        return ContactChange(id=new_id, **row)

    def withdraw_contact(self, *, town: str, change_id: int, withdrawn_by: str, reason: str = "",
                         now: datetime | None = None) -> bool:
        """Undo a change; the office's earlier values count again. False when there is no such change in force."""
        t = s.contact_entries
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.id == change_id, t.c.town == town, t.c.withdrawn_at.is_(None))
                                .values(withdrawn_at=now or utcnow(), withdrawn_by=withdrawn_by,
                                        withdrawn_reason=db_text(" ".join((reason or "").split()))))
        kept.forget(self, town)
        return done.rowcount == 1

    def contact_changes(self, town: str, in_force: bool = False) -> list[ContactChange]:
        """Every change entered for ``town``, oldest first (``in_force``: those not withdrawn)."""
        t = s.contact_entries
        q = select(t).where(t.c.town == town)
        if in_force:
            q = q.where(t.c.withdrawn_at.is_(None))
        with self.engine.connect() as conn:
            return [ContactChange(**dict(r._mapping)) for r in conn.execute(q.order_by(t.c.id))]
