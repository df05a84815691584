"""The no-burning order (Dunkirk 7.09(4), 7.10(4)): every change kept, with who made it and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from knowledge.model import BurningOrder

from . import schema as s
from .clock import utcnow


@dataclass(frozen=True)
class OrderChange:
    id: int
    town: str
    active: bool
    reason: str
    set_by: str
    created_at: datetime
    legal_hold: bool = False

    def as_order(self) -> BurningOrder:
        return BurningOrder(active=self.active, reason=self.reason, since=self.created_at, set_by=self.set_by)


class BurningOrders:
    """The ``Store`` methods for the no-burning order."""

    engine: Engine

    def set_burning_order(self, town: str, active: bool, reason: str = "", set_by: str = "",
                          now: datetime | None = None) -> BurningOrder:
        if not set_by.strip():
            raise ValueError("a burning-order change must say who made it")
        row = dict(town=town, active=bool(active), reason=(reason or "").strip(), set_by=set_by.strip(),
                   created_at=now or utcnow(), legal_hold=False)
        with self.engine.begin() as conn:
            conn.execute(insert(s.burning_orders).values(**row))
        return BurningOrder(active=row["active"], reason=row["reason"], since=row["created_at"],
                            set_by=row["set_by"])

    def burning_order(self, town: str) -> BurningOrder | None:
        """The order in force: the newest change for ``town``; None if no order was ever set."""
        t = s.burning_orders
        with self.engine.connect() as conn:
            r = conn.execute(select(t).where(t.c.town == town).order_by(t.c.id.desc()).limit(1)).first()
        return OrderChange(**dict(r._mapping)).as_order() if r else None

    def order_history(self, town: str) -> list[OrderChange]:
        """Every change, newest first, with who and when."""
        t = s.burning_orders
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.town == town).order_by(t.c.id.desc()))
            return [OrderChange(**dict(r._mapping)) for r in rows]
