"""Burn notifications (Dunkirk 7.09(3)): who burns where and when, under a reference read out to the resident."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import schema as s
from .clock import utcnow
from .engine import db_text
from .phones import textable_e164

#: Reference codes: no 0/O, 1/I/L, so a resident can read one out over the phone.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


@dataclass(frozen=True)
class BurnNotification:
    id: int
    reference: str
    town: str
    name: str
    address: str
    phone: str
    burn_date: date
    location: str
    approx_time: str
    channel: str
    conversation_id: str
    created_at: datetime
    legal_hold: bool = False
    idempotency_key: str | None = None
    phone_e164: str | None = None  # records/phones.py: a US number that can receive texts, else None


def burn_idempotency_key(conversation_id: str, town: str, name: str, address: str, phone: str, burn_date,
                         approx_time: str, location: str) -> str:
    """The key of one notification: the conversation and the six facts (normalised for spacing and case)."""
    parts = [conversation_id or "", town, name, address, phone, str(burn_date), approx_time or "", location or ""]
    canon = "\x1f".join(" ".join(str(p).split()).lower() for p in parts)
    return hashlib.sha256(canon.encode()).hexdigest()


def _town_prefix(town: str) -> str:
    known = {"dunkirk": "DK", "mequon": "MQ"}
    if town in known:
        return known[town]
    letters = [c for c in town.upper() if c.isalpha()]
    return ("".join(letters[:1] + letters[-1:]) or "XX")


class BurnNotifications:
    """The ``Store`` methods for burn notifications."""

    engine: Engine

    def add_burn_notification(self, *, town: str, name: str, address: str, phone: str, burn_date: date,
                              location: str = "", approx_time: str = "", channel: str = "web",
                              conversation_id: str = "", now: datetime | None = None,
                              idempotency_key: str | None = None) -> BurnNotification:
        """Store a notification under a new reference. With ``idempotency_key`` (see
        ``burn_idempotency_key``), a notification already stored under that key is returned instead of a
        second one: the resident's resend after a crash gets the reference of the first."""
        if isinstance(burn_date, datetime):
            burn_date = burn_date.date()
        if isinstance(burn_date, str):
            burn_date = date.fromisoformat(burn_date)
        name, address, phone, location, approx_time, conversation_id = map(
            db_text, (name, address, phone, location, approx_time, conversation_id))
        for label, value in (("town", town), ("name", name), ("address", address), ("phone", phone)):
            if not str(value or "").strip():
                raise ValueError(f"burn notification needs {label}")
        if idempotency_key:
            existing = self._burn_by_key(idempotency_key)
            if existing:
                return existing
        created = now or utcnow()
        row = dict(town=town, name=name.strip(), address=address.strip(), phone=phone.strip(),
                   burn_date=burn_date, location=(location or "").strip(), approx_time=(approx_time or "").strip(),
                   channel=channel, conversation_id=conversation_id or "", created_at=created, legal_hold=False,
                   idempotency_key=idempotency_key or None, phone_e164=textable_e164(phone))
        prefix = _town_prefix(town)
        for _ in range(20):
            ref = prefix + "-" + "".join(secrets.choice(ALPHABET) for _ in range(5))
            try:
                with self.engine.begin() as conn:
                    new_id = conn.execute(insert(s.burn_notifications).values(reference=ref, **row)).inserted_primary_key[0]
            except IntegrityError:
                if idempotency_key:  # the same notification, stored meanwhile by a concurrent submit
                    existing = self._burn_by_key(idempotency_key)
                    if existing:
                        return existing
                continue  # reference collision: draw again
            return BurnNotification(id=new_id, reference=ref, **row)
        raise RuntimeError("could not allocate a unique burn notification reference")

    def _burn_by_key(self, key: str) -> BurnNotification | None:
        return self._one_burn(s.burn_notifications.c.idempotency_key == key)

    def list_burn_notifications(self, town: str, from_date: date | None = None,
                                to_date: date | None = None) -> list[BurnNotification]:
        t = s.burn_notifications
        q = select(t).where(t.c.town == town)
        if from_date:
            q = q.where(t.c.burn_date >= from_date)
        if to_date:
            q = q.where(t.c.burn_date <= to_date)
        q = q.order_by(t.c.burn_date, t.c.created_at, t.c.id)
        with self.engine.connect() as conn:
            return [BurnNotification(**dict(r._mapping)) for r in conn.execute(q)]

    def get_burn_notification(self, reference: str) -> BurnNotification | None:
        return self._one_burn(s.burn_notifications.c.reference == reference.strip().upper())

    def _one_burn(self, condition) -> BurnNotification | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(s.burn_notifications).where(condition)).first()
        return BurnNotification(**dict(r._mapping)) if r else None
