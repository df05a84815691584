"""The no-burning orders in an answer: which are in force when, the daylight they leave open, and their words.

An order forbids any open burning while it is in effect (Dunkirk Code 7.10(4)), so of the burning window
(7.11; knowledge/burn_hours.py) only the time outside every order is open. The orders are the dated records
the Clerk keeps (7.09(4)); what an order means is the town's `no_burning_order` topic.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from ..model import Answer, BurningOrder, Town
from ..burn_hours import closes, opens, window
from ..when import words_for_day, words_for_time
from .burn_rules import rule_step, short_time


def active_orders(order: BurningOrder | None, orders) -> list[BurningOrder]:
    """The old single ``order=`` and the dated ``orders=`` as one list, oldest recorded first."""
    return [o for o in list(orders or []) + ([order] if order is not None else []) if o is not None and o.active]


def orders_in_force(all_orders: list[BurningOrder], start: datetime, end: datetime | None = None) -> list[BurningOrder]:
    """The orders in force at any moment of [start, end] (7.10(4): any open burning while one is in effect)."""
    return [o for o in all_orders if o.overlaps(start, end)]


def open_parts(parts: list[tuple[datetime, datetime]], orders: list[BurningOrder]) -> list[tuple[datetime, datetime]]:
    """``parts`` (the daylight of the time asked about) less every moment an order is in force: 7.10(4) forbids
    burning only while an order is in effect, so the rest of the daylight window (7.11) stays open. An order
    is in force from its start until (not at) its end; a part that shrinks to nothing is dropped. The parts
    keep the time zone of ``parts`` (the town's)."""
    for o in orders:
        if not o.active:
            continue
        kept = []
        for a, b in parts:
            if o.start is None and o.end is None:
                continue
            if (o.end is not None and o.end <= a) or (o.start is not None and o.start > b):
                kept.append((a, b))
                continue
            if o.start is not None and o.start > a:
                kept.append((a, o.start.astimezone(a.tzinfo)))
            if o.end is not None and o.end < b:
                kept.append((o.end.astimezone(b.tzinfo), b))
        parts = kept
    return [(a, b) for a, b in parts if a < b]


def time_and_day(town: Town, t: datetime) -> str:
    local = t.astimezone(ZoneInfo(town.timezone))
    return f"{words_for_time(local)} on {words_for_day(local.date())}"


def order_words(town: Town, o: BurningOrder) -> str:
    """"in force from 8:00 a.m. CST on Tuesday, ... until lifted (Board action; reason)" for one order."""
    if o.start is None:
        since = f" since {o.since.astimezone(ZoneInfo(town.timezone)):%B %-d, %Y}" if o.since else ""
        words = f"in force{since}"
    else:
        words = f"in force from {time_and_day(town, o.start)} " + (
            f"until {time_and_day(town, o.end)}" if o.end is not None else "until it is lifted")
    notes = "; ".join(x for x in (o.board_action, o.reason) if x)
    return words + (f" ({notes})" if notes else "")


def order_end(all_orders: list[BurningOrder], at: datetime) -> datetime | None:
    """When no order is in force any more, counting orders that follow on without a gap; None: until lifted."""
    t = at
    for _ in range(len(all_orders) + 1):
        covering = orders_in_force(all_orders, t)
        if not covering:
            return t
        if any(o.end is None for o in covering):
            return None
        t = max(o.end for o in covering)
    return t


def order_step(answer: Answer, town: Town, in_force: list[BurningOrder], day: date) -> None:
    """The no-burning order's step: the orders in force at some moment of the time asked about, or none."""
    if in_force:
        recorded = "; ".join(order_words(town, o) for o in in_force)
        rule_step(answer, town, "no_burning_order", "order_in_effect", day,
                  before=f"Recorded: an order {recorded}. ")
    else:
        rule_step(answer, town, "no_burning_order", "no_order_recorded", day)


def _from(town: Town, t: datetime, orders: list[BurningOrder], short: bool = False) -> str:
    """Words for where an open part begins: at sunrise, when an order ends (7.10(4)), or at the time asked."""
    w = window(town, t.date())
    clock = short_time(t) if short else words_for_time(t)
    if t == w.start:
        return opens(w, clock, short)
    if any(o.end == t for o in orders):
        return f"{clock} (when the order ends)"
    return clock


def open_until(town: Town, t: datetime, orders: list[BurningOrder], short: bool = False) -> str:
    """Words for where an open part ends: at sunset, when an order begins, or at the end of the time asked."""
    w = window(town, t.date())
    clock = short_time(t) if short else words_for_time(t)
    if t == w.end:
        return closes(w, clock, short)
    if any(o.start == t for o in orders):
        return f"{clock} (when the order begins)"
    return clock


def open_words(town: Town, parts: list[tuple[datetime, datetime]], orders: list[BurningOrder],
               short: bool = False, days: bool = False) -> str:
    """"from 8:00 a.m. CDT (when the order ends) until sunset (8:37 p.m. CDT)" for each open part, with its
    day when the parts lie on more than one day or ``days`` (the time asked about spans several)."""
    several = days or len({a.date() for a, _ in parts}) > 1
    to = "to" if short else "until"
    return " and ".join(f"from {_from(town, a, orders, short)} {to} {open_until(town, b, orders, short)}"
                        + (f" on {words_for_day(a.date()).split(',')[0] if short else words_for_day(a.date())}"
                           if several else "") for a, b in parts)


def in_force_words(o: BurningOrder, start: datetime, end: datetime) -> str:
    """Short words for the part of [start, end] order ``o`` covers: "until 12:00 p.m. Saturday", "from 2:00 p.m.
    Saturday", "10:00 a.m. to 12:00 p.m. Saturday"."""
    day = lambda t: words_for_day(t.date()).split(",")[0]  # noqa: E731
    begins = o.start is not None and o.start > start
    ends = o.end is not None and o.end < end
    o = replace(o, start=o.start and o.start.astimezone(start.tzinfo), end=o.end and o.end.astimezone(start.tzinfo))
    if begins and ends:
        return (f"{short_time(o.start)} to {short_time(o.end)} {day(o.end)}" if o.start.date() == o.end.date() else
                f"{day(o.start)} {short_time(o.start)} to {day(o.end)} {short_time(o.end)}")
    if ends:
        return f"until {short_time(o.end)} {day(o.end)}"
    return f"from {short_time(o.start)} {day(o.start)}" if begins else "throughout"


def later_today(town: Town, all_orders: list[BurningOrder], after: datetime) -> list[tuple[datetime, datetime]]:
    """The open parts of the rest of ``after``'s day (its daylight less the orders in force)."""
    w = window(town, after.date())
    if not w.open:
        return []
    rise, set_ = w.start, w.end
    start = max(after, rise)
    return open_parts([(start, set_)], orders_in_force(all_orders, start, set_)) if start < set_ else []

