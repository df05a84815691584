"""Retention: the purge of records past their retention period (Wis. Stat. 19.21(4)(b): seven years unless a
schedule says otherwise), which never deletes a record under legal hold nor a town's order in force."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import MetaData, Table, and_, delete, func, insert, select, update
from sqlalchemy.engine import Engine

from . import failure_log
from . import schema as s
from .clock import utcnow
from .settings import DEFAULT_RETENTION_DAYS  # noqa: F401 - Wis. Stat. 19.21(4)(b): seven years


@dataclass
class PurgeResult:
    cutoff: datetime
    deleted: dict[str, int] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.deleted.values())


class Retention:
    """The ``Store`` methods for legal holds and the purge."""

    engine: Engine

    def set_legal_hold(self, table: str, record_id: int | str, hold: bool = True) -> bool:
        """Put a record (or take it) under legal hold: the purge never deletes it. ``table`` is one of
        ``schema.RETAINED``; ``record_id`` is the id (the reference for burn notifications, the MessageSid for
        SMS, the conversation id for a conversation — which holds its whole transcript and its inbound SMS, and
        what is logged into it later)."""
        t = s.RETAINED[table]
        with self.engine.begin() as conn:
            if table == "burn_notifications" and isinstance(record_id, str):
                cond = t.c.reference == record_id
            elif table == "inbound_sms" and isinstance(record_id, str):
                cond = t.c.message_sid == record_id
            else:
                cond = t.c.id == record_id
            n = conn.execute(update(t).where(cond).values(legal_hold=hold)).rowcount
            if table == "conversations":  # its transcript and its raw inbound SMS; later ones are held as logged
                conn.execute(update(s.transcript).where(s.transcript.c.conversation_id == record_id)
                             .values(legal_hold=hold))
                conn.execute(update(s.inbound_sms).where(s.inbound_sms.c.conversation_id == record_id)
                             .values(legal_hold=hold))
        return n > 0

    def purge(self, older_than_days: int = DEFAULT_RETENTION_DAYS, now: datetime | None = None) -> PurgeResult:
        """Delete records created more than ``older_than_days`` days before ``now`` that are not under legal
        hold. The newest burning-order row of each town (the order in force) is always kept."""
        if older_than_days < 0:
            raise ValueError("older_than_days must be >= 0")
        cutoff = (now or utcnow()) - timedelta(days=older_than_days)
        result = PurgeResult(cutoff=cutoff)
        with self.engine.begin() as conn:
            bo = s.burning_orders
            current_ids = [r[0] for r in conn.execute(select(func.max(bo.c.id)).group_by(bo.c.town))]
            held_conversations = select(s.conversations.c.id).where(s.conversations.c.legal_hold.is_(True))
            for name, t in s.RETAINED.items():
                old = t.c.created_at < cutoff
                cond = and_(old, t.c.legal_hold.is_(False))
                if t is bo and current_ids:
                    cond = and_(cond, bo.c.id.notin_(current_ids))
                if t is s.transcript or t is s.inbound_sms:  # whatever the row's own flag: its conversation's hold
                    cond = and_(cond, t.c.conversation_id.notin_(held_conversations))
                result.held[name] = conn.execute(
                    select(func.count()).select_from(t).where(and_(old, t.c.legal_hold.is_(True)))).scalar()
                result.deleted[name] = conn.execute(delete(t).where(cond)).rowcount
            self._purge_rasa_events(conn, cutoff, result)
        return result

    def purge_all(self, older_than_days: int = DEFAULT_RETENTION_DAYS, now: datetime | None = None) -> PurgeResult:
        """``purge`` and the same cutoff applied to the failure log outside the database (records/failure_log.py):
        what the purge commands and the daily scheduled purge run."""
        result = self.purge(older_than_days, now)
        result.deleted["failure_log"] = failure_log.purge(result.cutoff)
        result.held["failure_log"] = 0
        return result

    def claim_scheduled_purge(self, every: timedelta = timedelta(days=1), now: datetime | None = None) -> bool:
        """True for exactly one caller per period across processes: a compare-and-set on the ``purge`` row of
        the heartbeats table (its time is the last scheduled purge)."""
        t = s.heartbeats
        when = now or utcnow()
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(and_(t.c.name == "purge", t.c.at <= when - every)).values(at=when))
            if done.rowcount == 1:
                return True
            if conn.execute(select(t.c.at).where(t.c.name == "purge")).first() is not None:
                return False
            try:
                with conn.begin_nested():
                    conn.execute(insert(t).values(name="purge", at=when))
            except Exception:  # noqa: BLE001 - another process inserted it first
                return False
        return True

    def last_scheduled_purge(self) -> datetime | None:
        t = s.heartbeats
        with self.engine.connect() as conn:
            row = conn.execute(select(t.c.at).where(t.c.name == "purge")).first()
        return row[0] if row else None

    def _purge_rasa_events(self, conn, cutoff: datetime, result: PurgeResult) -> None:
        """Rasa's tracker store keeps each conversation's events in its own ``events`` table when it shares
        this database (the default). Old events go with the transcripts, except conversations on legal hold."""
        if not self.engine.dialect.has_table(conn, "events"):
            return
        events = Table("events", MetaData(), autoload_with=conn)
        held = select(s.conversations.c.id).where(s.conversations.c.legal_hold.is_(True))
        old = events.c.timestamp < cutoff.timestamp()
        result.held["rasa_events"] = conn.execute(
            select(func.count()).select_from(events).where(and_(old, events.c.sender_id.in_(held)))).scalar()
        result.deleted["rasa_events"] = conn.execute(
            delete(events).where(and_(old, events.c.sender_id.notin_(held)))).rowcount
