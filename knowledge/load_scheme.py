"""Loading town.yml's `burning:` scheme (knowledge/DATA.md "Burning scheme"), checked against the town's
parameters and the rules of its topics.yml; every error names the file and the key."""

from __future__ import annotations

from typing import Any

from . import burn_hours
from .errors import KnowledgeError
from .load_law import File, cite, norm


def load_burning_scheme(f: File, raw: Any, sections, params, topics, topics_file: str):
    """town.yml `burning:` (knowledge/DATA.md "Burning scheme"): the hours (daylight or clock), their parameters,
    closed days and legal holidays, what comes before a burn (notify or permit), and the rules each needs; None
    for a town that covers no burning."""
    covered = "burning_hours" in topics and topics["burning_hours"].covered
    if raw is None:
        if covered:
            raise f.fail("burning", "missing: a town that covers burning names its hours (daylight or clock)")
        return None
    b = f.mapping(raw, "burning", {"hours", "before"}, {"start", "end", "closed", "legal_holidays", "orders_by"})
    kind = b["hours"]
    if kind not in burn_hours.SCHEME_RULES:
        raise f.fail("burning.hours", f"must be one of {', '.join(burn_hours.SCHEME_RULES)}, not {kind!r}")
    before = b["before"]
    if before not in burn_hours.BEFORE_RULES:
        raise f.fail("burning.before", f"must be one of {', '.join(burn_hours.BEFORE_RULES)}, not {before!r}")
    ends = {}
    for end in ("start", "end"):
        if kind == "daylight":
            if end in b:
                raise f.fail(f"burning.{end}", "a daylight scheme runs from sunrise to sunset: no clock times")
            continue
        if end not in b:
            raise f.fail(f"burning.{end}", "missing: a clock scheme names the time_of_day parameter of "
                                                 f"its window's {end}")
        name = f.text(b[end], f"burning.{end}")
        if name not in params:
            raise f.fail(f"burning.{end}", f"names no parameter: {name!r}")
        if params[name].unit != "time_of_day" or not params[name].values:
            raise f.fail(f"burning.{end}", f"{name!r} must be a time_of_day parameter with a value")
        ends[end] = name
    if ends:
        days = sorted({v.since for n in ends.values() for v in params[n].values})
        for day in days:
            opens, closes = (getattr(params[ends[e]].at(day), "value", None) for e in ("start", "end"))
            if opens is not None and closes is not None and not opens < closes:  # "HH:MM": compared as text
                raise f.fail("burning.end", f"the window must end after it starts: {opens} to {closes} from {day}")
    closed = tuple(f.listing(b.get("closed"), "burning.closed"))
    for c in closed:
        if c not in burn_hours.CLOSED_DAY_RULES:
            raise f.fail("burning.closed", f"unknown closed day {c!r}; one of "
                                                 f"{', '.join(burn_hours.CLOSED_DAY_RULES)}")
    holidays, cited = (), None
    if "legal_holidays" in closed:
        if b.get("legal_holidays") is None:
            raise f.fail("burning.legal_holidays", "missing: closed on legal holidays needs their dates")
        h = f.mapping(b["legal_holidays"], "burning.legal_holidays", {"reference", "days"})
        cited = cite(f, sections, h["reference"], "burning.legal_holidays.reference")
        text = norm(cited.section.text_at(cited.path))
        days = []
        for i, d in enumerate(f.listing(h["days"], "burning.legal_holidays.days")):
            key = f"burning.legal_holidays.days[{i}]"
            d = f.mapping(d, key, {"date", "name"})
            name = f.text(d["name"], f"{key}.name")
            if norm(name) not in text:
                raise f.fail(f"{key}.name", f"{name!r} is not named in {cited.label}")
            days.append((f.day(d["date"], f"{key}.date"), name))
        holidays = tuple(days)
    elif b.get("legal_holidays") is not None:
        raise f.fail("burning.legal_holidays", "dates given but `closed` does not name legal_holidays")
    who, who_cited = "", None
    if b.get("orders_by") is not None:
        o = f.mapping(b["orders_by"], "burning.orders_by", {"who", "reference"})
        who = f.text(o["who"], "burning.orders_by.who").strip()
        who_cited = cite(f, sections, o["reference"], "burning.orders_by.reference")
        if norm(who) not in norm(who_cited.section.text_at(who_cited.path)):
            raise f.fail("burning.orders_by.who", f"{who!r} is not named in {who_cited.label}")
    elif covered and "no_burning_order" in topics and topics["no_burning_order"].covered:
        raise f.fail("burning.orders_by", "missing: a town with no-burning orders names who issues them")
    scheme = burn_hours.Scheme(kind, ends.get("start", ""), ends.get("end", ""), closed, holidays, cited, before,
                               who, who_cited)
    if covered:
        needed = {t: set(n) for t, n in burn_hours.BURNING_RULES.items()}
        needed["burning_hours"] |= set(burn_hours.SCHEME_RULES[kind]) | {burn_hours.CLOSED_DAY_RULES[c] for c in closed}
        needed["burn_notification"] |= {burn_hours.BEFORE_RULES[before]}
        for topic, names in needed.items():
            have = topics[topic].rules if topic in topics else {}
            for name in sorted(names - set(have)):
                raise KnowledgeError(topics_file, f"{topic}.rules.{name}",
                                     f"the burning scheme of town.yml ({kind} hours, {before} before) needs this rule")
        if not topics["burning_penalties"].rules:
            raise KnowledgeError(topics_file, "burning_penalties.rules", "the burning handler states these: give one")
    return scheme
