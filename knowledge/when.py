"""Turn residents' date and time phrases into concrete moments in the town's time zone.

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
from calendar import isleap, monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from . import daypart, timewords
from .daypart import NIGHT, WHOLE_DAY, Part
from .errors import NeedsClarification
from .model import MONTHS, Town
from .settings import pinned_now

WEEKDAYS = timewords.WEEKDAYS
_ABBREV = timewords.WEEKDAY_SHORT
# Evening: the part of the day a resident means by "tonight" (18:00 to midnight: time.yml's evening).
EVENING = (daypart.EVENING.start, daypart.EVENING.end)
MONTH_WORDS = set(timewords.MONTH_NUMBER)
_MONTH_NUMBER = timewords.MONTH_NUMBER
_MONTH_RE = timewords.alternation(MONTH_WORDS)
_NOISE = re.compile(r"[?!,;]|\b(please|pls|plz|o'?clock|ish)\b")
_TIME = re.compile(
    r"(?:\b(?P<pre>at|around|about|by|from|after|before|til|till|until)\s+)?"
    r"(?<![\d/:])(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm)?(?![\d/:])(?=\s|$|\.)")
# a 24-hour clock written as four digits: "at 2030", "1900 hrs"
_HHMM = re.compile(r"(?:\b(?P<pre>at|around|about|by|after|before|til|till|until)\s+|@\s*)(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)\b"
                   r"(?:\s*(?:hrs?|hours)\b)?|\b(?P<h2>[01]\d|2[0-3])(?P<m2>[0-5]\d)\s*(?:hrs?|hours)\b")
_CLOCK_WORDS = re.compile(r"\b(?:at |around |about |by )?(noon|midday|midnight)\b")
_DATE_MD = re.compile(rf"\b(?P<mon>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:\s+(?P<y>\d{{4}})(?!\s*(?:hrs?|hours)\b))?")
_DATE_DM = re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_RE})\b\.?"
                      r"(?:\s+(?P<y>\d{4})(?!\s*(?:hrs?|hours)\b))?")
_DATE_NUM = re.compile(r"\b(?P<mo>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?\b")
_IN = re.compile(r"\b(?:in|within)\s+(?P<n>an?|one|two|three|four|five|six|\d+|half an?|a couple(?: of)?|"
                 r"couple(?: of)?)\s*(?P<u>hours?|hrs?|h|minutes?|mins?|m)\b")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class Moment:
    """A resolved phrase. ``kind``: "instant" (``end`` None), "day" (the whole day, 00:00-23:59), "evening"
    (tonight, today 18:00-23:59) or "interval" (any other part of a day or the weekend: ``part`` names it)."""
    start: datetime
    end: datetime | None
    kind: str  # "instant" | "day" | "evening" | "interval"
    said: str
    part: str | None = None  # "morning", "afternoon", "evening", "night", "weekend", "sunset" ...

    @property
    def day(self) -> date:
        return self.start.date()


class AmbiguousTime(NeedsClarification):
    """A phrase with two readings. ``choices`` are the words for each reading, in the order the question names
    them ("9 a.m.", "9 p.m."): the resident's pick, added to the original phrase, resolves it."""

    def __init__(self, message: str, choices: tuple[str, ...] = (), field: str = "when"):
        super().__init__(message, field=field)
        self.choices = choices


@dataclass
class _Parsed:
    """What the words of a phrase named, before they are put on the calendar."""
    day: date | None = None
    explicit_today: bool = False
    said_tomorrow: bool = False
    part: Part | None = None
    part_word: str = ""
    weekend: bool = False
    week: str = ""  # "this" | "next": the calendar week (Monday to Sunday) as a whole
    clock: tuple[int, int, str] | None = None  # hour, minute, "am" | "pm" | "24" | "" (bare)
    clock_text: str = ""
    midnight: bool = False
    sun: str | None = None
    notes: list[str] = field(default_factory=list)
    day_only: bool = False  # parse_day: only the day matters, so a.m. or p.m. need not be asked


def clock(town: Town) -> datetime:
    """Now in the town's time zone; ``ASSISTANT_NOW`` (ISO 8601) pins it for tests and demos."""
    tz = ZoneInfo(town.timezone)
    pinned = pinned_now()
    if pinned:
        value = datetime.fromisoformat(pinned)
        return value.astimezone(tz) if value.tzinfo else value.replace(tzinfo=tz)
    return datetime.now(tz)


def _local_now(town: Town, now: datetime) -> datetime:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise NeedsClarification("I need to know the time zone of that time.", field="now")
    return now.astimezone(ZoneInfo(town.timezone))


def words_for_day(day: date) -> str:
    return f"{WEEKDAYS[day.weekday()].capitalize()}, {MONTHS[day.month - 1]} {day.day}, {day.year}"


def words_for_time(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'} {moment.tzname()}"


def _normalise(text: str) -> str:
    raw = daypart.normalise_sun(text)  # lower case, shorthand, "the sun goes down" -> "sunset", "late at night"
    raw = re.sub(r"(\d)\s*([ap])\.?\s?m\b\.?", r"\1 \2m", raw)   # "9pm" "9 p.m." "9PM" -> "9 pm"
    raw = re.sub(r"(\d)([ap])\b", r"\1 \2m", raw)                 # "9p" -> "9 pm"
    raw = re.sub(r"\b([ap])\.\s?m\.", r"\1m", raw)                # "in the a.m." -> "in the am"
    raw = re.sub(r"\blast night\b", "yesterday night", raw)
    raw = re.sub(r"\bmay (i|we|you|he|she|they)\b|\bthe sun\b", " ", raw)  # not the month, not Sunday
    raw = raw.replace("@", " at ")
    raw = _NOISE.sub(" ", raw)
    return re.sub(r"\s+", " ", raw).strip(" .")


def _cut(text: str, m: re.Match) -> str:
    return _cut_span(text, m.start(), m.end())


def _cut_span(text: str, start: int, end: int) -> str:
    """``text`` without ``text[start:end]``, its spaces closed up."""
    return re.sub(r"\s+", " ", text[:start] + " " + text[end:]).strip()


#: words before a clock time that bound the burn rather than state it ("after 5", "until 2030")
_BOUND_WORDS = ("after", "before", "by", "til", "till", "until")


def _weekday(word: str) -> int | None:
    word = word.lower().rstrip(".")
    if word in WEEKDAYS:
        return WEEKDAYS.index(word)
    if word.endswith("s") and word[:-1] in WEEKDAYS:
        return WEEKDAYS.index(word[:-1])
    return _ABBREV.get(word)


def _by(said: str | None) -> str:
    """' by "next tues"' for a short phrase; nothing for a whole sentence (an answer never repeats the
    resident's message back)."""
    said = " ".join((said or "").split())
    return f' by "{said}"' if said and len(said.split()) <= 4 and len(said) <= 40 else ""


def _checked_date(year: int, month: int, day: int, said: str) -> date:
    """The date, or a question when it does not exist in that year (never another year)."""
    if not 1 <= month <= 12:
        raise NeedsClarification(f"I couldn't tell which date you mean by \"{said}\". Could you give it like "
                                 "\"June 6\"?", field="when")
    if not 1 <= day <= monthrange(year, month)[1]:
        name = MONTHS[month - 1]
        if month == 2 and day == 29:
            raise NeedsClarification(f"February 29 doesn't exist in {year} ({year} is not a leap year). "
                                     "Did you mean February 28 or March 1?", field="when")
        raise NeedsClarification(f"{name} has only {monthrange(year, month)[1]} days, so there is no {name} "
                                 f"{day}. Which day do you mean?", field="when")
    return date(year, month, day)


# a year said just before the month and day ("2023 feb 20"); a year further away may be another fact's ("we moved
# in 2020 and are moving on July 10")
_YEAR_BEFORE = re.compile(r"(?<!\bat )(?<!@)\b(?:19|20)\d{2},?\s*$")


def _month_day(text: str, today: date, prefer: str) -> tuple[date | None, str]:
    """'July 4', 'the 4th of July', '7/4', 'Feb 29 2028' -> a date; the year, when not said, is the next
    (``prefer`` "future") or last ("past") occurrence of that month and day."""
    for pattern in (_DATE_MD, _DATE_DM, _DATE_NUM):
        m = pattern.search(text)
        if not m:
            continue
        month = int(m.group("mo")) if "mo" in pattern.groupindex else _MONTH_NUMBER[m.group("mon")]
        day = int(m.group("d"))
        said = m.group(0).strip()
        if m.group("y"):
            year = int(m.group("y"))
            year = year + 2000 if year < 100 else year
            return _checked_date(year, month, day, said), _cut(text, m)
        before = _YEAR_BEFORE.search(text[:m.start()])
        if before:  # "2023 feb 20"
            year = int(before.group(0).strip(", "))
            return _checked_date(year, month, day, f"{said} {year}"), _cut_span(text, before.start(), m.end())
        if not 1 <= month <= 12 or not 1 <= day <= 31:
            raise NeedsClarification(f"I couldn't tell which date you mean by \"{said}\". Could you give it "
                                     "like \"June 6\"?", field="when")
        later = (month, day) >= (today.month, today.day)
        if prefer == "past":
            year = today.year if (month, day) <= (today.month, today.day) else today.year - 1
        else:
            year = today.year if later else today.year + 1
        if month == 2 and day == 29 and not isleap(year):
            raise NeedsClarification(f"February 29 doesn't exist in {year} ({year} is not a leap year). "
                                     "Did you mean February 28 or March 1?", field="when")
        return _checked_date(year, month, day, said), _cut(text, m)
    return None, text


def _take_part(text: str, p: _Parsed) -> str:
    if re.search(r"\bnext weekend\b", text):
        raise NeedsClarification("By \"next weekend\", do you mean this coming weekend or the one after (a date "
                                 "like \"Saturday, June 6\" settles it)?", field="when")
    m = re.search(r"\b(?:this |the |on the )?weekend\b", text)
    if m:
        p.weekend, text = True, _cut(text, m)
    if re.search(r"\bweek (after|before|of)\b|\b(later|earlier) this week\b", text):
        raise NeedsClarification("Which day do you mean? A date like \"June 6\" settles it.", field="when")
    m = re.search(r"\b(this|next) week\b", text)
    if m and not p.weekend:
        p.week, text = m.group(1), _cut(text, m)
    for words, part, today in daypart.PART_WORDS:
        m = re.search(rf"\b(?:{words})\b", text)
        if m:
            if p.part is daypart.FIRST_THING and part is daypart.MORNING:
                text = _cut(text, m)  # "first thing tomorrow morning"
                continue
            if p.part is not None and p.part is not part:
                raise NeedsClarification(f"\"{p.part_word}\" and \"{m.group(0)}\" are different times of day. "
                                         "Which do you mean?", field="when")
            p.part, p.part_word = part, m.group(0)
            p.explicit_today = p.explicit_today or today
            if m.group(0).startswith("tomorrow") or "tomorrow" in m.group(0):
                p.said_tomorrow = True
            text = _cut(text, m)
    dark, light = daypart.after_dark(text), daypart.BEFORE_LIGHT.search(text)
    m = dark or light or daypart.SUN_PATTERN.search(text)
    if m:
        p.sun = "dusk" if m is dark else "dawn" if m is light else daypart.SUN_WORDS[m.group(1)]
        text = _cut(text, m)
    m = _CLOCK_WORDS.search(text)
    if m:
        if m.group(1) == "midnight":
            p.midnight = True
        else:
            p.clock, p.clock_text = (12, 0, "pm"), "noon"
        text = _cut(text, m)
    return text


def _take_clock(text: str, p: _Parsed) -> str:
    """A clock time: "9", "9:30", "9 pm", "21:00", "09:00"; a bare number counts only after "at" and the
    like, or when the phrase names a day or a part of the day ("tomorrow 9", "tonight 9")."""
    context = bool(p.part or p.day or p.explicit_today or re.search(r"\b(today|tomorrow|tonight)\b", text)
                   or re.search(r"\b(" + "|".join(WEEKDAYS) + "|" + "|".join(_ABBREV) + r")s?\b", text))
    hhmm = _HHMM.search(text)
    if hhmm:
        rest = _cut(text, hhmm)
        if _HHMM.search(rest) or any(m.group("ap") or m.group("m") or m.group("pre") for m in _TIME.finditer(rest)):
            raise NeedsClarification("I see two times there. Which time do you mean?", field="time")
        hour, minute = int(hhmm.group("h") or hhmm.group("h2")), int(hhmm.group("m") or hhmm.group("m2"))
        p.clock, p.clock_text = (hour, minute, "24"), hhmm.group(0).strip()
        if hhmm.group("pre") in _BOUND_WORDS:
            p.notes.append(f"{hhmm.group('pre')} that time")
        return _cut(text, hhmm)
    strong, weak = [], []
    for m in _TIME.finditer(text):
        if int(m.group("h")) > 24 and not (m.group("ap") or m.group("m")) and m.group("pre") in (None, "around", "about"):
            continue  # "gusts around 30", "about 40 feet": a number, never a clock ("today at 25" is asked back)
        if m.group("ap") or m.group("m") or m.group("pre"):
            strong.append(m)
        elif context:
            weak.append(m)  # "tomorrow 9"; but "2 piles ... tonight at 9" takes the "at 9"
    found = strong or (weak if len(weak) == 1 else [])
    if len(found) > 1:
        raise NeedsClarification("I see two times there. Which time do you mean?", field="time")
    if not found:
        return text
    m = found[0]
    hour, minute, ap = int(m.group("h")), int(m.group("m") or 0), m.group("ap") or ""
    if hour > 23 or minute > 59 or (ap and not 1 <= hour <= 12):
        raise NeedsClarification("That time doesn't look right. What time do you mean?", field="time")
    if not ap and (hour == 0 or hour >= 13 or m.group("h").startswith("0")):
        ap = "24"
    p.clock, p.clock_text = (hour, minute, ap), m.group(0).strip()
    if m.group("pre") in _BOUND_WORDS:
        p.notes.append(f"{m.group('pre')} that time")
    return _cut(text, m)


def _take_day(text: str, p: _Parsed, today: date, prefer: str) -> str:
    if p.said_tomorrow or re.search(r"\btomorrow\b", text):
        if re.search(r"\bday after tomorrow\b", text):
            p.day = today + timedelta(days=2)
            return _cut(text, re.search(r"\b(the )?day after tomorrow\b", text))
        p.said_tomorrow = True
        p.day = today + timedelta(days=1)
        m = re.search(r"\btomorrow\b", text)
        return _cut(text, m) if m else text
    m = re.search(r"\b(yesterday|yday)\b", text)
    if m:
        p.day = today - timedelta(days=1)
        return _cut(text, m)
    m = re.search(r"\b(today|later today|later)\b", text)
    if m:
        p.day, p.explicit_today = today, True
        return _cut(text, m)
    if p.explicit_today:
        p.day = today
        return text
    found, rest = _month_day(text, today, prefer)
    if found:
        p.day = found
        return rest
    for m in re.finditer(r"\b(?:(next|this|last|on|coming|past)\s+)?([a-z]+\.?)", text):
        wd = _weekday(m.group(2))
        if wd is None:
            continue
        qualifier = m.group(1)
        if qualifier in ("last", "past") or (qualifier in (None, "on") and prefer == "past"):
            p.day = today - timedelta(days=(today.weekday() - wd) % 7 or 7)
        else:
            ahead = (wd - today.weekday()) % 7
            if qualifier == "next" and ahead == 0:
                ahead = 7
            p.day = today + timedelta(days=ahead)
            p.explicit_today = ahead == 0
        return _cut(text, m)
    return text


def _absolute_day(text: str, today: date, prefer: str) -> date | None:
    cleaned = re.sub(r"\b(on|the|of|in|for|by|at|during)\b", " ", text)
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", cleaned).strip()
    if not cleaned or not re.search(rf"\d|\b({_MONTH_RE})\b", cleaned):
        return None  # "can i burn" is not a date
    settings = {"RELATIVE_BASE": datetime.combine(today, time(12, 0)),
                "PREFER_DATES_FROM": "past" if prefer == "past" else "future",
                "PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False,
                "REQUIRE_PARTS": ["month"], "DATE_ORDER": "MDY"}
    import dateparser  # here, not at the top: its import takes seconds, and clock() users never parse words

    found = dateparser.parse(cleaned, languages=["en"], settings=settings)
    return found.date() if found else None


def _hour_24(p: _Parsed) -> tuple[int, int, int]:
    """(hour, minute, days to add) for the clock time, read with the part of the day; asks when unclear."""
    hour, minute, ap = p.clock
    part = p.part
    said = p.clock_text
    both = f"Do you mean {hour}{':%02d' % minute if minute else ''}"
    if ap == "24":
        h24 = hour
    elif ap in ("am", "pm"):
        h24 = (hour % 12) + (12 if ap == "pm" else 0)
    else:
        h24 = None
    if part is None:
        if h24 is not None:
            return h24, minute, 0
        if p.day_only and 1 <= hour <= 12:
            return hour % 12, minute, 0  # either reading falls on the same day
        if 1 <= hour <= 4:
            p.notes.append(f"\"{said}\" read as {hour} in the afternoon; say \"{hour} a.m.\" if you meant the night")
            return hour + 12, minute, 0
        if hour == 12:
            raise AmbiguousTime(f"{both} noon or midnight?", choices=("noon", "midnight"))
        later = "at night" if hour > 8 else "in the evening"
        raise AmbiguousTime(f"{both} in the morning or {hour} {later}?", choices=(f"{said} am", f"{said} pm"))
    if h24 is not None:
        start = part.start.hour
        if part.after_midnight and h24 < 4:
            p.notes.append("after midnight")
            return h24, minute, 1
        if part is NIGHT and h24 == 0:
            return 0, minute, 1
        if start <= h24 <= part.end.hour or (part.pm and h24 >= 12 and h24 >= start - 2) \
                or (part.am and h24 < 12 and h24 >= start - 2):
            return h24, minute, 0
        raise NeedsClarification(f"\"{p.part_word}\" and \"{said}\" don't go together. What time do you mean?",
                                 field="time")
    if hour in part.after_midnight:
        p.notes.append(f"\"{p.part_word} at {hour}\" read as after midnight")
        return hour % 12, minute, 1
    if hour in part.am:
        return hour, minute, 0
    if hour in part.pm:
        return (hour % 12) + 12, minute, 0
    if p.day_only and 1 <= hour <= 12:
        return hour % 12, minute, 0
    raise AmbiguousTime(f"\"{p.part_word} at {hour}\" isn't clear to me. {both} a.m. or {hour} p.m.?",
                        choices=(f"{said} am", f"{said} pm"))


def resolve(text: str, town: Town, now: datetime, prefer: str = "future") -> Moment:
    """A concrete moment for a phrase: "now", "tonight", "at 10pm", "tomorrow at 3", "Friday night",
    "in 2 hours", "on July 4", "from 8 to 11 tonight". Raises NeedsClarification (AmbiguousTime with both
    readings) when unsure."""
    ranged = _range(text, town, now, prefer)
    return ranged if ranged is not None else _resolve(text, town, now, prefer, day_only=False)


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
    raw = _normalise(text)
    wait = _WAIT.search(raw)
    if wait:  # "in 15-20 mins": from now + 15 to now + 20 minutes
        local = _local_now(town, now).replace(microsecond=0)
        unit = 60 if wait.group("u").startswith("h") else 1
        start, end = (local + timedelta(minutes=int(wait.group(k)) * unit) for k in ("a", "b"))
        if end <= start:
            raise NeedsClarification(f"How long from now do you mean (\"{(text or '').strip()}\")?", field="time")
        return Moment(start, end, "interval", f"{words_for_day(start.date())} from {words_for_time(start)} to "
                                              f"{words_for_time(end)} ({wait.group(0)[3:].strip()} from now)")
    m = _RANGE.search(raw)
    if m and re.search(r"\b(?:" + _MONTH_RE + r")\.?\s*$", raw[:m.start()]):
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
    first = _resolve(raw[:m.start()] + f" at {a} " + raw[m.end():], town, now, prefer, day_only=False)
    last = _resolve(raw[:m.start()] + f" at {b} " + raw[m.end():], town, now, prefer, day_only=False)
    if first.end is not None or last.end is not None or last.start <= first.start:
        raise NeedsClarification(f"From what time to what time do you mean (\"{(text or '').strip()}\")?",
                                 field="time")
    return Moment(first.start, last.start, "interval",
                  f"{words_for_day(first.start.date())} from {words_for_time(first.start)} to "
                  f"{words_for_time(last.start)}")


def _resolve(text: str, town: Town, now: datetime, prefer: str, day_only: bool) -> Moment:
    local = _local_now(town, now).replace(microsecond=0)
    tz = ZoneInfo(town.timezone)
    raw = _normalise(text)
    if not raw:
        raise NeedsClarification("Which day and time do you mean?", field="when")
    now_words = re.compile(r"\b(right now|now|rn|at the moment|currently|immediately|asap)\b")
    if now_words.search(raw):
        others = now_words.sub(" ", raw)
        if not re.search(r"\d|\b(to|2)ni|\b(today|tomorrow|tonight|morning|afternoon|evening|night|noon|midnight|"
                         r"weekend|sunset|sunrise|dawn|dusk)\b|\b(" + "|".join(WEEKDAYS) + r")\b", others):
            return Moment(local, None, "instant", f"now ({words_for_day(local.date())}, {words_for_time(local)})")
        raw = re.sub(r"\s+", " ", others).strip()  # "I know it's late now, but tonight at 9?"
    iso = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::\d{2})?)?", raw)
    if iso:
        day = _checked_date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)), raw)
        if iso.group(4):
            start = datetime.combine(day, time(int(iso.group(4)), int(iso.group(5))), tz)
            return Moment(start, None, "instant", f"{words_for_day(day)} at {words_for_time(start)}")
        return _whole_day(day, tz)
    if re.search(r"\bin (a few|a bit|a while|some) (hours?|hrs?|minutes?|mins?)\b|\bin a (bit|while)\b", raw):
        raise NeedsClarification("About what time do you mean, for example \"3 p.m.\"?", field="time")
    m = _IN.search(raw)
    if m:
        n = m.group("n")
        amount = 0.5 if n.startswith("half") else 2 if "couple" in n else _NUMBER_WORDS.get(n) or int(n)
        minutes = amount * (60 if m.group("u").startswith("h") else 1)
        start = local + timedelta(minutes=minutes)
        return Moment(start, None, "instant", f"{words_for_day(start.date())} at {words_for_time(start)} "
                                              f"({m.group(0)[3:].strip()} from now)")
    p = _Parsed(day_only=day_only)
    rest = _take_part(raw, p)
    today = local.date()
    date_first, rest2 = _month_day(rest, today, prefer)  # a date's number is never a clock time
    if date_first:
        p.day, rest = date_first, rest2
    rest = _take_clock(rest, p)
    if p.day is None:
        rest = _take_day(rest, p, today, prefer)
    if p.week and p.day is not None:  # "next week Tuesday": which Tuesday is not worth guessing
        raise NeedsClarification(f"Which date do you mean (\"{(text or '').strip()}\")? A date like \"June 6\" "
                                 "settles it.", field="when")
    if p.week and not p.weekend:
        return _week(p, today, local, tz, prefer)
    if p.day is None and not p.weekend:
        p.day = _absolute_day(rest, today, prefer)
        if p.day is None and not (p.part or p.clock or p.midnight or p.sun):
            raise NeedsClarification(f"I couldn't tell which day you mean{_by(text)}. "
                                     "Could you give a date, like \"June 6\"?", field="when")
    if p.said_tomorrow and local.hour < 4:
        later = today + timedelta(days=1)
        raise AmbiguousTime(f"It's past midnight: by \"tomorrow\" do you mean later today ({words_for_day(today)}) "
                            f"or {words_for_day(later)}?", choices=(today.isoformat(), later.isoformat()))
    if p.weekend:
        return _weekend(p, today, local, tz, prefer)
    return _place(p, town, local, tz, prefer)


def _whole_day(day: date, tz: ZoneInfo) -> Moment:
    start = datetime.combine(day, time(0, 0), tz)
    return Moment(start, datetime.combine(day, time(23, 59), tz), "day", words_for_day(day))


def _weekend(p: _Parsed, today: date, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
    if p.clock or p.midnight or p.sun or p.part:
        raise AmbiguousTime("Which day of the weekend do you mean, Saturday or Sunday?", choices=("Saturday", "Sunday"))
    saturday = today + timedelta(days=(5 - today.weekday()) % 7) if today.weekday() != 6 else today - timedelta(1)
    part = p.part or WHOLE_DAY
    start = datetime.combine(saturday, part.start, tz)
    end = datetime.combine(saturday + timedelta(days=1), part.end, tz)
    return _days(start, end, local, prefer, f"this weekend{' ' + p.part_word if p.part else ''}", "weekend")


def _week(p: _Parsed, today: date, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
    """"this week": from now (or today's start) to Sunday night; "next week": the next Monday to Sunday."""
    if p.clock or p.midnight or p.sun or p.part:
        raise NeedsClarification(f"Which day {p.week} week do you mean? A day like \"Tuesday\" or a date like "
                                 "\"June 6\" settles it.", field="when")
    monday = today - timedelta(days=today.weekday()) + timedelta(days=7 if p.week == "next" else 0)
    start = datetime.combine(max(monday, today), WHOLE_DAY.start, tz)
    end = datetime.combine(monday + timedelta(days=6), WHOLE_DAY.end, tz)
    return _days(start, end, local, prefer, f"{p.week} week", "week")


def _days(start: datetime, end: datetime, local: datetime, prefer: str, label: str, part: str) -> Moment:
    """An interval of several days ("this weekend", "next week"), from now when it has begun and the future is
    asked about, said with its ends: "this week (Monday, June 1, 2026 10:00 a.m. CDT to Sunday, ...)"."""
    if prefer == "future" and start < local <= end:
        start = local
    return Moment(start, end, "interval", f"{label} ({words_for_day(start.date())} {words_for_time(start)} to "
                                          f"{words_for_day(end.date())} {words_for_time(end)})", part=part)


def _place(p: _Parsed, town: Town, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
    today = local.date()
    named = p.day is not None
    day = p.day or today
    explicit_today = p.explicit_today and day == today
    if p.sun:
        if p.clock or p.midnight:
            raise NeedsClarification(f"Do you mean {p.sun} or {p.clock_text or 'midnight'}?", field="time")
        start = daypart.sun_event(town, day, p.sun)
        if not named and prefer == "future" and start < local:
            start = daypart.sun_event(town, day + timedelta(days=1), p.sun)
        return _instant(start, local, prefer, explicit_today, f"{p.sun}")
    if p.midnight:
        if p.part is not None and p.part not in (NIGHT, daypart.EVENING):
            raise AmbiguousTime(f"\"{p.part_word}\" and \"midnight\" don't go together. Do you mean midnight at "
                                f"the start or at the end of {words_for_day(day)}?")
        start = datetime.combine(day + timedelta(days=1), time(0, 0), tz)
        return Moment(start, None, "instant", f"midnight at the end of {words_for_day(day)} "
                                              f"({words_for_day(start.date())} at {words_for_time(start)})",
                      part="midnight")
    if p.clock is not None:
        hour, minute, extra = _hour_24(p)
        start = datetime.combine(day + timedelta(days=extra), time(hour, minute), tz)
        if not named and prefer == "future" and start < local:
            start += timedelta(days=1)
        note = "; ".join(p.notes)
        return _instant(start, local, prefer, explicit_today and not p.day_only, note)
    if p.part is not None:
        start = datetime.combine(day, p.part.start, tz)
        end = datetime.combine(day, p.part.end, tz)
        if not named and prefer == "future" and end < local:
            start, end, day = start + timedelta(days=1), end + timedelta(days=1), day + timedelta(days=1)
        elif not named and prefer == "future" and start < local and p.part is not NIGHT:
            # "in the morning" said at 9 a.m.: the rest of this morning, or tomorrow morning?
            raise AmbiguousTime(f"Do you mean \"{p.part_word}\" today (from now until {words_for_time(end)}) "
                                "or tomorrow?", choices=("today", "tomorrow"))
        if prefer == "future" and end < local:
            raise AmbiguousTime(f"The {p.part.name} of {words_for_day(day)} has already passed. Do you mean "
                                f"the {p.part.name} of {words_for_day(day + timedelta(days=1))}?")
        if prefer == "future" and start < local:
            start = local
        tonight = day == today and p.part in (NIGHT, daypart.EVENING) and p.part_word in ("tonight", "this evening",
                                                                                          "this eve")
        label = (p.part.name if p.part.name not in ("morning", "afternoon", "evening", "night") else
                 "tonight" if day == today and p.part is NIGHT else
                 f"{'this' if day == today else WEEKDAYS[day.weekday()].capitalize()} {p.part.name}")
        said = f"{label} ({words_for_day(day)}, {words_for_time(start)} to {words_for_time(end)})"
        return Moment(start, end, "evening" if tonight else "interval", said, part=p.part.name)
    if prefer == "future" and day == today and local > datetime.combine(day, time(0, 0), tz):
        start = local
        return Moment(start, datetime.combine(day, time(23, 59), tz), "day",
                      f"{words_for_day(day)} (from now, {words_for_time(start)}, to the end of the day)")
    return _whole_day(day, tz)


def _instant(start: datetime, local: datetime, prefer: str, explicit_today: bool, note: str) -> Moment:
    if prefer == "future" and explicit_today and start < local:
        raise AmbiguousTime(f"{words_for_time(start)} today has already passed (it's {words_for_time(local)} now). "
                            f"Do you mean tomorrow at {words_for_time(start)}?")
    said = f"{words_for_day(start.date())} at {words_for_time(start)}"
    if start.date() == local.date() + timedelta(days=1):
        said += " (tomorrow)"
    return Moment(start, None, "instant", said + (f" ({note})" if note else ""))


def parse_day(text: str, town: Town, now: datetime, prefer: str = "past") -> date:
    """A calendar day from a phrase ("March 3", "last Tuesday", "yesterday", "2026-03-03").

    ``prefer`` "past" (incidents, acquiring a dog) or "future" (burns, buying a license) settles phrases
    that name no year or week.
    """
    moment = _resolve(text, town, now, prefer, day_only=True)
    return moment.day
