"""Turn residents' date and time phrases into concrete moments in the town's time zone.

This module reads clock ranges ("from 8 to 11 tonight") and is the API; knowledge.when_parse reads the words of
one time and knowledge.when_place puts them on the calendar.

The words around a time decide it, never a rule about the number alone (issue #10):

- "tonight at 9", "this evening at 8", "Friday night at 7", "after dinner at 7": p.m.; "tonight at 1": 1 a.m. the
  next day; "tonight at 12" and "midnight": the midnight that ends the named day.
- "tomorrow morning at 6", "first thing at 7", "9 in the morning": a.m.; "this afternoon at 2": p.m.
- "9pm", "9 p.m.", "9PM", "21:00", "09:00": as written; words that contradict them ("tonight at 9am") are asked back.
- A bare hour with no such words: 1-4 read as p.m. (no resident burns "at 3" meaning 3 a.m., the town's
  earliest sunrise is after 5 a.m., and the reading is echoed in ``said``); 5-11 and 12 are asked back
  ("9 in the morning or 9 at night?"): both readings are plausible for those hours (a farmer's 5 a.m. in July,
  an evening fire at 7) and a wrong "Yes, you may burn" is the worst answer.
- A part of the day without a clock time is an interval (see knowledge.daypart), never the whole day.
- "at sunset", "at dawn": the town's own sun times (knowledge.daypart.sun_event).
- "in 2 hours": now plus two hours, on the next day when that crosses midnight.
- A date that does not exist ("February 29" in a non-leap year, "June 31") is asked back, never moved to
  another year.
- With ``prefer="future"`` a time explicitly today that has passed ("this morning at 9" at 10 p.m.) is asked
  back; a time without a day ("at 9am" at 10 p.m.) is the next one (tomorrow), and ``said`` says so; an
  interval already under way starts now. "tomorrow" said between midnight and 4 a.m. is asked back.
Every result carries ``said``: the concrete date and time in words, to read back to the resident.
dateparser does the general date parsing of what remains ("in May", "the 4th of July").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from . import daypart
from .errors import NeedsClarification
from .model import Town
from .settings import pinned_now
from .when_parse import MONTH_RE, MONTH_WORDS, WEEKDAYS, normalise  # noqa: F401 - importable from here
from .when_place import AmbiguousTime, Moment, local_now, moment_of, words_for_day, words_for_time  # noqa: F401

# Evening: the part of the day a resident means by "tonight" (18:00 to midnight: time.yml's evening).
EVENING = (daypart.EVENING.start, daypart.EVENING.end)


def clock(town: Town) -> datetime:
    """Now in the town's time zone; ``ASSISTANT_NOW`` (ISO 8601) pins it for tests and demos."""
    tz = ZoneInfo(town.timezone)
    pinned = pinned_now()
    if pinned:
        value = datetime.fromisoformat(pinned)
        return value.astimezone(tz) if value.tzinfo else value.replace(tzinfo=tz)
    return datetime.now(tz)


def resolve(text: str, town: Town, now: datetime, prefer: str = "future") -> Moment:
    """A concrete moment for a phrase: "now", "tonight", "at 10pm", "tomorrow at 3", "Friday night",
    "in 2 hours", "on July 4", "from 8 to 11 tonight". Raises NeedsClarification (AmbiguousTime with both
    readings) when unsure."""
    ranged = _range(text, town, now, prefer)
    return ranged if ranged is not None else moment_of(text, town, now, prefer, day_only=False)


_CLOCK = r"\d{1,2}(?::\d{2})?(?:\s?[ap]m)?"
#: "from 8 to 11 tonight", "between 2 and 4 tomorrow", "8-11pm", "after 8 tonight": a burn that lasts, so its end
#: counts as much as its start (never "Yes: at 8:00 p.m." for a fire that burns until 11)
_RANGE = re.compile(r"(?<![\d/:.-])(?:\b(?:from|between) )?(?P<a>" + _CLOCK + r")\s*(?P<sep>to|-|until|till|til|and|thru|"
                    r"through)\s*(?P<b>" + _CLOCK + r")(?![\d/:.-])(?!\s*(?:hours?|hrs?|h|minutes?|mins?|days?|weeks?)\b)")
_OPEN = re.compile(r"\b(?:after|from|past) (?P<a>" + _CLOCK + r")(?![\d/:.-])")
_LATE_PART = re.compile(r"\b(tonight|evening|night)\b")
#: a clock range's context: "tomorrow morning 6-8" is hours, "7-4" alone is a date
_CLOCK_CONTEXT = re.compile(r"\b(?:tonight|morning|afternoon|evening)\b")
#: "in 15-20 mins", "within 2 to 3 hours": a wait, from now
_WAIT = re.compile(r"\b(?:in|within)\s+(?P<a>\d+)\s*(?:-|to)\s*(?P<b>\d+)\s*(?P<u>hours?|hrs?|h|minutes?|mins?)\b")


def _range(text: str, town: Town, now: datetime, prefer: str) -> Moment | None:
    """The interval of a clock range ("from 8 to 11 tonight": 8 to 11 p.m.; "after 8 tonight": 8 p.m. to the end of
    the evening); None when the phrase has no range. A range that ends before it starts is asked back."""
    raw = normalise(text)
    wait = _WAIT.search(raw)
    if wait:  # "in 15-20 mins": from now + 15 to now + 20 minutes
        local = local_now(town, now).replace(microsecond=0)
        unit = 60 if wait.group("u").startswith("h") else 1
        start, end = (local + timedelta(minutes=int(wait.group(k)) * unit) for k in ("a", "b"))
        if end <= start:
            raise NeedsClarification(f"How long from now do you mean (\"{(text or '').strip()}\")?", field="time")
        return Moment(start, end, "interval", f"{words_for_day(start.date())} from {words_for_time(start)} to "
                                              f"{words_for_time(end)} ({wait.group(0)[3:].strip()} from now)")
    m = _RANGE.search(raw)
    if m and re.search(r"\b(?:" + MONTH_RE + r")\.?\s*$", raw[:m.start()]):
        return None  # "June 6 to 8": days
    if m and m.group("sep") == "-" and not re.search(r"[ap]m", m.group(0)):
        if not _CLOCK_CONTEXT.search(raw):
            return None  # "7-4", "on 12-5 at night": a date
        if re.search(r"\bon\s*$", raw[:m.start()]) or re.search(r"\d", raw[:m.start()] + raw[m.end():]):
            # "july 4 morning 4-6": hours beside a date, or a date beside a part of the day? ask, never half of it
            raise NeedsClarification(f"From what time to what time do you mean (\"{(text or '').strip()}\")? For "
                                     "example \"from 6 a.m. to 8 a.m.\".", field="time")
    if m:
        a, b = m.group("a"), m.group("b")
    else:
        m = _OPEN.search(raw)
        if m is None or not _LATE_PART.search(raw):
            return None
        a, b = m.group("a"), "11:59 pm"
    hour = lambda clock: int(re.match(r"\d+", clock).group(0)) % 12  # noqa: E731
    ap = re.search(r"[ap]m$", b)
    if not re.search(r"[ap]m$", a) and hour(a) > hour(b) > 0 and (ap is None or ap.group(0) == "pm") \
            and not _LATE_PART.search(raw):
        a, b = f"{a} am", b if ap else f"{b} pm"  # "10 to 2pm", "9 to 5": across noon
    elif ap and not re.search(r"[ap]m$", a):
        a = f"{a} {ap.group(0)}"  # "8 to 11pm": 8 p.m.
    first = moment_of(raw[:m.start()] + f" at {a} " + raw[m.end():], town, now, prefer, day_only=False)
    last = moment_of(raw[:m.start()] + f" at {b} " + raw[m.end():], town, now, prefer, day_only=False)
    if first.end is not None or last.end is not None or last.start <= first.start:
        raise NeedsClarification(f"From what time to what time do you mean (\"{(text or '').strip()}\")?",
                                 field="time")
    return Moment(first.start, last.start, "interval",
                  f"{words_for_day(first.start.date())} from {words_for_time(first.start)} to "
                  f"{words_for_time(last.start)}")


def parse_day(text: str, town: Town, now: datetime, prefer: str = "past") -> date:
    """A calendar day from a phrase ("March 3", "last Tuesday", "yesterday", "2026-03-03").

    ``prefer`` "past" (incidents, acquiring a dog) or "future" (burns, buying a license) settles phrases
    that name no year or week.
    """
    moment = moment_of(text, town, now, prefer, day_only=True)
    return moment.day
