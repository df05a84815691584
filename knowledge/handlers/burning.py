"""Is open burning allowed at a given moment, and what must the resident do?

The law comes from the town's data, never from this module: the hours (the town's burning scheme: daylight or a
clock window, closed days; knowledge/burn_hours.py), the exception to them, the no-burning order, the
notification or permit and the rules of a burn are the `rules` of the town's burning topics
(topics.yml), the materials are its materials.yml (with the state rule in knowledge/state), and each step of
an answer carries the citations that back it. For Dunkirk that is Code 7.09 to 7.13 and Wis. Admin. Code
NR 429.04. A town whose code has no burning rules (Mequon) gets "not covered" and the clerk's contact.
The orders: burn_orders.py; the materials: burn_materials.py; the day's window and the order status:
burn_window.py.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ..errors import NeedsClarification
from ..model import Answer, BurningOrder, Town
from ..burn_hours import (BURNING_RULES, OPTIONAL_STEPS, Window, closed_days, closes, day_words, hours_name,
                          opens, scheme, side_words, window)
from ..when import Moment, words_for_day, words_for_time
from .burn_materials import material_rule, material_steps
from .burn_orders import (active_orders, in_force_words, later_today, open_parts, open_words, order_step,
                          orders_in_force)
from .burn_rules import (burning_rule, cited, closed_step, exception_rule, holidays_caveat, hours_rule, lower_first,
                         rule_step, short_time)
from .common import LEAD_LIMIT, add_contact, add_gaps, not_covered

#: every rule a covered town's burning topics must carry, by topic, besides its scheme's (knowledge.burn_hours)
RULES = BURNING_RULES


# -- time of day -------------------------------------------------------------------------------------

def _windows(town: Town, start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The burning windows (knowledge.burn_hours) of every open day from ``start`` to ``end`` (town time)."""
    out, day = [], start.date()
    while day <= end.date():
        w = window(town, day)
        if w.open:
            out.append((w.start, w.end))
        day += timedelta(days=1)
    return out


def _daylight(town: Town, start: datetime, end: datetime | None) -> tuple[str, list[tuple[datetime, datetime]]]:
    """"all" | "some" | "none": how much of [start, end] lies in the burning windows; the overlaps."""
    if end is None or end <= start:
        w = window(town, start.date())
        inside = w.open and w.start <= start <= w.end
        return ("all" if inside else "none"), ([(start, start)] if inside else [])
    overlaps = [(max(start, r), min(end, s)) for r, s in _windows(town, start, end) if max(start, r) < min(end, s)]
    if not overlaps:
        return "none", []
    covered = len(overlaps) == 1 and overlaps[0] == (start, end)
    return ("all" if covered else "some"), overlaps


# -- the answer ------------------------------------------------------------------------------------------

def _rule_steps(answer: Answer, town: Town, day: date) -> None:
    """What to do before (notify or get a permit), the rules of a burn the code has, and every penalty rule."""
    rule_step(answer, town, "burn_notification", scheme(town).before_rule, day)
    for name in OPTIONAL_STEPS:
        if name in town.topics["burning_rules"].rules:
            rule_step(answer, town, "burning_rules", name, day)
    for name in town.topics["burning_penalties"].rules:
        rule_step(answer, town, "burning_penalties", name, day)


def burning(town: Town, *, at: datetime | Moment, order: BurningOrder | None = None,
            material: str | None = None, orders: list[BurningOrder] | None = None) -> Answer:
    """May the resident burn ``material`` (their words, or None) at ``at``: an aware datetime, or a Moment
    from knowledge.when (an instant, or an interval from ``start`` to ``end`` such as an evening or a night)?

    ``orders``: the dated no-burning orders the records hold: one in force at the instant asked forbids it; of
    an interval, the daylight the orders leave is open (7.10(4) forbids burning only while one is in effect);
    ``order``: one order as before (in force whenever ``active`` if it has no ``start``).

    ``value``: allowed (True; False; None when the material's rule leaves it open), in_hours, order_active,
    material_ok (True/False/None), material_kind.
    """
    moment = at if isinstance(at, Moment) else Moment(at, None, "instant", "")
    for t in (moment.start, moment.end):
        if t is not None and (not isinstance(t, datetime) or t.tzinfo is None or t.utcoffset() is None):
            raise NeedsClarification("I need to know the time zone of that time.", field="when")
    if not town.topics["burning_hours"].covered:
        return not_covered(town, "burning_hours", moment.start.date())
    tz = ZoneInfo(town.timezone)
    start = moment.start.astimezone(tz)
    end = moment.end.astimezone(tz) if moment.end is not None and moment.kind != "instant" else None
    day = start.date()
    said = moment.said or f"{words_for_day(day)} at {words_for_time(start)}"
    w = window(town, day)
    rise, set_ = w.start, w.end  # the ends of the day's burning window: sunrise and sunset for a daylight town
    answer = Answer(topic="burning_hours", town=town.key, result="")
    answer.data.update(sunrise=rise.isoformat(), sunset=set_.isoformat(), understood=said)

    daylight, overlaps = _daylight(town, start, end)
    rule_step(answer, town, "burning_hours", hours_rule(town), day, before=f"I understood: {said}. {day_words(w)}")
    for closed in closed_days(town, start, end):
        closed_step(answer, town, closed, day)
    holidays_caveat(answer, town, start, end)
    all_orders = active_orders(order, orders)
    in_force = orders_in_force(all_orders, start, end)
    order_step(answer, town, in_force, day)
    # 7.10(4) forbids burning only while an order is in effect: of an interval, the daylight it leaves is open
    parts = open_parts(overlaps, in_force) if end is not None and in_force else []
    blocked = bool(in_force) and not parts
    match = material_rule(town, material) if material and str(material).strip() else None
    if daylight != "all" and not (moment.kind == "day" and daylight == "some"):
        early = start < rise if end is None else end <= rise
        outside = ("partly after sunset or before sunrise" if w.start_word else
                   f"partly outside {hours_name(town)}")
        where = outside if daylight == "some" else side_words(w, early)
        rule_step(answer, town, "burning_hours", exception_rule(town), day,
                  before=f"That time is {where}. " if w.open or daylight == "some" else "")
    elif match is None or match.kind not in ("prohibited", "permit_required"):
        rule_step(answer, town, "burning_hours", exception_rule(town), day)
    if match is not None:
        material_steps(answer, town, match, day)
    else:
        rule_step(answer, town, "prohibited_materials", "reminder", day)

    material_ok = (None if match is None else True if match.kind == "allowed" else
                   False if match.kind in ("prohibited", "permit_required") else None)
    in_hours = daylight != "none"
    if blocked or material_ok is False or not in_hours:
        allowed = False
    elif match is not None and material_ok is None:
        allowed = None
    else:
        allowed = True
    answer.value = {"allowed": allowed, "in_hours": in_hours, "order_active": blocked,
                    "material_ok": material_ok, "material_kind": None if match is None else match.kind}
    # a yes at a time holds until sunset, or until an order that begins later that day (7.11, 7.10(4))
    stop = min([o.start.astimezone(tz) for o in all_orders if o.start is not None and start < o.start < set_] + [set_])
    answer.result = _result(town, moment, start, end, day, rise, set_, daylight, overlaps, blocked, match, allowed,
                            parts, in_force, stop)
    answer.lead = _lead(town, moment, start, end, day, rise, set_, daylight, blocked, match, parts, in_force, stop)
    if blocked and (end is None or end.date() == day):  # the rest of the day asked about, not the next one's
        _open_later(answer, town, all_orders, end or start)
    _rule_steps(answer, town, day)
    for topic in ("burning_hours", "prohibited_materials", "burning_rules", "burning_penalties"):
        add_gaps(answer, town, topic)
    add_contact(answer, town)
    return answer


def _when_words(moment: Moment, start: datetime, day: date) -> str:
    if moment.kind == "instant" or moment.end is None:
        return f"at {words_for_time(start)} on {words_for_day(day)}"
    if moment.kind == "evening":
        return "tonight"
    if moment.kind == "day":
        return f"on {words_for_day(day)}"
    return moment.said or f"from {words_for_time(start)} on {words_for_day(day)}"


def _span(town: Town, overlaps: list[tuple[datetime, datetime]], w: Window, closed: list[Window] = ()) -> str:
    """Words for the part of an interval in the window: "until sunset at 8:38 p.m. CDT", "from sunrise at ...";
    an interval over a closed day (a Sunday, a legal holiday) lists its open parts and the closed days."""
    at = lambda word, t: f"{word} at {words_for_time(t)}" if word else words_for_time(t)  # noqa: E731
    if len(overlaps) == 1 and overlaps[0][1] == w.end and not closed:
        return f"until {at(w.end_word, w.end)}, not after"
    if len(overlaps) == 1 and overlaps[0][0] == w.start and not closed:
        return f"from {at(w.start_word, w.start)}, not before"
    return "only " + " and ".join(f"from {words_for_time(a)} to {words_for_time(b)} on {words_for_day(a.date())}"
                                  for a, b in overlaps) + f", {hours_name(town)}" + "".join(
        f"; not on {words_for_day(c.day)}, {c.closed_reason}" for c in closed)


def _open_later(answer: Answer, town: Town, all_orders: list[BurningOrder], after: datetime) -> None:
    """An order that ends later the same day, before sunset: the result and, when it fits, the lead say from
    when burning is open again that day (the instant, the interval and the window agree)."""
    later = later_today(town, all_orders, after)
    if not later:
        return
    answer.result += f" Later that day burning is not forbidden by the order: {open_words(town, later, all_orders)}."
    a, b = later[0]
    w = window(town, a.date())
    short = f" Open again from {short_time(a)} " + (f"until {w.end_word}." if b == w.end and w.end_word else
                                                      f"until {short_time(b)}" if b == w.end else
                                                      f"to {short_time(b)}.")
    if len(answer.lead) + len(short) <= LEAD_LIMIT:
        answer.lead += short


def _result(town, moment, start, end, day, rise, set_, daylight, overlaps, blocked, match, allowed,
            parts=(), in_force=(), stop=None) -> str:
    """The answer's first sentence: the strongest reason first (order, material, hours), the law's words.
    ``parts``: the open parts an order covering only part of the time asked about leaves (7.10(4))."""
    when_words = _when_words(moment, start, day)
    what = f"{match.said} " if match is not None else ""
    rule = lambda topic, name: town.render(burning_rule(town, topic, name).text, day)  # noqa: E731
    w = window(town, day)
    hours, exception = rule("burning_hours", hours_rule(town)), rule("burning_hours", exception_rule(town))
    if blocked:
        return f"No, you may not burn {what}{when_words}: {rule('no_burning_order', 'order_in_effect')}"
    if match is not None and match.kind in ("prohibited", "permit_required"):
        return f"No, you may not burn {match.said}: " + " ".join(g.rule for g in match.groups)
    if daylight == "none":
        early = start < rise if end is None else end <= rise
        if not w.open:
            hours = rule("burning_hours", w.closed_rule)
        return f"No, you may not burn {what}{when_words}: that is {side_words(w, early)}. {hours} {exception}"
    within = "within" if daylight == "all" and not parts else "partly within"
    if match is not None and match.kind == "conditional":
        return (f"It depends on the {match.said}: " + " ".join(g.rule for g in match.groups)
                + f" The time itself is {within} the hours when burning is allowed.")
    if match is not None and match.kind == "not_listed":
        return (f"I can't confirm that you may burn {match.said}: it is not named in the lists of materials we "
                f"hold. Ask the {town.contact_line()} first. The time itself is {within} the hours when burning "
                "is allowed.")
    conditions = rule("burning_rules", "yes_conditions")
    if parts:  # an order covers part of the time asked about: the rest of its daylight is open
        return (f"Yes, you may burn {what}{when_words}, but only "
                f"{open_words(town, parts, in_force, days=end.date() > start.date())}, {conditions} {exception}")
    if moment.kind == "day":
        return (f"Yes, you may burn {what}on {words_for_day(day)} between {opens(w, words_for_time(rise))} and "
                f"{closes(w, words_for_time(set_))}, {conditions} {exception}")
    if daylight == "some":
        return (f"Yes, you may burn {what}{when_words} {_span(town, overlaps, w, closed_days(town, start, end))}, "
                f"{conditions} {exception}")
    until = (f"until {closes(w, words_for_time(set_))}" if stop is None or stop >= set_ else
             f"until {words_for_time(stop)} (when the order begins)")
    return f"Yes, you may burn {what}{when_words}, {until}, {conditions}"


def _first_sentence(text: str) -> str:
    return text.split(". ")[0].rstrip(".")


def _lead(town, moment, start, end, day, rise, set_, daylight, blocked, match, parts=(), in_force=(),
          stop=None) -> str:
    """One or two sentences that answer "may I burn?": the decision, the time that bounds it, the condition,
    the section. Every statement of law comes from the town's rules; this only picks and shortens."""
    rule = lambda topic, name: burning_rule(town, topic, name)  # noqa: E731
    if blocked:
        r = rule("no_burning_order", "order_in_effect")
        return cited(f"No: {lower_first(town.render(r.text, day))}", r.citation)
    if match is not None and match.kind in ("prohibited", "permit_required", "conditional"):
        g = match.groups[0]
        said = _first_sentence(g.rule)
        head = {"prohibited": "No", "permit_required": "No, not without the permit",
                "conditional": "It depends"}[match.kind]
        text = cited(f"{head}: {said}", g.citations[0])
        return text if len(text) <= LEAD_LIMIT else cited(f"{head}: see the rule for {g.what}", g.citations[0])
    w = window(town, day)
    if daylight == "none":
        early = start < rise if end is None else end <= rise
        side = side_words(w, early, short_time)
        r = rule("burning_hours", hours_rule(town) if w.open else w.closed_rule)
        hours = town.render(r.lead or r.text, day)
        side = side if side.endswith(".") else f"{side}."  # "12:00 p.m." ends its own sentence
        if early or not w.open:
            return cited(f"No: that is {side} {hours}", r.citation)
        # after the hours: who may allow it (the town's rule names who: a Town Board, a Fire Department)
        x = rule("burning_hours", exception_rule(town))
        exception = town.render(x.lead or x.text, day)
        both = cited(f"No: that is {side} {hours} {exception}", x.citation)
        return both if len(both) <= LEAD_LIMIT else cited(f"No: that is {side} {exception}", x.citation)
    if match is not None and match.kind == "not_listed":
        r = rule("prohibited_materials", "not_listed")
        words = town.render(r.lead or r.text, day)
        said = cited(f"{match.said}: {words}", r.citation)  # the resident's words whole, or none of them
        return said if len(said) <= LEAD_LIMIT else cited(words, r.citation)
    r = rule("burning_rules", "yes_conditions")
    condition = town.render(r.text, day).rstrip(".")
    if parts:  # an order covers part of the time asked about (7.10(4)); the rest of its daylight is open
        return _lead_open_parts(town, moment, start, end, day, parts, in_force, r, condition)
    if moment.kind == "day":
        when = f"{words_for_day(day).split(',')[0]} from {opens(w, short_time(rise))} to {closes(w, short_time(set_))}"
    elif end is not None and end.date() > start.date():  # "this weekend", "this week": several days
        label = (moment.said or "").split(" (")[0] or "on those days"
        when = (f"{label}, each day from sunrise to sunset only ({short_time(rise)} to {short_time(set_)} on "
                f"{words_for_day(day).split(',')[0]})" if w.start_word else
                f"{label}, only from {short_time(rise)} to {short_time(set_)} on each day burning is open")
    elif (daylight == "some" or moment.kind == "evening") and start < rise:  # "from 6 to 8 in the morning"
        when = (f"then from {opens(w, short_time(rise), True).rstrip(',')}, not before" if end is None or end <= set_
                else f"only from {opens(w, short_time(rise))} to {closes(w, short_time(set_))}")
    elif daylight == "some" or moment.kind == "evening":
        when = (f"{'tonight' if moment.kind == 'evening' else 'then'} until "
                f"{closes(w, short_time(set_), True)}, not after")
    else:  # the end of the hours with the time asked: a yes at 7:30 p.m. is a yes until 8:12 p.m. only
        until = (f"until {closes(w, short_time(set_))}" if stop is None or stop >= set_ else
                 f"until {short_time(stop)} (when the order begins)")
        when = f"at {short_time(start)} {words_for_day(day).split(',')[0]}, {until}"
    text = cited(f"Yes: {when}, {condition}", r.citation)
    return text if len(text) <= LEAD_LIMIT else cited(f"Yes: {when}, {condition.split(' and ')[0]}", r.citation)


def _lead_open_parts(town, moment, start, end, day, parts, in_force, r, condition) -> str:
    """The "yes" lead when an order covers part of the time asked about: the open parts when they fit in a
    lead, else the daylight less the orders' times; always whole sentences."""
    several = end.date() > start.date()
    label = ("tonight" if moment.kind == "evening" else (moment.said or "").split(" (")[0] or "then" if several
             else words_for_day(day).split(",")[0])
    w = window(town, day)
    span = "sunrise to sunset" if w.start_word else f"{short_time(w.start)} to {short_time(w.end)}"
    hours = f", {span}" if several or moment.kind == "day" else ""
    spans = "; ".join(in_force_words(o, start, end) for o in in_force)
    whens = (f"{label} only {open_words(town, parts, in_force, short=True, days=several)}",
             f"{label}{hours}, except during the order ({spans})",
             f"{label}{hours}, except while an order is in force")
    leads = [cited(f"Yes: {w}, {c}", r.citation) for w in whens for c in (condition, condition.split(" and ")[0])]
    return next((x for x in leads if len(x) <= LEAD_LIMIT), leads[-1])

