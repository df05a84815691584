"""No-burning orders as the Town Board issues them (Dunkirk 7.09(4): "an order, issued by the Town Board,
temporarily prohibiting open burning"; 7.10(4)). Each order is dated: in force from ``start_at`` until
``end_at`` (None: until lifted). Orders never overlap: a new order governs from its start, so an older order
still in force then ends there (or, if it had not begun, is superseded whole); extending and lifting early are
their own entries. Every change is an event with who recorded it, when, and the Board action.

``notifications_affected`` lists the burn notifications whose day a change covers or frees. Given an
``AlertPlan`` (records/outbox.py), a change also queues, in its own transaction, the texts it owes: "may not
go ahead" to notifiers whose day it now covers, the all-clear to those told whose day it frees wholly, and
the Fire Department's text about every order the change touched (recorded, extended, lifted, superseded).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Engine

from knowledge.model import BurningOrder

from . import schema as s
from .burns import BurnNotification
from .clock import utcnow
from .outbox import AlertPlan, queue_all_clear, queue_fire_alert, queue_order_alerts


@dataclass(frozen=True)
class OrderChange:
    """A row of the old on/off table (kept as it was; migration 0004 made dated orders of it)."""
    id: int
    town: str
    active: bool
    reason: str
    set_by: str
    created_at: datetime
    legal_hold: bool = False


@dataclass(frozen=True)
class Order:
    id: int
    town: str
    start_at: datetime
    end_at: datetime | None
    reason: str
    board_action: str
    recorded_by: str
    created_at: datetime
    ended_by: str = ""  # "" | "lifted" | "superseded by order N"
    legal_hold: bool = False

    def as_order(self) -> BurningOrder:
        return BurningOrder(active=self.end_at is None or self.end_at > self.start_at, reason=self.reason,
                            since=self.start_at, set_by=self.recorded_by, start=self.start_at, end=self.end_at,
                            board_action=self.board_action, order_id=self.id)


@dataclass(frozen=True)
class OrderEvent:
    """One entry of an order's history: kind "recorded" | "extended" | "lifted" | "superseded" | "migrated"."""
    id: int
    town: str
    order_id: int
    kind: str
    start_at: datetime
    end_at: datetime | None
    board_action: str
    reason: str
    recorded_by: str
    created_at: datetime
    legal_hold: bool = False


@dataclass(frozen=True)
class OrderResult:
    """What a change did: the order, and the span of time whose status changed (``end`` None: open-ended)."""
    order: Order
    changed_from: datetime
    changed_until: datetime | None
    events: tuple[OrderEvent, ...]


def _required(by: str, what: str) -> str:
    if not (by or "").strip():
        raise ValueError(f"{what} must say who recorded it")
    return by.strip()


def _aware(t: datetime | None, name: str) -> None:
    if t is not None and (not isinstance(t, datetime) or t.tzinfo is None):
        raise ValueError(f"{name} must be an aware datetime")


class BurningOrders:
    """The ``Store`` methods for no-burning orders."""

    engine: Engine

    # -- writing ---------------------------------------------------------------------------------------

    def record_order(self, town: str, start: datetime, end: datetime | None, *, reason: str, board_action: str,
                     recorded_by: str, now: datetime | None = None, alerts: AlertPlan | None = None) -> OrderResult:
        """Record an order as the Board issued it; older orders still in force at ``start`` give way to it.
        With ``alerts``, the texts it owes are queued in the same transaction."""
        _aware(start, "start")
        _aware(end, "end")
        if end is not None and end <= start:
            raise ValueError("an order must end after it starts")
        by = _required(recorded_by, "an order")
        now = now or utcnow()
        o = s.no_burning_orders
        with self.engine.begin() as conn:
            row = dict(town=town, start_at=start, end_at=end, reason=(reason or "").strip(),
                       board_action=(board_action or "").strip(), recorded_by=by, created_at=now, ended_by="",
                       legal_hold=False)
            new_id = conn.execute(insert(o).values(**row)).inserted_primary_key[0]
            events = [self._event(conn, town, new_id, "recorded", start, end, row["board_action"], row["reason"],
                                  by, now)]
            for old in conn.execute(select(o).where(o.c.town == town, o.c.id != new_id,
                                                    or_(o.c.end_at.is_(None), o.c.end_at > start))).fetchall():
                cut = max(old.start_at, start)  # an order not begun at ``start`` is superseded whole
                conn.execute(update(o).where(o.c.id == old.id).values(end_at=cut, ended_by=f"superseded by order {new_id}"))
                events.append(self._event(conn, town, old.id, "superseded", old.start_at, cut, row["board_action"],
                                          f"superseded by order {new_id} from {start.isoformat()}", by, now))
            if alerts is not None:
                order = self._order_in(conn, new_id)
                queue_order_alerts(conn, alerts, order, start, end, now, fire=True)
                queue_all_clear(conn, alerts, town, [ev.order_id for ev in events if ev.kind == "superseded"],
                                start, now)
                for ev in events[1:]:  # the Fire Department hears of every order whose dates this changed
                    queue_fire_alert(conn, alerts, self._order_in(conn, ev.order_id), "fire-superseded", ev.id, now)
        return OrderResult(self._order(new_id), start, end, tuple(events))

    def extend_order(self, order_id: int, end: datetime | None, *, board_action: str, recorded_by: str,
                     reason: str = "", now: datetime | None = None, alerts: AlertPlan | None = None,
                     town: str | None = None) -> OrderResult:
        """Move an order's end later (``end`` None: until lifted). An order it now runs into is superseded.
        With ``alerts``, notifiers on the days it now covers are queued a text in the same transaction. With
        ``town``, an order of another town is not found (LookupError): towns may share a database."""
        _aware(end, "end")
        by = _required(recorded_by, "an extension")
        old = self._order(order_id)
        if old is None or (town is not None and old.town != town):
            raise LookupError(f"no order {order_id}")
        if old.end_at is not None and end is not None and end <= old.end_at:
            raise ValueError("an extension must end later than the order does now; lift it to end it earlier")
        if old.end_at is None:
            raise ValueError("the order is already in force until lifted")
        if getattr(old, "ended_by", ""):  # lifted early or superseded: its notifiers were told it ended
            raise ValueError("this order was lifted or superseded; record a new order instead")
        now = now or utcnow()
        o = s.no_burning_orders
        with self.engine.begin() as conn:
            conn.execute(update(o).where(o.c.id == order_id).values(end_at=end, ended_by=""))
            events = [self._event(conn, old.town, order_id, "extended", old.start_at, end, board_action,
                                  reason or f"extended from {old.end_at.isoformat()}", by, now)]
            later = conn.execute(select(o).where(o.c.town == old.town, o.c.id != order_id,
                                                 o.c.start_at >= old.end_at,
                                                 *( [o.c.start_at < end] if end is not None else []),
                                                 or_(o.c.end_at.is_(None), o.c.end_at > o.c.start_at))).fetchall()
            for nxt in later:  # a later order the extension now covers gives way to the extension
                conn.execute(update(o).where(o.c.id == order_id).values(end_at=nxt.start_at))
                end = nxt.start_at
                events.append(self._event(conn, old.town, order_id, "extended", old.start_at, end, board_action,
                                          f"up to order {nxt.id}, which follows it", by, now))
                break
            if alerts is not None:
                order = self._order_in(conn, order_id)
                queue_order_alerts(conn, alerts, order, old.end_at, end, now)
                queue_fire_alert(conn, alerts, order, "fire-extended", events[-1].id, now)
        return OrderResult(self._order(order_id), old.end_at, end, tuple(events))

    def lift_order(self, town: str, at: datetime, *, board_action: str, recorded_by: str, reason: str = "",
                   now: datetime | None = None, alerts: AlertPlan | None = None) -> OrderResult | None:
        """Lift the order in force at ``at`` early (it ends at ``at``); None when no order is in force then.
        With ``alerts``, notifiers told of it whose day is now wholly free are queued the all-clear."""
        _aware(at, "at")
        by = _required(recorded_by, "lifting an order")
        current = self.order_at(town, at)
        if current is None:
            return None
        now = now or utcnow()
        o = s.no_burning_orders
        with self.engine.begin() as conn:
            conn.execute(update(o).where(o.c.id == current.id).values(end_at=at, ended_by="lifted"))
            ev = self._event(conn, town, current.id, "lifted", current.start_at, at, board_action,
                             (reason or "").strip(), by, now)
            if alerts is not None:
                queue_all_clear(conn, alerts, town, [current.id], at, now)
                queue_fire_alert(conn, alerts, self._order_in(conn, current.id), "fire-lifted", ev.id, now, at=at)
        return OrderResult(self._order(current.id), at, current.end_at, (ev,))

    def set_burning_order(self, town: str, active: bool, reason: str = "", set_by: str = "",
                          now: datetime | None = None) -> BurningOrder | None:
        """The old on/off switch: on records an order from ``now`` until lifted, off lifts the one in force."""
        now = now or utcnow()
        if active:
            return self.record_order(town, now, None, reason=reason, board_action="", recorded_by=set_by,
                                     now=now).order.as_order()
        result = self.lift_order(town, now, board_action="", recorded_by=set_by, reason=reason, now=now)
        return result.order.as_order() if result else None

    @staticmethod
    def _event(conn, town, order_id, kind, start, end, board_action, reason, by, now) -> OrderEvent:
        row = dict(town=town, order_id=order_id, kind=kind, start_at=start, end_at=end,
                   board_action=(board_action or "").strip(), reason=(reason or "").strip(), recorded_by=by,
                   created_at=now, legal_hold=False)
        new_id = conn.execute(insert(s.no_burning_order_events).values(**row)).inserted_primary_key[0]
        return OrderEvent(id=new_id, **row)

    # -- reading ---------------------------------------------------------------------------------------

    @staticmethod
    def _order_in(conn, order_id: int) -> Order:
        o = s.no_burning_orders
        return Order(**dict(conn.execute(select(o).where(o.c.id == order_id)).first()._mapping))

    def _order(self, order_id: int) -> Order | None:
        o = s.no_burning_orders
        with self.engine.connect() as conn:
            r = conn.execute(select(o).where(o.c.id == order_id)).first()
        return Order(**dict(r._mapping)) if r else None

    def orders(self, town: str) -> list[Order]:
        """Every order, by start (superseded-whole orders included, with their zero span)."""
        o = s.no_burning_orders
        with self.engine.connect() as conn:
            return [Order(**dict(r._mapping))
                    for r in conn.execute(select(o).where(o.c.town == town).order_by(o.c.start_at, o.c.id))]

    def no_burning_orders(self, town: str) -> list[BurningOrder]:
        """The orders for the engine (knowledge.handlers.burning(orders=...)): those with any time in force."""
        return [x.as_order() for x in self.orders(town) if x.as_order().active]

    def order_at(self, town: str, at: datetime) -> Order | None:
        """The order in force at ``at``, or None."""
        o = s.no_burning_orders
        with self.engine.connect() as conn:
            r = conn.execute(select(o).where(o.c.town == town, o.c.start_at <= at,
                                             or_(o.c.end_at.is_(None), o.c.end_at > at))
                             .order_by(o.c.id.desc()).limit(1)).first()
        return Order(**dict(r._mapping)) if r else None

    def burning_order(self, town: str, at: datetime | None = None) -> BurningOrder | None:
        """The order in force at ``at`` (default now) for the engine; None when none is."""
        found = self.order_at(town, at or utcnow())
        return found.as_order() if found else None

    def order_history(self, town: str) -> list[OrderEvent]:
        """Every entry of every order, newest first: recorded, extended, lifted, superseded, migrated."""
        e = s.no_burning_order_events
        with self.engine.connect() as conn:
            rows = conn.execute(select(e).where(e.c.town == town).order_by(e.c.id.desc()))
            return [OrderEvent(**dict(r._mapping)) for r in rows]

    def legacy_order_history(self, town: str) -> list[OrderChange]:
        """The rows of the old on/off switch, newest first."""
        t = s.burning_orders
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.town == town).order_by(t.c.id.desc()))
            return [OrderChange(**dict(r._mapping)) for r in rows]

    def notifications_affected(self, town: str, start: datetime, end: datetime | None, tz: tzinfo,
                               today: date | None = None) -> list[BurnNotification]:
        """The seam for telling residents of a change: burn notifications for a day (town time) from
        ``start`` to ``end`` (None: every later day), not before ``today``; the changed span is
        ``OrderResult.changed_from``..``changed_until``."""
        first = start.astimezone(tz).date()
        if today is not None:
            first = max(first, today)
        last = None if end is None else (end - timedelta(microseconds=1)).astimezone(tz).date()
        if last is not None and last < first:
            return []
        return self.list_burn_notifications(town, first, last)
