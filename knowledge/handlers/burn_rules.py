"""The town's burning rules as cited steps, and the short wordings every burning answer shares.

Each rule is one of the town's burning topics (topics.yml; for Dunkirk Code 7.09 to 7.13), rendered with its
parameters and backed by its citation; the hours and the rule for burning outside them are the town's scheme
(knowledge/burn_hours.py). Nothing here states law.
"""

from __future__ import annotations

from datetime import date, datetime

from ..errors import KnowledgeError
from ..model import PLACEHOLDER, Answer, Town, TopicRule
from ..burn_hours import Window, scheme
from ..when import words_for_day, words_for_time
from .. import rules


def burning_rule(town: Town, topic: str, name: str) -> TopicRule:
    """The town's rule ``topic.name`` (topics.yml); a covered town that lacks it is a data error."""
    try:
        return town.topics[topic].rules[name]
    except KeyError:
        raise KnowledgeError(f"knowledge/towns/{town.key}/topics.yml", f"{topic}.rules.{name}",
                             "the burning handler needs this rule") from None


def rule_step(answer: Answer, town: Town, topic: str, name: str, day: date, before: str = "") -> str:
    """Add the town's rule ``topic.name`` as a step backed by its citation; returns its text."""
    rule = burning_rule(town, topic, name)
    text = town.render(rule.text, day)
    citations = [rule.citation] + [town.param(m).reference for m in _placeholders(rule.text)]
    answer.step(f"{before}{text}", *citations)
    return text


def _placeholders(text: str) -> list[str]:
    return [m.group(1) for m in PLACEHOLDER.finditer(text)]


def hours_rule(town: Town) -> str:
    """The town's rule for its burning hours: `daylight_only` or `clock_window` (knowledge.burn_hours)."""
    return scheme(town).hours_rule


def exception_rule(town: Town) -> str:
    """The town's rule for burning outside its hours: `after_sunset_exception` or `outside_hours_exception`."""
    return scheme(town).exception_rule


def closed_step(answer: Answer, town: Town, w: Window, asked: date | None = None) -> None:
    """The rule that closes ``w``'s day, as a step ("That day is a Sunday. ..."; another day of the time asked
    about by its date)."""
    if not w.open:
        name = "That day" if asked in (None, w.day) else words_for_day(w.day)
        rule_step(answer, town, "burning_hours", w.closed_rule, w.day, before=f"{name} is {w.closed_reason}. ")


def holidays_caveat(answer: Answer, town: Town, start: datetime, end: datetime | None) -> None:
    """A town closed on legal holidays whose dates we hold do not reach the year asked about: say so, citing the
    rule, rather than answer as if no day were a holiday."""
    years = sorted({d.year for d in (start.date(), (end or start).date()) if scheme(town).holidays_unknown(d)})
    if years:
        r = burning_rule(town, "burning_hours", "closed_legal_holidays")
        answer.cite(r.citation)
        answer.caveats.append(f"{town.render(r.text, start.date())} The dates of legal holidays we hold do not "
                              f"reach {' and '.join(map(str, years))}: whether that day is one, ask the "
                              f"{town.contact_line()}.")


def cited(text: str, citation) -> str:
    """``text`` with the section in short form before its period ("8:37 p.m." keeps its own)."""
    body = text if text.endswith(("a.m.", "p.m.")) else text.rstrip(".")
    return f"{body} ({rules.short_ref(citation)})."


def lower_first(text: str) -> str:
    """A rule's sentence continuing a lead: "A no-burning order ..." -> "a no-burning order ..."."""
    return text[:1].lower() + text[1:] if text[1:2].islower() or text[1:2] == " " else text


def short_time(moment: datetime) -> str:
    """ "8:12 p.m." (the time zone is in the details)."""
    return words_for_time(moment).rsplit(" ", 1)[0]
