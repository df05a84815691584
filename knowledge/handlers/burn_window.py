"""When burning is open on a day (the burn-notification form), and whether a no-burning order is in effect.

The day's burning window (Dunkirk Code 7.11; knowledge/burn_hours.py) less every moment an order is in force
(7.10(4)); the orders are the dated records the Clerk keeps (7.09(4)). Every statement of law is the town's
rule (topics.yml), each step backed by its citation.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from ..errors import NeedsClarification
from ..model import Answer, BurningOrder, Town
from ..burn_hours import closes, day_words, opens, window
from ..when import Moment, words_for_day, words_for_time
from .. import rules
from .burn_orders import (active_orders, in_force_words, open_parts, open_until, open_words, order_end, order_step,
                          order_words, orders_in_force, time_and_day)
from .burn_rules import (burning_rule, cited, closed_step, exception_rule, holidays_caveat, hours_rule, lower_first,
                         rule_step, short_time)
from .common import LEAD_LIMIT, a_day, add_contact, add_gaps, not_covered


def burn_window(town: Town, *, day: date, order: BurningOrder | None = None,
                orders: list[BurningOrder] | None = None, at: datetime | None = None) -> Answer:
    """When on ``day`` burning is open, for the burn-notification form: the town's burning window (sunrise to
    sunset, or its clock times; none on a closed day) less every moment a no-burning order is in force
    (7.10(4) forbids burning only while one is); closed only when orders cover all of it. ``at``: a time the
    resident gave, checked the same way.

    ``value``: sunrise, sunset (the window's ends: the clock times for a clock town), allowed (some part of the
    day is open), orders (in force that day), open (the open parts, [(start, end)]), open_at (``at`` lies in
    one; None without ``at``). ``data``: hours (a sentence saying when burning is open that day, for the form),
    until (words for the end of the open part ``at`` is in: "sunset (8:37 p.m. CDT)", "2:00 p.m. CST (when the
    order begins)").
    """
    day = a_day(day, "day")
    if not town.topics["burning_hours"].covered:
        return not_covered(town, "burning_hours", day)
    w = window(town, day)
    rise, set_ = w.start, w.end
    answer = Answer(topic="burning_hours", town=town.key, result="")
    hours = rule_step(answer, town, "burning_hours", hours_rule(town), day, before=day_words(w))
    closed_step(answer, town, w)
    holidays_caveat(answer, town, rise, None)
    rule_step(answer, town, "burning_hours", exception_rule(town), day)
    all_orders = active_orders(order, orders)
    in_force = orders_in_force(all_orders, rise, set_)
    order_step(answer, town, in_force, day)
    parts = open_parts([(rise, set_)], in_force) if w.open else []
    blocked = not parts
    cut = bool(in_force) and not blocked
    open_at = None if at is None else (w.open and rise <= at <= set_ and not orders_in_force(all_orders, at))
    answer.value = {"sunrise": rise, "sunset": set_, "allowed": not blocked, "orders": in_force, "open": parts,
                    "open_at": open_at}
    daylight = burning_rule(town, "burning_hours", hours_rule(town))
    order_rule = burning_rule(town, "no_burning_order", "order_in_effect")
    if not w.open:  # a closed day (a Sunday, a legal holiday): the rule that closes it stands for the order's
        order_rule = burning_rule(town, "burning_hours", w.closed_rule)
    weekday = words_for_day(day).split(",")[0]
    from_to = f"from {opens(w, short_time(rise), True)} to {closes(w, short_time(set_), True)}"
    if blocked:
        answer.lead = cited(f"No: {lower_first(town.render(order_rule.text, day))}", order_rule.citation)
    elif cut:
        answer.lead = cited(f"{weekday}: burning only {open_words(town, parts, in_force, short=True)}",
                            daylight.citation)
        if len(answer.lead) > LEAD_LIMIT:
            spans = "; ".join(in_force_words(o, rise, set_) for o in in_force)
            answer.lead = cited(f"{weekday}: burning only {from_to}, except during the order ({spans})",
                                daylight.citation)
    else:
        answer.lead = cited(f"{weekday}: burning only {from_to}", daylight.citation)
    answer.result = (day_words(w)
                     + (town.render(order_rule.text, day) if blocked else
                        f"Burning is open only {open_words(town, parts, in_force)}. {hours} "
                        f"{town.render(order_rule.text, day)}" if cut else hours))
    refs = rules.short_ref(daylight.citation) + (f", {rules.short_ref(order_rule.citation)}" if cut else "")
    answer.data["hours"] = (
        f"No burning is allowed on {words_for_day(day)}. {town.render(order_rule.text, day)} "
        f"({rules.short_ref(order_rule.citation)})." if blocked else
        f"On {words_for_day(day)} burning is allowed only "
        + (f"{open_words(town, parts, in_force)} ({refs})." if cut else
           f"between {opens(w, words_for_time(rise))} and {closes(w, words_for_time(set_))} ({refs})."))
    if open_at:
        answer.data["until"] = next(open_until(town, b, in_force) for a, b in parts if a <= at <= b)
    add_contact(answer, town)
    return answer


def burning_order_status(town: Town, *, now: datetime, order: BurningOrder | None = None,
                         orders: list[BurningOrder] | None = None, during: Moment | None = None) -> Answer:
    """Is a no-burning order in effect right now, or at any moment ``during`` (a Moment from knowledge.when:
    "this weekend", "Saturday"), and until when? The orders come from the records the Clerk keeps (dated as the
    Town Board issued them, 7.09(4)); what an order means comes from the town's `no_burning_order` topic.

    ``value``: order_active, until (ISO time the orders stop; None while none or until lifted), until_lifted,
    next_start (ISO start of the next order recorded after ``now``/``during``, or None).
    """
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise NeedsClarification("I need to know the time zone of that time.", field="now")
    for t in (during.start, during.end) if during is not None else ():
        if t is not None and (not isinstance(t, datetime) or t.tzinfo is None or t.utcoffset() is None):
            raise NeedsClarification("I need to know the time zone of that time.", field="when")
    tz = ZoneInfo(town.timezone)
    local = now.astimezone(tz)
    if "no_burning_order" not in town.topics or not town.topics["no_burning_order"].covered:
        return not_covered(town, "no_burning_order", local.date())
    t = town.topics["no_burning_order"]
    all_orders = active_orders(order, orders)
    if during is None:
        start, end, day = now, None, local.date()
        asked = f"As of {words_for_time(local)} on {words_for_day(day)}"
    else:
        start = during.start
        end = during.end if during.kind != "instant" else None
        day = start.astimezone(tz).date()
        asked = f"For {during.said or words_for_day(day)}"
    in_force = orders_in_force(all_orders, start, end)
    active = bool(in_force)
    until = order_end(all_orders, max(start, min((o.start for o in in_force if o.start), default=start))
                       ) if active else None
    later = sorted((o for o in all_orders if o.start is not None and o.start > (end or start)), key=lambda o: o.start)
    answer = Answer(topic="no_burning_order", town=town.key, result="",
                    value={"order_active": active, "until": until.isoformat() if until else None,
                           "until_lifted": active and until is None,
                           "next_start": later[0].start.isoformat() if later else None})
    rule = town.render(
        burning_rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded").text, day)
    rule = rule[:1].lower() + rule[1:]
    if active:
        recorded = "; ".join(order_words(town, o) for o in in_force)
        ends = (" It stays in force until it is lifted; no end has been recorded." if until is None else
                f" It ends at {time_and_day(town, until)}.")
        answer.result = f"Yes: {rule} ({asked}: an order {recorded}.){ends}"
    else:
        answer.result = f"No: {rule} ({asked}.)"
        if later:
            answer.result += f" An order is recorded to begin later: {order_words(town, later[0])}."
    now_rule = burning_rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded")
    answer.lead = cited(f"{'Yes' if active else 'No'}: {lower_first(town.render(now_rule.text, day))}",
                        now_rule.citation)
    if active:
        until_words = " It stays until it is lifted." if until is None else f" It ends {time_and_day(town, until)}."
        if len(answer.lead) + len(until_words) <= LEAD_LIMIT:
            answer.lead += until_words
    answer.step(town.render(t.summary, day), *t.citations)
    status = burning_rule(town, "no_burning_order", "status_source")
    answer.cite(status.citation)
    answer.caveats.append(town.render(status.text, day))
    answer.cite(burning_rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded").citation)
    answer.caveats.extend(town.render(c, day) for c in t.caveats)
    add_gaps(answer, town, "no_burning_order")
    add_contact(answer, town)
    return answer
