"""The offices' phone, email and hours as the clerk keeps them on the web (knowledge/contacts.py checks and
applies them): each change with who entered it, when and why; undoing one withdraws it, never deletes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Engine

from knowledge import contacts

from . import clerk_edits as edits
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
        row = dict(office=e.office, phone=e.phone, email=e.email, hours=e.hours, reason=edits.one_line(reason),
                   entered_by=entered_by, created_at=now or utcnow(), withdrawn_by="", withdrawn_reason="",
                   legal_hold=False)
        return ContactChange(id=edits.add(self, s.contact_entries, town, row), town=town, **row)

    def withdraw_contact(self, *, town: str, change_id: int, withdrawn_by: str, reason: str = "",
                         now: datetime | None = None) -> bool:
        """Undo a change; the office's earlier values count again. False when there is no such change in force."""
        return edits.withdraw(self, s.contact_entries, town=town, change_id=change_id, withdrawn_by=withdrawn_by,
                              reason=reason, now=now)

    def contact_changes(self, town: str, in_force: bool = False) -> list[ContactChange]:
        """Every change entered for ``town``, oldest first (``in_force``: those not withdrawn)."""
        return edits.changes(self.engine, s.contact_entries, town, in_force, ContactChange)
