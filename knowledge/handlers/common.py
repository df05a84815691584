"""Helpers every handler shares: reading parameters with their citations, gaps, and the clerk's contact."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from ..errors import NeedsClarification
from ..model import Answer, Citation, TopicRule, Town


def use(answer: Answer, town: Town, name: str, day: date) -> Any:
    """The value of parameter ``name`` on ``day``, citing where it comes from (None if not published)."""
    p = town.param(name)
    answer.cite(p.reference)
    v = p.at(day)
    if v is not None and v.source:
        answer.caveats.append(f"{p.description}: {p.format(v.value)} from the {town.municipality}'s fee schedule "
                              f"({v.source}).")
    return None if v is None else v.value


def fmt(town: Town, name: str, value: Any) -> str:
    return town.param(name).format(value)


def not_covered(town: Town, topic: str, on: date) -> Answer:
    """The town's code is silent on ``topic``: say so and give the clerk's contact, never borrow a rule."""
    t = town.topics[topic]
    answer = Answer(topic=topic, town=town.key,
                    result=f"{town.name}'s code, as we hold it, does not cover {t.title.lower()}.",
                    lead=f"Our copy of {town.short_name}'s code does not cover {t.title.lower()}. "
                         f"Please ask {ask_clerk(town)}.")
    if town.scope is not None:
        answer.step(f"The {town.code_name} we hold covers {town.scope.quote}.", town.scope)
    if t.note:  # backed by the related rules the note names (the topic's citations), else by the scope
        answer.step(town.render(t.note, on), *(t.citations or ((town.scope,) if town.scope is not None else ())))
    answer.caveats.append(f"For an answer, ask: {town.contact_line()}.")
    return answer


LEAD_LIMIT = 160  # GSM-7 characters: one SMS segment
_REF = re.compile(r"\((Wis\. [^()]*|[0-9][0-9.\-]*)(\([^()]*\))*[a-z]?\)")


def lead_from_result(answer: Answer, prefer: Citation | None = None, limit: int = LEAD_LIMIT,
                     shorter: tuple[str, ...] = ()) -> str:
    """A lead cut from the answer's own result: the longest run of its first whole sentences that fits in one
    SMS segment, else the first of ``shorter`` (the handler's shorter wordings of the first sentence) that fits,
    else the first sentence's opening statement (before its colon, semicolon or dash); with the section in
    short form if the words kept do not already name one. Never a sentence cut mid-phrase: when nothing fits,
    the shortest whole candidate is the lead (the tests keep every handler's leads within the limit)."""
    from ..rules import short_ref
    text = " ".join(answer.result.split())
    sentences = re.split(r"(?<=[.?!])\s+(?=[A-Z])", text)
    candidates = [" ".join(sentences[:i]) for i in range(len(sentences), 0, -1)]
    candidates += [" ".join(s.split()) for s in shorter]
    first = sentences[0].rstrip(".")
    for sep in ("; ", " — ", ": "):
        if sep in first:
            candidates.append(first.split(sep)[0])
    ref = prefer or (answer.citations[0] if answer.citations else None)
    leads = []
    for c in candidates:
        c = c.rstrip()
        tail = "" if _REF.search(c) or ref is None else f" ({short_ref(ref)})."
        c = f"{c.rstrip('.')}{tail}" if tail else c if c.endswith((".", "?", "!")) else c + "."
        if len(c) <= limit:
            return c
        leads.append(c)
    return min(leads, key=len)


def with_lead(handler):
    """Give the answer of ``handler`` a lead cut from its result when the handler set none of its own."""
    import functools

    @functools.wraps(handler)
    def wrapped(*args, **kwargs):
        answer = handler(*args, **kwargs)
        if not answer.lead:
            answer.lead = lead_from_result(answer)
        return answer
    return wrapped


def ask_clerk(town: Town) -> str:
    """ "the Dunkirk Clerk, 608-555-0100" for a lead; without a phone while the contact is a placeholder."""
    phone = "" if town.clerk.placeholder or not town.clerk.phone else f", {town.clerk.phone}"
    return f"the {town.short_name} Clerk{phone}"


def add_gaps(answer: Answer, town: Town, topic: str, day: date | None = None) -> None:
    """The gaps of our copy that bear on ``topic``, as caveats; who sets a missing fee is the town's own word
    (town.yml `fees_set_by`), for render.gap_lines. A gap about amounts the fee schedule gives on ``day`` is told
    in its `filled` words, or not at all."""
    said = [w for w in (gap_words(town, g, day) for g in town.gaps_for(topic)) if w]
    if said:
        answer.data.setdefault("fees_set_by", town.fees_set_by)
    for words in said:
        text = f"Our copy of the code has a gap: {words}"
        if text not in answer.caveats:
            answer.caveats.append(text)


def gap_words(town: Town, gap, day: date | None) -> str:
    """What an answer on ``day`` says of ``gap``: `filled` once the fee schedule gives each `filled_by` amount."""
    if gap.filled_by and day is not None and all(
            (v := town.param(n).at(day)) is not None and v.source for n in gap.filled_by):
        return gap.filled
    return gap.what


def add_contact(answer: Answer, town: Town) -> None:
    line = f"Questions: {town.contact_line()}."
    if line not in answer.caveats:
        answer.caveats.append(line)


def whole_count(value: Any, field: str, what: str, low: int = 0, high: int = 1000) -> int:
    """A count of animals a resident gave, checked: whole, not negative, not absurd."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NeedsClarification(f"How many {what}? Please give a whole number.", field=field)
    if value < low:
        raise NeedsClarification(f"The number of {what} can't be {'negative' if value < 0 else value}. "
                                 f"How many {what} do you mean?", field=field)
    if value > high:
        raise NeedsClarification(f"{value} {what} is more than I can work with. How many {what} do you mean?",
                                 field=field)
    return value


def a_day(value: Any, field: str) -> date:
    if not isinstance(value, date):
        raise NeedsClarification("Which date do you mean?", field=field)
    return value.date() if hasattr(value, "date") and callable(value.date) else value


def a_past_day(value: Any, field: str, today: date, question: str) -> date:
    """``a_day``, and not after ``today``: a day in the future is asked back with ``question`` (formatted with
    ``day``, "{day:%B %-d, %Y} is in the future...")."""
    day = a_day(value, field)
    if day > today:
        raise NeedsClarification(question.format(day=day), field=field)
    return day


def say_rule(answer: Answer, town: Town, rule: TopicRule, on: date, step: bool = True) -> str:
    """The text of a topic rule (topics.yml) rendered for ``on``: a step citing it, or only its citation when
    ``step`` is False (the text then goes in the result or a caveat)."""
    text = town.render(rule.text, on)
    if step:
        answer.step(text, rule.citation)
    else:
        answer.cite(rule.citation)
    return text


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
