"""The SMS outbox (#14): texts the town owes about a no-burning order, queued in the same transaction as the
order, so an order is never recorded without its alerts nor an alert queued for an order that was not.

    kind "order"   a notifier whose burn day an order (recorded or extended) now covers: "may not go ahead"
    kind "lifted"  a notifier told "order" whose day a lift (or a shorter superseding order) freed wholly
    kind "fire"    the Fire Department's copy of every change of an order (Dunkirk 7.09(4) "it will notify the
                   Fire Department"): recorded, extended, lifted, superseded by a new order. Each says the
                   order's dates as they now are; a queued one the next change of the same order made stale is
                   superseded (never sent), so the department's latest text about an order is the true one.

Each alert's ``key`` (order + notification + kind) is unique in the table: queuing the same alert again (an
extension over days already told, a retried request) adds nothing. Opted-out numbers, numbers that are not a US
number able to receive texts (records/phones.py), and alerts past a number's daily cap are kept as rows the
sender never sends (state ``opted_out`` / ``no_number`` / ``capped``) so the clerk can call.
The sender's side (claim, reconcile, record) is records/alert_sender.py; docs/reliability.md says why no
alert is lost or sent twice.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Callable

import phonenumbers
from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from . import schema as s
from .burns import BurnNotification
from .clock import utcnow
from .engine import db_now
from .phones import alerts_per_number_per_day, textable_e164

#: Sender states that end an alert; "sent" is followed by Twilio's delivery status in ``delivery``.
NOT_SENDABLE = ("opted_out", "no_number", "capped")  # capped: the number's daily cap (records/phones.py)
#: never sent because a later change made it untrue before its turn (Outbox.alert_still_true)
SUPERSEDED = "superseded"
DELIVERY_STATES = ("delivered", "failed", "undelivered")

#: compose(kind, order, notification or None, moment) -> the text; ``moment`` is the lift time for "lifted".
Composer = Callable[[str, object, "BurnNotification | None", "datetime | None"], str]


@dataclass(frozen=True)
class AlertPlan:
    """What the order methods need to queue alerts: the town's time zone (burn days are town days), today
    (no alert for a day gone by), the text composer, and the Fire Department's SMS number ("" = none)."""
    tz: tzinfo
    today: date
    compose: Composer
    fire_number: str = ""


@dataclass(frozen=True)
class Alert:
    id: int
    key: str
    town: str
    order_id: int
    notification_id: int | None
    kind: str
    to_number: str
    body: str
    state: str
    uncertain: bool
    attempts: int
    next_attempt_at: datetime
    claimed_until: datetime | None
    message_sid: str | None
    delivery: str
    error: str
    created_at: datetime
    sent_at: datetime | None
    legal_hold: bool = False
    claim_token: str | None = None
    queued_at: datetime | None = None


def alert_key(order_id: int, kind: str, notification_id: int | None = None) -> str:
    return f"order:{order_id}:{'notification:' + str(notification_id) if notification_id else 'fire'}:{kind}"


def e164(phone: str) -> str | None:
    """The number in E.164 (US by default), or None when it is not a possible number."""
    try:
        n = phonenumbers.parse((phone or "").strip(), "US")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(n):
        return None
    return phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)


def _day_span(day: date, tz: tzinfo) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time(0), tzinfo=tz)
    return start, datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)


def _opted_out(conn: Connection, *numbers: str) -> bool:
    t = s.sms_opt_outs
    found = conn.execute(select(t.c.opted_out).where(t.c.phone.in_([n for n in numbers if n]))).scalars().all()
    return any(found)


def _texts_today(conn: Connection, number: str, now: datetime) -> int:
    """Alerts to notifiers at ``number`` queued in the last 24 hours (the database's clock) that are or may be
    sent (any town: the cap is the number's)."""
    t = s.sms_alerts
    return conn.execute(select(func.count()).select_from(t).where(
        t.c.to_number == number, t.c.notification_id.isnot(None), t.c.state.in_(("queued", "sending", "sent")),
        t.c.queued_at >= now - timedelta(days=1))).scalar() or 0


def _queue(conn: Connection, town: str, order_id: int, kind: str, raw_phone: str, body: str,
           notification_id: int | None, now: datetime, key: str | None = None) -> bool:
    """Insert one alert unless its key is there already; True when a row was added. Due at once by the
    database's clock (``now``, the records' clock, is only its created_at: a pinned ASSISTANT_NOW in the future
    must not hold it back)."""
    key = key or alert_key(order_id, kind, notification_id)
    t = s.sms_alerts
    if conn.execute(select(t.c.id).where(t.c.key == key)).first():
        return False
    queued = db_now(conn)
    # a notifier only on a US number that can receive texts (records/phones.py), at most so many a day
    number = e164(raw_phone) if notification_id is None else textable_e164(raw_phone)
    if number is None:
        state = "no_number"
    elif _opted_out(conn, number, raw_phone):
        state = "opted_out"
    elif notification_id is not None and _texts_today(conn, number, queued) >= alerts_per_number_per_day():
        state = "capped"
    else:
        state = "queued"
    conn.execute(insert(t).values(key=key, town=town, order_id=order_id, notification_id=notification_id,
                                  kind=kind, to_number=number or (raw_phone or "")[:40], body=body, state=state,
                                  uncertain=False, attempts=0, next_attempt_at=queued, claimed_until=None,
                                  message_sid=None, delivery="", error="", created_at=now, sent_at=None,
                                  legal_hold=False, claim_token=None, queued_at=queued))
    return True


def _notifications(conn: Connection, town: str, first: date, last: date | None) -> list[BurnNotification]:
    t = s.burn_notifications
    q = select(t).where(t.c.town == town, t.c.burn_date >= first)
    if last is not None:
        q = q.where(t.c.burn_date <= last)
    return [BurnNotification(**dict(r._mapping)) for r in conn.execute(q.order_by(t.c.burn_date, t.c.id))]


def _covering(conn: Connection, town: str, day: date, tz: tzinfo):
    """The orders with any time in force on ``day`` (town time)."""
    o = s.no_burning_orders
    a, b = _day_span(day, tz)
    return conn.execute(select(o).where(o.c.town == town, o.c.start_at < b,
                                        or_(o.c.end_at.is_(None), o.c.end_at > a),
                                        or_(o.c.end_at.is_(None), o.c.end_at > o.c.start_at))).fetchall()


def queue_order_alerts(conn: Connection, plan: AlertPlan, order, start: datetime, end: datetime | None,
                       now: datetime, fire: bool = False) -> int:
    """In the order's transaction: an "order" alert to every notifier whose burn day (town time, from today)
    meets ``start``..``end`` (the span the change now covers), and with ``fire`` the Fire Department's copy."""
    first = max(start.astimezone(plan.tz).date(), plan.today)
    last = None if end is None else (end - timedelta(microseconds=1)).astimezone(plan.tz).date()
    added = 0
    if last is None or last >= first:
        for n in _notifications(conn, order.town, first, last):
            added += _queue(conn, order.town, order.id, "order", n.phone, plan.compose("order", order, n, None),
                            n.id, now)
    if fire:
        added += queue_fire_alert(conn, plan, order, "fire", None, now)
    return added


#: What the Fire Department is told of each change of an order: the composer's kinds ("fire" is the order as
#: recorded; the others name the change), all stored as alert kind "fire".
FIRE_CHANGES = ("fire", "fire-extended", "fire-lifted", "fire-superseded")


def queue_fire_alert(conn: Connection, plan: AlertPlan, order, change: str, event_id: int | None,
                     now: datetime, at: datetime | None = None) -> int:
    """In the change's transaction: the Fire Department's text about ``order`` as it now is (``change`` one of
    FIRE_CHANGES; ``at`` the lift time), one per change (keyed by the event), after superseding the texts about
    the same order still waiting in the queue: they carry the old dates."""
    if change not in FIRE_CHANGES:
        raise ValueError(f"no Fire Department text for {change!r}")
    if not plan.fire_number:
        return 0
    t = s.sms_alerts
    conn.execute(update(t).where(t.c.kind == "fire", t.c.order_id == order.id, t.c.state == "queued")
                 .values(state=SUPERSEDED, claimed_until=None))
    key = alert_key(order.id, "fire") if change == "fire" else f"order:{order.id}:fire:{change}:{event_id}"
    return _queue(conn, order.town, order.id, "fire", plan.fire_number, plan.compose(change, order, None, at),
                  None, now, key=key)


def queue_all_clear(conn: Connection, plan: AlertPlan, town: str, order_ids: list[int], at: datetime | None,
                    now: datetime) -> int:
    """In the change's transaction: a "lifted" alert to every notifier told "order" by one of ``order_ids``
    whose burn day (from today) no order covers any more, wholly. A day still partly under an order gets none:
    a wrong "you may burn" is the worst answer. Told means the "order" text may have reached them: sent, in
    flight, or after an attempt that may have reached Twilio; one still waiting in the queue is superseded when
    its turn comes (Outbox.alert_still_true), so its notifier, never told of the order, gets nothing. The rows
    are locked (PostgreSQL) so a sender cannot claim one between this read and the change's commit."""
    if not order_ids:
        return 0
    a, n = s.sms_alerts, s.burn_notifications
    may_have_reached = or_(a.c.state.in_(("sent", "sending")), a.c.message_sid.isnot(None), a.c.uncertain.is_(True))
    told = conn.execute(select(a.c.order_id, n).join(n, n.c.id == a.c.notification_id)
                        .where(a.c.kind == "order", a.c.order_id.in_(order_ids), n.c.burn_date >= plan.today,
                               may_have_reached)
                        .order_by(n.c.burn_date, n.c.id).with_for_update(of=a)).fetchall()
    added = 0
    orders = {r.id: r for r in conn.execute(select(s.no_burning_orders)
                                            .where(s.no_burning_orders.c.id.in_(order_ids)))}
    for row in told:
        m = dict(row._mapping)
        order = orders[m.pop("order_id")]
        note = BurnNotification(**m)
        if _covering(conn, town, note.burn_date, plan.tz):
            continue
        added += _queue(conn, town, order.id, "lifted", note.phone, plan.compose("lifted", order, note, at),
                        note.id, now)
    return added


class Outbox:
    """The ``Store`` methods for the outbox: what the clerk sees and what the sender does."""

    engine: Engine

    def alerts(self, order_id: int | None = None, kind: str | None = None) -> list[Alert]:
        t = s.sms_alerts
        q = select(t).order_by(t.c.id)
        if order_id is not None:
            q = q.where(t.c.order_id == order_id)
        if kind is not None:
            q = q.where(t.c.kind == kind)
        with self.engine.connect() as conn:
            return [Alert(**dict(r._mapping)) for r in conn.execute(q)]

    def alert_counts(self, town: str) -> dict[str, int]:
        """Alerts by state (and delivery): queued, sending, sent, delivered, failed, undelivered, ..."""
        t = s.sms_alerts
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.c.state, t.c.delivery, func.count()).where(t.c.town == town)
                                .group_by(t.c.state, t.c.delivery)).fetchall()
        out: dict[str, int] = {}
        for state, delivery, n in rows:
            out[delivery or state] = out.get(delivery or state, 0) + n
        return out

    def unreachable_alerts(self, town: str) -> list[tuple[Alert, BurnNotification | None]]:
        """The alerts that did not reach their person (to call instead): failed or undelivered by Twilio, given
        up by the sender, opted out, or a number that is not one; with the burn notification they are about."""
        t, n = s.sms_alerts, s.burn_notifications
        bad = or_(t.c.delivery.in_(("failed", "undelivered")), t.c.state.in_(("failed", *NOT_SENDABLE)))
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.town == town, bad).order_by(t.c.id)).fetchall()
            out = []
            for r in rows:
                note = None
                if r.notification_id is not None:
                    m = conn.execute(select(n).where(n.c.id == r.notification_id)).first()
                    note = BurnNotification(**dict(m._mapping)) if m else None
                out.append((Alert(**dict(r._mapping)), note))
        return out

    def due_alerts(self, town: str | None = None, limit: int = 50) -> list[Alert]:
        """Alerts the sender may claim now (by the database's clock): queued and due, or claimed by a sender
        whose lease ran out; of one town, or of all."""
        t = s.sms_alerts
        with self.engine.connect() as conn:
            now = db_now(conn)
            q = select(t).where(or_(and_(t.c.state == "queued", t.c.next_attempt_at <= now),
                                    and_(t.c.state == "sending", t.c.claimed_until < now)))
            if town is not None:
                q = q.where(t.c.town == town)
            return [Alert(**dict(r._mapping)) for r in conn.execute(q.order_by(t.c.next_attempt_at, t.c.id)
                                                                     .limit(limit))]

    def claim_alert(self, alert: Alert, lease: float) -> Alert | None:
        """Take the alert for one attempt (state "sending" until the database's now + ``lease``, under a new
        ``claim_token``); None if another sender took it or it changed. A row that was "sending" (a sender died
        or stalled) comes back ``uncertain``: the attempt may have reached Twilio, so the sender must look for
        it before sending."""
        t = s.sms_alerts
        token = secrets.token_hex(16)
        with self.engine.begin() as conn:
            now = db_now(conn)
            done = conn.execute(update(t).where(
                t.c.id == alert.id, t.c.state == alert.state, t.c.attempts == alert.attempts,
                or_(and_(t.c.state == "queued", t.c.next_attempt_at <= now),
                    and_(t.c.state == "sending", t.c.claimed_until < now)))
                .values(state="sending", claimed_until=now + timedelta(seconds=lease),
                        attempts=t.c.attempts + 1, claim_token=token,
                        uncertain=or_(t.c.uncertain, t.c.state == "sending")))
            if done.rowcount != 1:
                return None
            r = conn.execute(select(t).where(t.c.id == alert.id)).first()
        return Alert(**dict(r._mapping))

    def renew_claim(self, alert: Alert, lease: float) -> bool:
        """Is the claim still this sender's and unexpired (the database's clock)? If so it runs ``lease`` more
        seconds from now. Checked just before sending and during a long look-up: a claim that ran out may have
        been taken by another sender, which may have sent the text already."""
        t = s.sms_alerts
        with self.engine.begin() as conn:
            now = db_now(conn)
            done = conn.execute(update(t).where(t.c.id == alert.id, t.c.state == "sending",
                                                t.c.claim_token == alert.claim_token, t.c.claimed_until > now)
                                .values(claimed_until=now + timedelta(seconds=lease)))
        return done.rowcount == 1

    def _claimed_update(self, alert_id: int, claim: str | None, **values) -> bool:
        """Update an alert the caller claimed: with ``claim``, only while the row is "sending" under that claim
        (a sender that lost it changes nothing); without, unconditionally (the clerk's tools, tests)."""
        t = s.sms_alerts
        q = update(t).where(t.c.id == alert_id)
        if claim is not None:
            q = q.where(t.c.state == "sending", t.c.claim_token == claim)
        with self.engine.begin() as conn:
            done = conn.execute(q.values(**values))
        return done.rowcount == 1

    def alert_sent(self, alert_id: int, sid: str, now: datetime | None = None, claim: str | None = None) -> bool:
        """Sent with Twilio's SID. A sender that lost its claim still leaves the SID on a row that has none,
        so whoever claims it next records it instead of sending again."""
        if self._claimed_update(alert_id, claim, state="sent", message_sid=sid, sent_at=now or utcnow(),
                                claimed_until=None, error=""):
            return True
        t = s.sms_alerts
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.id == alert_id, t.c.message_sid.is_(None)).values(message_sid=sid))
        return False

    def alert_retry(self, alert_id: int, delay: float, error: str, uncertain: bool, claim: str | None = None) -> bool:
        """Back to the queue for another attempt ``delay`` seconds from now (the database's clock);
        ``uncertain``: this attempt may have been sent."""
        t = s.sms_alerts
        values = dict(state="queued", claimed_until=None, error=error[:300])
        if uncertain:
            values["uncertain"] = True
        with self.engine.begin() as conn:
            values["next_attempt_at"] = db_now(conn) + timedelta(seconds=delay)
            q = update(t).where(t.c.id == alert_id, t.c.state == "sending")
            if claim is not None:
                q = q.where(t.c.claim_token == claim)
            done = conn.execute(q.values(**values))
        return done.rowcount == 1

    def alert_still_true(self, alert: Alert, tz: tzinfo) -> bool:
        """Is what the alert says still so, just before it is sent? An all-clear ("lifted") only while no order
        covers the notifier's burn day at all; a "may not go ahead" ("order") only while one still does. A
        retried or delayed alert must never overtake a later change (a wrong "you may burn" is the worst)."""
        if alert.kind == "fire":  # the Fire Department's text: only while it is the latest about its order
            t = s.sms_alerts
            with self.engine.connect() as conn:
                return conn.execute(select(t.c.id).where(t.c.kind == "fire", t.c.order_id == alert.order_id,
                                                         t.c.id > alert.id).limit(1)).first() is None
        if alert.kind not in ("order", "lifted") or alert.notification_id is None:
            return True
        n = s.burn_notifications
        with self.engine.connect() as conn:
            day = conn.execute(select(n.c.burn_date).where(n.c.id == alert.notification_id)).scalar()
            if day is None:
                return alert.kind == "order"  # the notice is gone (purged): an all-clear is not sent blind
            covered = bool(_covering(conn, alert.town, day, tz))
        return covered if alert.kind == "order" else not covered

    def alert_superseded(self, alert_id: int, claim: str | None = None) -> bool:
        """A later change made the alert untrue before it was sent (an order then lifted, or lifted then
        re-ordered): never sent; the alert queued for the later change says what holds."""
        return self._claimed_update(alert_id, claim, state="superseded", claimed_until=None)

    def alert_opted_out(self, alert_id: int, claim: str | None = None) -> bool:
        """The number opted out after the alert was queued: never sent."""
        return self._claimed_update(alert_id, claim, state="opted_out", claimed_until=None)

    def alert_failed(self, alert_id: int, error: str, claim: str | None = None) -> bool:
        """Given up (Twilio refused it for good, or too many attempts): the clerk sees it to call."""
        return self._claimed_update(alert_id, claim, state="failed", claimed_until=None, error=error[:300])

    def sender_lock(self, name: str, ttl: float):
        """The lock that keeps one sender for ``name`` (records/sender_lock.py)."""
        from .sender_lock import SenderLock
        return SenderLock(self.engine, name, ttl)

    def alert_delivery(self, alert_id: int, sid: str, status: str, error: str = "") -> bool:
        """Twilio's status callback: delivered / failed / undelivered (others are ignored). The SID is recorded
        too: a callback may arrive before the sender recorded it. "delivered" is final: a replayed or late
        "undelivered"/"failed" callback never takes it back (a failure may still be followed by "delivered")."""
        if status not in DELIVERY_STATES:
            return False
        t = s.sms_alerts
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.id == alert_id, or_(t.c.message_sid.is_(None),
                                                                        t.c.message_sid == sid),
                                                t.c.delivery != "delivered")
                                .values(delivery=status, message_sid=sid, error=error[:300]))
        return done.rowcount == 1
