"""The fee schedule the clerk keeps on the web (knowledge/fee_schedule.py checks and applies it): amounts set,
each with who entered it, when and why; undoing one withdraws it, never deletes it. Every process reads the
entries in force when it answers (records/kept.py), so a change takes effect without a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy.engine import Engine

from knowledge import fee_schedule
from knowledge.model import Town

from . import clerk_edits as edits
from . import schema as s
from .clock import utcnow
from .engine import db_text


@dataclass(frozen=True)
class FeeChange:
    """One amount the clerk entered, and its withdrawal if it was undone."""

    id: int
    town: str
    parameter: str
    amount_cents: int
    since: date
    source: str
    reason: str
    entered_by: str
    created_at: datetime
    withdrawn_at: datetime | None = None
    withdrawn_by: str = ""
    withdrawn_reason: str = ""
    legal_hold: bool = False

    @property
    def entry(self) -> fee_schedule.FeeEntry:
        return fee_schedule.FeeEntry(self.parameter, self.amount_cents / 100, self.since, self.source)


class FeeSchedule:
    """The ``Store`` methods for the clerk's fee schedule."""

    engine: Engine

    def set_fee(self, *, town: Town, parameter: str, value, since: date, source: str, reason: str = "",
                entered_by: str, now: datetime | None = None) -> FeeChange:
        """Record an amount; ValueError ("field: problem") when knowledge/fee_schedule.py refuses it."""
        e = fee_schedule.entry(town.parameters, parameter, value, since, db_text(source))
        row = dict(parameter=e.parameter, amount_cents=round(e.value * 100), since=e.since, source=e.source,
                   reason=edits.one_line(reason), entered_by=entered_by, created_at=now or utcnow(),
                   withdrawn_by="", withdrawn_reason="", legal_hold=False)
        return FeeChange(id=edits.add(self, s.fee_entries, town.key, row), town=town.key, **row)

    def withdraw_fee(self, *, town: str, change_id: int, withdrawn_by: str, reason: str = "",
                     now: datetime | None = None) -> bool:
        """Undo an amount the clerk entered; False when there is no such entry in force for ``town``."""
        return edits.withdraw(self, s.fee_entries, town=town, change_id=change_id, withdrawn_by=withdrawn_by,
                              reason=reason, now=now)

    def fee_changes(self, town: str, in_force: bool = False) -> list[FeeChange]:
        """Every amount entered for ``town``, oldest first (``in_force``: those not withdrawn)."""
        return edits.changes(self.engine, s.fee_entries, town, in_force, FeeChange)
