"""Read the words of a time phrase into what they name (a day, a part of the day, a clock time), before
knowledge.when_place puts them on the calendar. The rules of reading are knowledge/when.py's docstring."""

from __future__ import annotations

import re
from calendar import isleap, monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from . import daypart, timewords
from .daypart import Part
from .errors import NeedsClarification
from .model import MONTHS

WEEKDAYS = timewords.WEEKDAYS
_ABBREV = timewords.WEEKDAY_SHORT
MONTH_WORDS = set(timewords.MONTH_NUMBER)
_MONTH_NUMBER = timewords.MONTH_NUMBER
MONTH_RE = timewords.alternation(MONTH_WORDS)
_NOISE = re.compile(r"[?!,;]|\b(please|pls|plz|o'?clock|ish)\b")
_TIME = re.compile(
    r"(?:\b(?P<pre>at|around|about|by|from|after|before|til|till|until)\s+)?"
    r"(?<![\d/:])(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm)?(?![\d/:])(?=\s|$|\.)")
# a 24-hour clock written as four digits: "at 2030", "1900 hrs"
_HHMM = re.compile(r"(?:\b(?P<pre>at|around|about|by|after|before|til|till|until)\s+|@\s*)(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)\b"
                   r"(?:\s*(?:hrs?|hours)\b)?|\b(?P<h2>[01]\d|2[0-3])(?P<m2>[0-5]\d)\s*(?:hrs?|hours)\b")
_CLOCK_WORDS = re.compile(r"\b(?:at |around |about |by )?(noon|midday|midnight)\b")
_DATE_MD = re.compile(rf"\b(?P<mon>{MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:\s+(?P<y>\d{{4}})(?!\s*(?:hrs?|hours)\b))?")
_DATE_DM = re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{MONTH_RE})\b\.?"
                      r"(?:\s+(?P<y>\d{4})(?!\s*(?:hrs?|hours)\b))?")
_DATE_NUM = re.compile(r"\b(?P<mo>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?\b")


@dataclass
class Parsed:
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


def normalise(text: str) -> str:
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


def checked_date(year: int, month: int, day: int, said: str) -> date:
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


def month_day(text: str, today: date, prefer: str) -> tuple[date | None, str]:
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
            return checked_date(year, month, day, said), _cut(text, m)
        before = _YEAR_BEFORE.search(text[:m.start()])
        if before:  # "2023 feb 20"
            year = int(before.group(0).strip(", "))
            return checked_date(year, month, day, f"{said} {year}"), _cut_span(text, before.start(), m.end())
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
        return checked_date(year, month, day, said), _cut(text, m)
    return None, text


def take_part(text: str, p: Parsed) -> str:
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


def take_clock(text: str, p: Parsed) -> str:
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


def take_day(text: str, p: Parsed, today: date, prefer: str) -> str:
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
    found, rest = month_day(text, today, prefer)
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


def absolute_day(text: str, today: date, prefer: str) -> date | None:
    cleaned = re.sub(r"\b(on|the|of|in|for|by|at|during)\b", " ", text)
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", cleaned).strip()
    if not cleaned or not re.search(rf"\d|\b({MONTH_RE})\b", cleaned):
        return None  # "can i burn" is not a date
    settings = {"RELATIVE_BASE": datetime.combine(today, time(12, 0)),
                "PREFER_DATES_FROM": "past" if prefer == "past" else "future",
                "PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False,
                "REQUIRE_PARTS": ["month"], "DATE_ORDER": "MDY"}
    import dateparser  # here, not at the top: its import takes seconds, and clock() users never parse words

    found = dateparser.parse(cleaned, languages=["en"], settings=settings)
    return found.date() if found else None

