"""SMS: inbound messages keyed by Twilio's MessageSid (a retried webhook gets the stored reply) and opt-outs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import schema as s
from . import settings
from .clock import utcnow
from .engine import db_text


@dataclass(frozen=True)
class InboundSMS:
    id: int
    message_sid: str
    from_: str
    to: str
    body: str
    reply: str | None
    created_at: datetime
    replied_at: datetime | None
    legal_hold: bool = False
    town: str = ""


def conversation_held(conn, conversation_id: str) -> bool:
    """Is the conversation under legal hold? (What is logged into it later is held too.)"""
    if not conversation_id:
        return False
    c = s.conversations
    return bool(conn.execute(select(c.c.legal_hold).where(c.c.id == conversation_id)).scalar())


def _sms(r) -> InboundSMS:
    return InboundSMS(id=r.id, message_sid=r.message_sid, from_=r.from_number, to=r.to_number, body=r.body,
                      reply=r.reply, created_at=r.created_at, replied_at=r.replied_at, legal_hold=r.legal_hold,
                      town=r.town)


class SMSMessages:
    """The ``Store`` methods for SMS messages and opt-outs."""

    engine: Engine

    def save_inbound_sms(self, message_sid: str, from_: str, to: str, body: str,
                         now: datetime | None = None, town: str | None = None,
                         conversation_id: str = "") -> tuple[InboundSMS, bool]:
        """Store an inbound message keyed by MessageSid, as the ``town``'s (default TOWN) and of its SMS
        conversation (held with it when the conversation is under legal hold); a retry returns the stored one
        and ``False``."""
        if not message_sid:
            raise ValueError("MessageSid is required")
        message_sid, from_, to, body, conversation_id = map(db_text, (message_sid, from_, to, body,
                                                                      conversation_id or ""))
        row = dict(message_sid=message_sid, from_number=from_ or "", to_number=to or "", body=body or "",
                   reply=None, created_at=now or utcnow(), replied_at=None, legal_hold=False,
                   town=settings.town() if town is None else town, conversation_id=conversation_id)
        try:
            with self.engine.begin() as conn:
                row["legal_hold"] = conversation_held(conn, conversation_id)
                conn.execute(insert(s.inbound_sms).values(**row))
            created = True
        except IntegrityError:
            created = False
        return self.get_inbound_sms(message_sid), created

    def get_inbound_sms(self, message_sid: str) -> InboundSMS | None:
        t = s.inbound_sms
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.message_sid == db_text(message_sid))).first()
        return _sms(r) if r else None

    def set_sms_reply(self, message_sid: str, reply: str, now: datetime | None = None) -> None:
        """Keep the reply we gave, so a retried webhook gets the same answer."""
        t = s.inbound_sms
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.message_sid == db_text(message_sid))
                         .values(reply=db_text(reply), replied_at=now or utcnow()))

    def list_inbound_sms(self, limit: int = 200, unanswered_only: bool = False,
                         town: str | None = None) -> list[InboundSMS]:
        """The newest inbound messages: of ``town`` (what a clerk sees), or of every town (None)."""
        t = s.inbound_sms
        q = select(t).order_by(t.c.id.desc()).limit(limit)
        if unanswered_only:
            q = q.where(t.c.reply.is_(None))
        if town is not None:
            q = q.where(t.c.town == town)
        with self.engine.connect() as conn:
            return [_sms(r) for r in conn.execute(q)]

    def set_sms_opt_out(self, phone: str, opted_out: bool, now: datetime | None = None) -> None:
        t = s.sms_opt_outs
        phone = db_text(phone)
        when = now or utcnow()
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.phone == phone).values(opted_out=opted_out, updated_at=when))
            if done.rowcount == 0:
                conn.execute(insert(t).values(phone=phone, opted_out=opted_out, updated_at=when))

    def sms_opted_out(self, phone: str) -> bool:
        t = s.sms_opt_outs
        with self.engine.connect() as conn:
            return bool(conn.execute(select(t.c.opted_out).where(t.c.phone == phone)).scalar())
