"""Is open burning allowed at a given moment, and what must the resident do?

The law comes from the town's data, never from this module: the hours (the town's burning scheme: daylight or a
clock window, closed days; knowledge/burn_hours.py), the exception to them, the no-burning order, the
notification or permit and the rules of a burn are the `rules` of the town's burning topics
(topics.yml), the materials are its materials.yml (with the state rule in knowledge/state), and each step of
an answer carries the citations that back it. For Dunkirk that is Code 7.09 to 7.13 and Wis. Admin. Code
NR 429.04. A town whose code has no burning rules (Mequon) gets "not covered" and the clerk's contact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from ..errors import KnowledgeError, NeedsClarification
from ..model import MATERIAL_KINDS, PLACEHOLDER, Answer, BurningOrder, MaterialGroup, Town, TopicRule, material_words
from ..burn_hours import (BURNING_RULES, OPTIONAL_STEPS, Window, closed_days, closes, day_words, hours_name,
                          opens, scheme, side_words, window)
from ..when import Moment, words_for_day, words_for_time
from .. import rules
from .common import a_day, add_contact, add_gaps, not_covered

#: every rule a covered town's burning topics must carry, by topic, besides its scheme's (knowledge.burn_hours)
RULES = BURNING_RULES


def _hours(town: Town) -> str:
    """The town's rule for its burning hours: `daylight_only` or `clock_window` (knowledge.burn_hours)."""
    return scheme(town).hours_rule


def _exception(town: Town) -> str:
    """The town's rule for burning outside its hours: `after_sunset_exception` or `outside_hours_exception`."""
    return scheme(town).exception_rule


def _holidays_caveat(answer: Answer, town: Town, start: datetime, end: datetime | None) -> None:
    """A town closed on legal holidays whose dates we hold do not reach the year asked about: say so, citing the
    rule, rather than answer as if no day were a holiday."""
    years = sorted({d.year for d in (start.date(), (end or start).date()) if scheme(town).holidays_unknown(d)})
    if years:
        r = _rule(town, "burning_hours", "closed_legal_holidays")
        answer.cite(r.citation)
        answer.caveats.append(f"{town.render(r.text, start.date())} The dates of legal holidays we hold do not reach "
                              f"{' and '.join(map(str, years))}: whether that day is one, ask the {town.contact_line()}.")


def _closed_step(answer: Answer, town: Town, w: Window, asked: date | None = None) -> None:
    """The rule that closes ``w``'s day, as a step ("That day is a Sunday. ..."; another day of the time asked
    about by its date)."""
    if not w.open:
        name = "That day" if asked in (None, w.day) else words_for_day(w.day)
        _step(answer, town, "burning_hours", w.closed_rule, w.day, before=f"{name} is {w.closed_reason}. ")


def _rule(town: Town, topic: str, name: str) -> TopicRule:
    try:
        return town.topics[topic].rules[name]
    except KeyError:
        raise KnowledgeError(f"knowledge/towns/{town.key}/topics.yml", f"{topic}.rules.{name}",
                             "the burning handler needs this rule") from None


def _step(answer: Answer, town: Town, topic: str, name: str, day: date, before: str = "") -> str:
    """Add the town's rule ``topic.name`` as a step backed by its citation; returns its text."""
    rule = _rule(town, topic, name)
    text = town.render(rule.text, day)
    citations = [rule.citation] + [town.param(m).reference for m in _placeholders(rule.text)]
    answer.step(f"{before}{text}", *citations)
    return text


def _placeholders(text: str) -> list[str]:
    return [m.group(1) for m in PLACEHOLDER.finditer(text)]


# -- materials ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MaterialMatch:
    """How the town's materials.yml reads what the resident named: the kind that decides the answer
    ("prohibited", "permit_required", "conditional", "allowed" or "not_listed") and the groups that say so."""

    said: str
    kind: str
    groups: tuple[MaterialGroup, ...] = ()


def material_rule(town: Town, material: str) -> MaterialMatch:
    """Match ``material`` (the resident's words) against the town's material names (knowledge/DATA.md).

    A name inside a longer matched name does not count ("wood" in "painted wood"); of the rest, the strictest
    kind wins (prohibited, then permit_required, conditional, allowed). No match: "not_listed".
    """
    said = " ".join(str(material).split())
    words = material_words(said)
    found = []  # (start, end, group)
    for kind in MATERIAL_KINDS:
        for group in (town.materials or {}).get(kind, []):
            for name in group.names:
                n = len(name)
                for i in range(len(words) - n + 1):
                    if words[i:i + n] == name:
                        found.append((i, i + n, group))
    kept = [f for f in found
            if not any(o[0] <= f[0] and f[1] <= o[1] and o[1] - o[0] > f[1] - f[0] for o in found)]
    for kind in MATERIAL_KINDS:
        groups = tuple(dict.fromkeys(g for _, _, g in kept if g.kind == kind))
        if groups:
            return MaterialMatch(said, kind, groups)
    return MaterialMatch(said, "not_listed")


def _material_steps(answer: Answer, town: Town, match: MaterialMatch, day: date) -> None:
    for g in match.groups:
        answer.step(f"I read \u201c{match.said}\u201d as {g.what}. {g.rule}", *g.citations)
    if match.kind in ("prohibited", "permit_required") and any(
            c.section.code != town.code_name for g in match.groups for c in g.citations):
        _step(answer, town, "prohibited_materials", "state_rules_clause", day)
    if match.kind == "not_listed":
        _step(answer, town, "prohibited_materials", "not_listed", day, before=f"\u201c{match.said}\u201d: ")
        _step(answer, town, "prohibited_materials", "state_rules_clause", day)
    if match.kind in ("not_listed", "allowed", "conditional"):
        _step(answer, town, "burning_hours", "not_prohibited_permitted", day)
    if match.kind == "not_listed":
        for g in (town.materials or {}).get("allowed", []):
            answer.step(f"What the rules name as allowed: {g.what}. {g.rule}", *g.citations)


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


# -- the answers ---------------------------------------------------------------------------------------

def _orders(order: BurningOrder | None, orders) -> list[BurningOrder]:
    """The old single ``order=`` and the dated ``orders=`` as one list, oldest recorded first."""
    return [o for o in list(orders or []) + ([order] if order is not None else []) if o is not None and o.active]


def _in_force(all_orders: list[BurningOrder], start: datetime, end: datetime | None = None) -> list[BurningOrder]:
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


def _at(town: Town, t: datetime) -> str:
    local = t.astimezone(ZoneInfo(town.timezone))
    return f"{words_for_time(local)} on {words_for_day(local.date())}"


def order_words(town: Town, o: BurningOrder) -> str:
    """"in force from 8:00 a.m. CST on Tuesday, ... until lifted (Board action; reason)" for one order."""
    if o.start is None:
        since = f" since {o.since.astimezone(ZoneInfo(town.timezone)):%B %-d, %Y}" if o.since else ""
        words = f"in force{since}"
    else:
        words = f"in force from {_at(town, o.start)} " + (f"until {_at(town, o.end)}" if o.end is not None else
                                                          "until it is lifted")
    notes = "; ".join(x for x in (o.board_action, o.reason) if x)
    return words + (f" ({notes})" if notes else "")


def _order_end(all_orders: list[BurningOrder], at: datetime) -> datetime | None:
    """When no order is in force any more, counting orders that follow on without a gap; None: until lifted."""
    t = at
    for _ in range(len(all_orders) + 1):
        covering = _in_force(all_orders, t)
        if not covering:
            return t
        if any(o.end is None for o in covering):
            return None
        t = max(o.end for o in covering)
    return t


def _order_step(answer: Answer, town: Town, in_force: list[BurningOrder], day: date) -> None:
    """The no-burning order's step: the orders in force at some moment of the time asked about, or none."""
    if in_force:
        recorded = "; ".join(order_words(town, o) for o in in_force)
        _step(answer, town, "no_burning_order", "order_in_effect", day,
              before=f"Recorded: an order {recorded}. ")
    else:
        _step(answer, town, "no_burning_order", "no_order_recorded", day)


def _from(town: Town, t: datetime, orders: list[BurningOrder], short: bool = False) -> str:
    """Words for where an open part begins: at sunrise, when an order ends (7.10(4)), or at the time asked."""
    w = window(town, t.date())
    clock = _clock(t) if short else words_for_time(t)
    if t == w.start:
        return opens(w, clock, short)
    if any(o.end == t for o in orders):
        return f"{clock} (when the order ends)"
    return clock


def _until(town: Town, t: datetime, orders: list[BurningOrder], short: bool = False) -> str:
    """Words for where an open part ends: at sunset, when an order begins, or at the end of the time asked."""
    w = window(town, t.date())
    clock = _clock(t) if short else words_for_time(t)
    if t == w.end:
        return closes(w, clock, short)
    if any(o.start == t for o in orders):
        return f"{clock} (when the order begins)"
    return clock


def _open_words(town: Town, parts: list[tuple[datetime, datetime]], orders: list[BurningOrder],
                short: bool = False, days: bool = False) -> str:
    """"from 8:00 a.m. CDT (when the order ends) until sunset (8:37 p.m. CDT)" for each open part, with its
    day when the parts lie on more than one day or ``days`` (the time asked about spans several)."""
    several = days or len({a.date() for a, _ in parts}) > 1
    to = "to" if short else "until"
    return " and ".join(f"from {_from(town, a, orders, short)} {to} {_until(town, b, orders, short)}"
                        + (f" on {words_for_day(a.date()).split(',')[0] if short else words_for_day(a.date())}"
                           if several else "") for a, b in parts)


def _in_force_words(o: BurningOrder, start: datetime, end: datetime) -> str:
    """Short words for the part of [start, end] order ``o`` covers: "until 12:00 p.m. Saturday", "from 2:00 p.m.
    Saturday", "10:00 a.m. to 12:00 p.m. Saturday"."""
    day = lambda t: words_for_day(t.date()).split(",")[0]  # noqa: E731
    begins = o.start is not None and o.start > start
    ends = o.end is not None and o.end < end
    o = replace(o, start=o.start and o.start.astimezone(start.tzinfo), end=o.end and o.end.astimezone(start.tzinfo))
    if begins and ends:
        return (f"{_clock(o.start)} to {_clock(o.end)} {day(o.end)}" if o.start.date() == o.end.date() else
                f"{day(o.start)} {_clock(o.start)} to {day(o.end)} {_clock(o.end)}")
    if ends:
        return f"until {_clock(o.end)} {day(o.end)}"
    return f"from {_clock(o.start)} {day(o.start)}" if begins else "throughout"


def _later_today(town: Town, all_orders: list[BurningOrder], after: datetime) -> list[tuple[datetime, datetime]]:
    """The open parts of the rest of ``after``'s day (its daylight less the orders in force)."""
    w = window(town, after.date())
    if not w.open:
        return []
    rise, set_ = w.start, w.end
    start = max(after, rise)
    return open_parts([(start, set_)], _in_force(all_orders, start, set_)) if start < set_ else []


def _rule_steps(answer: Answer, town: Town, day: date) -> None:
    """What to do before (notify or get a permit), the rules of a burn the code has, and every penalty rule."""
    _step(answer, town, "burn_notification", scheme(town).before_rule, day)
    for name in OPTIONAL_STEPS:
        if name in town.topics["burning_rules"].rules:
            _step(answer, town, "burning_rules", name, day)
    for name in town.topics["burning_penalties"].rules:
        _step(answer, town, "burning_penalties", name, day)


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
    _step(answer, town, "burning_hours", _hours(town), day, before=f"I understood: {said}. {day_words(w)}")
    for closed in closed_days(town, start, end):
        _closed_step(answer, town, closed, day)
    _holidays_caveat(answer, town, start, end)
    all_orders = _orders(order, orders)
    in_force = _in_force(all_orders, start, end)
    _order_step(answer, town, in_force, day)
    # 7.10(4) forbids burning only while an order is in effect: of an interval, the daylight it leaves is open
    parts = open_parts(overlaps, in_force) if end is not None and in_force else []
    blocked = bool(in_force) and not parts
    match = material_rule(town, material) if material and str(material).strip() else None
    if daylight != "all" and not (moment.kind == "day" and daylight == "some"):
        early = start < rise if end is None else end <= rise
        outside = ("partly after sunset or before sunrise" if w.start_word else
                   f"partly outside {hours_name(town)}")
        where = outside if daylight == "some" else side_words(w, early)
        _step(answer, town, "burning_hours", _exception(town), day,
              before=f"That time is {where}. " if w.open or daylight == "some" else "")
    elif match is None or match.kind not in ("prohibited", "permit_required"):
        _step(answer, town, "burning_hours", _exception(town), day)
    if match is not None:
        _material_steps(answer, town, match, day)
    else:
        _step(answer, town, "prohibited_materials", "reminder", day)

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
    later = _later_today(town, all_orders, after)
    if not later:
        return
    answer.result += f" Later that day burning is not forbidden by the order: {_open_words(town, later, all_orders)}."
    a, b = later[0]
    w = window(town, a.date())
    short = f" Open again from {_clock(a)} " + (f"until {w.end_word}." if b == w.end and w.end_word else
                                                  f"until {_clock(b)}" if b == w.end else f"to {_clock(b)}.")
    if len(answer.lead) + len(short) <= LEAD_LIMIT:
        answer.lead += short


def _result(town, moment, start, end, day, rise, set_, daylight, overlaps, blocked, match, allowed,
            parts=(), in_force=(), stop=None) -> str:
    """The answer's first sentence: the strongest reason first (order, material, hours), the law's words.
    ``parts``: the open parts an order covering only part of the time asked about leaves (7.10(4))."""
    when_words = _when_words(moment, start, day)
    what = f"{match.said} " if match is not None else ""
    rule = lambda topic, name: town.render(_rule(town, topic, name).text, day)  # noqa: E731
    w = window(town, day)
    hours, exception = rule("burning_hours", _hours(town)), rule("burning_hours", _exception(town))
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
                f"{_open_words(town, parts, in_force, days=end.date() > start.date())}, {conditions} {exception}")
    if moment.kind == "day":
        return (f"Yes, you may burn {what}on {words_for_day(day)} between {opens(w, words_for_time(rise))} and "
                f"{closes(w, words_for_time(set_))}, {conditions} {exception}")
    if daylight == "some":
        return (f"Yes, you may burn {what}{when_words} {_span(town, overlaps, w, closed_days(town, start, end))}, "
                f"{conditions} {exception}")
    until = (f"until {closes(w, words_for_time(set_))}" if stop is None or stop >= set_ else
             f"until {words_for_time(stop)} (when the order begins)")
    return f"Yes, you may burn {what}{when_words}, {until}, {conditions}"


LEAD_LIMIT = 160  # GSM-7 characters: one SMS segment


def _cited(text: str, citation) -> str:
    """``text`` with the section in short form before its period ("8:37 p.m." keeps its own)."""
    body = text if text.endswith(("a.m.", "p.m.")) else text.rstrip(".")
    return f"{body} ({rules.short_ref(citation)})."


def _first_sentence(text: str) -> str:
    return text.split(". ")[0].rstrip(".")


def _lead(town, moment, start, end, day, rise, set_, daylight, blocked, match, parts=(), in_force=(),
          stop=None) -> str:
    """One or two sentences that answer "may I burn?": the decision, the time that bounds it, the condition,
    the section. Every statement of law comes from the town's rules; this only picks and shortens."""
    rule = lambda topic, name: _rule(town, topic, name)  # noqa: E731
    if blocked:
        r = rule("no_burning_order", "order_in_effect")
        return _cited(f"No: {_lower(town.render(r.text, day))}", r.citation)
    if match is not None and match.kind in ("prohibited", "permit_required", "conditional"):
        g = match.groups[0]
        said = _first_sentence(g.rule)
        head = {"prohibited": "No", "permit_required": "No, not without the permit",
                "conditional": "It depends"}[match.kind]
        text = _cited(f"{head}: {said}", g.citations[0])
        return text if len(text) <= LEAD_LIMIT else _cited(f"{head}: see the rule for {g.what}", g.citations[0])
    w = window(town, day)
    if daylight == "none":
        early = start < rise if end is None else end <= rise
        side = side_words(w, early, _clock)
        r = rule("burning_hours", _hours(town) if w.open else w.closed_rule)
        hours = town.render(r.lead or r.text, day)
        side = side if side.endswith(".") else f"{side}."  # "12:00 p.m." ends its own sentence
        if early or not w.open:
            return _cited(f"No: that is {side} {hours}", r.citation)
        # after the hours: who may allow it (the town's rule names who: a Town Board, a Fire Department)
        x = rule("burning_hours", _exception(town))
        exception = town.render(x.lead or x.text, day)
        both = _cited(f"No: that is {side} {hours} {exception}", x.citation)
        return both if len(both) <= LEAD_LIMIT else _cited(f"No: that is {side} {exception}", x.citation)
    if match is not None and match.kind == "not_listed":
        r = rule("prohibited_materials", "not_listed")
        words = town.render(r.lead or r.text, day)
        said = _cited(f"{match.said}: {words}", r.citation)  # the resident's words whole, or none of them
        return said if len(said) <= LEAD_LIMIT else _cited(words, r.citation)
    r = rule("burning_rules", "yes_conditions")
    condition = town.render(r.text, day).rstrip(".")
    if parts:  # an order covers part of the time asked about (7.10(4)); the rest of its daylight is open
        return _lead_open_parts(town, moment, start, end, day, parts, in_force, r, condition)
    if moment.kind == "day":
        when = f"{words_for_day(day).split(',')[0]} from {opens(w, _clock(rise))} to {closes(w, _clock(set_))}"
    elif end is not None and end.date() > start.date():  # "this weekend", "this week": several days
        label = (moment.said or "").split(" (")[0] or "on those days"
        when = (f"{label}, each day from sunrise to sunset only ({_clock(rise)} to {_clock(set_)} on "
                f"{words_for_day(day).split(',')[0]})" if w.start_word else
                f"{label}, only from {_clock(rise)} to {_clock(set_)} on each day burning is open")
    elif (daylight == "some" or moment.kind == "evening") and start < rise:  # "from 6 to 8 in the morning"
        when = (f"then from {opens(w, _clock(rise), True).rstrip(',')}, not before" if end is None or end <= set_
                else f"only from {opens(w, _clock(rise))} to {closes(w, _clock(set_))}")
    elif daylight == "some" or moment.kind == "evening":
        when = f"{'tonight' if moment.kind == 'evening' else 'then'} until {closes(w, _clock(set_), True)}, not after"
    else:  # the end of the hours with the time asked: a yes at 7:30 p.m. is a yes until 8:12 p.m. only
        until = (f"until {closes(w, _clock(set_))}" if stop is None or stop >= set_ else
                 f"until {_clock(stop)} (when the order begins)")
        when = f"at {_clock(start)} {words_for_day(day).split(',')[0]}, {until}"
    text = _cited(f"Yes: {when}, {condition}", r.citation)
    return text if len(text) <= LEAD_LIMIT else _cited(f"Yes: {when}, {condition.split(' and ')[0]}", r.citation)


def _lead_open_parts(town, moment, start, end, day, parts, in_force, r, condition) -> str:
    """The "yes" lead when an order covers part of the time asked about: the open parts when they fit in a
    lead, else the daylight less the orders' times; always whole sentences."""
    several = end.date() > start.date()
    label = ("tonight" if moment.kind == "evening" else (moment.said or "").split(" (")[0] or "then" if several
             else words_for_day(day).split(",")[0])
    w = window(town, day)
    span = "sunrise to sunset" if w.start_word else f"{_clock(w.start)} to {_clock(w.end)}"
    hours = f", {span}" if several or moment.kind == "day" else ""
    spans = "; ".join(_in_force_words(o, start, end) for o in in_force)
    whens = (f"{label} only {_open_words(town, parts, in_force, short=True, days=several)}",
             f"{label}{hours}, except during the order ({spans})",
             f"{label}{hours}, except while an order is in force")
    leads = [_cited(f"Yes: {w}, {c}", r.citation) for w in whens for c in (condition, condition.split(" and ")[0])]
    return next((x for x in leads if len(x) <= LEAD_LIMIT), leads[-1])


def _lower(text: str) -> str:
    """A rule's sentence continuing a lead: "A no-burning order ..." -> "a no-burning order ..."."""
    return text[:1].lower() + text[1:] if text[1:2].islower() or text[1:2] == " " else text


def _clock(moment: datetime) -> str:
    """ "8:12 p.m." (the time zone is in the details)."""
    return words_for_time(moment).rsplit(" ", 1)[0]


def burn_window(town: Town, *, day: date, order: BurningOrder | None = None,
                orders: list[BurningOrder] | None = None, at: datetime | None = None) -> Answer:
    """When on ``day`` burning is open, for the burn-notification form: the town's burning window (sunrise to
    sunset, or its clock times; none on a closed day) less every moment a no-burning order is in force (7.10(4) forbids burning only while
    one is); closed only when orders cover all of it. ``at``: a time the resident gave, checked the same way.

    ``value``: sunrise, sunset (the window's ends: the clock times for a clock town), allowed (some part of the day is open), orders (in force that day), open (the
    open parts, [(start, end)]), open_at (``at`` lies in one; None without ``at``). ``data``: hours (a sentence
    saying when burning is open that day, for the form), until (words for the end of the open part ``at`` is
    in: "sunset (8:37 p.m. CDT)", "2:00 p.m. CST (when the order begins)").
    """
    day = a_day(day, "day")
    if not town.topics["burning_hours"].covered:
        return not_covered(town, "burning_hours", day)
    w = window(town, day)
    rise, set_ = w.start, w.end
    answer = Answer(topic="burning_hours", town=town.key, result="")
    hours = _step(answer, town, "burning_hours", _hours(town), day, before=day_words(w))
    _closed_step(answer, town, w)
    _holidays_caveat(answer, town, rise, None)
    _step(answer, town, "burning_hours", _exception(town), day)
    all_orders = _orders(order, orders)
    in_force = _in_force(all_orders, rise, set_)
    _order_step(answer, town, in_force, day)
    parts = open_parts([(rise, set_)], in_force) if w.open else []
    blocked = not parts
    cut = bool(in_force) and not blocked
    open_at = None if at is None else (w.open and rise <= at <= set_ and not _in_force(all_orders, at))
    answer.value = {"sunrise": rise, "sunset": set_, "allowed": not blocked, "orders": in_force, "open": parts,
                    "open_at": open_at}
    daylight = _rule(town, "burning_hours", _hours(town))
    order_rule = _rule(town, "no_burning_order", "order_in_effect")
    if not w.open:  # a closed day (a Sunday, a legal holiday): the rule that closes it stands for the order's
        order_rule = _rule(town, "burning_hours", w.closed_rule)
    weekday = words_for_day(day).split(",")[0]
    from_to = f"from {opens(w, _clock(rise), True)} to {closes(w, _clock(set_), True)}"
    if blocked:
        answer.lead = _cited(f"No: {_lower(town.render(order_rule.text, day))}", order_rule.citation)
    elif cut:
        answer.lead = _cited(f"{weekday}: burning only {_open_words(town, parts, in_force, short=True)}",
                             daylight.citation)
        if len(answer.lead) > LEAD_LIMIT:
            spans = "; ".join(_in_force_words(o, rise, set_) for o in in_force)
            answer.lead = _cited(f"{weekday}: burning only {from_to}, except during the order ({spans})",
                                 daylight.citation)
    else:
        answer.lead = _cited(f"{weekday}: burning only {from_to}", daylight.citation)
    answer.result = (day_words(w)
                     + (town.render(order_rule.text, day) if blocked else
                        f"Burning is open only {_open_words(town, parts, in_force)}. {hours} "
                        f"{town.render(order_rule.text, day)}" if cut else hours))
    refs = rules.short_ref(daylight.citation) + (f", {rules.short_ref(order_rule.citation)}" if cut else "")
    answer.data["hours"] = (
        f"No burning is allowed on {words_for_day(day)}. {town.render(order_rule.text, day)} "
        f"({rules.short_ref(order_rule.citation)})." if blocked else
        f"On {words_for_day(day)} burning is allowed only "
        + (f"{_open_words(town, parts, in_force)} ({refs})." if cut else
           f"between {opens(w, words_for_time(rise))} and {closes(w, words_for_time(set_))} ({refs})."))
    if open_at:
        answer.data["until"] = next(_until(town, b, in_force) for a, b in parts if a <= at <= b)
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
    all_orders = _orders(order, orders)
    if during is None:
        start, end, day = now, None, local.date()
        asked = f"As of {words_for_time(local)} on {words_for_day(day)}"
    else:
        start = during.start
        end = during.end if during.kind != "instant" else None
        day = start.astimezone(tz).date()
        asked = f"For {during.said or words_for_day(day)}"
    in_force = _in_force(all_orders, start, end)
    active = bool(in_force)
    until = _order_end(all_orders, max(start, min((o.start for o in in_force if o.start), default=start))
                       ) if active else None
    later = sorted((o for o in all_orders if o.start is not None and o.start > (end or start)), key=lambda o: o.start)
    answer = Answer(topic="no_burning_order", town=town.key, result="",
                    value={"order_active": active, "until": until.isoformat() if until else None,
                           "until_lifted": active and until is None,
                           "next_start": later[0].start.isoformat() if later else None})
    rule = town.render(_rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded").text,
                       day)
    rule = rule[:1].lower() + rule[1:]
    if active:
        recorded = "; ".join(order_words(town, o) for o in in_force)
        ends = (" It stays in force until it is lifted; no end has been recorded." if until is None else
                f" It ends at {_at(town, until)}.")
        answer.result = f"Yes: {rule} ({asked}: an order {recorded}.){ends}"
    else:
        answer.result = f"No: {rule} ({asked}.)"
        if later:
            answer.result += f" An order is recorded to begin later: {order_words(town, later[0])}."
    now_rule = _rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded")
    answer.lead = _cited(f"{'Yes' if active else 'No'}: {_lower(town.render(now_rule.text, day))}", now_rule.citation)
    if active:
        until_words = " It stays until it is lifted." if until is None else f" It ends {_at(town, until)}."
        if len(answer.lead) + len(until_words) <= LEAD_LIMIT:
            answer.lead += until_words
    answer.step(town.render(t.summary, day), *t.citations)
    status = _rule(town, "no_burning_order", "status_source")
    answer.cite(status.citation)
    answer.caveats.append(town.render(status.text, day))
    answer.cite(_rule(town, "no_burning_order", "order_in_effect" if active else "no_order_recorded").citation)
    answer.caveats.extend(town.render(c, day) for c in t.caveats)
    add_gaps(answer, town, "no_burning_order")
    add_contact(answer, town)
    return answer
