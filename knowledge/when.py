"""Turn residents' date and time phrases into concrete moments in the town's time zone.

dateparser 1.2.0 does the general parsing; the phrases it misses or misreads are normalised here first:
"now", "tonight", "this evening", "this weekend", "next/last/this <weekday>", "tomorrow at 3" (a bare hour
is read as the afternoon for 1-6 and the morning for 7-11), "in May" (the first of the month).
Every result carries ``said``: the concrete date and time in words, to read back to the resident.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import dateparser

from .errors import NeedsClarification
from .model import MONTHS, Town

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ABBREV = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
           "sun": 6}
# Evening: the part of the day a resident means by "tonight" (18:00 to midnight).
EVENING = (time(18, 0), time(23, 59))
_TIME = re.compile(
    r"(?:\b(?:at|@|around|about|by|from)\s*)?\b(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)?(?=\s|$|[,.!?])"
    r"|\b(?P<word>noon|midday|midnight)\b")
_NOISE = re.compile(r"[?!,;]|\b(please|pls|plz)\b")


@dataclass(frozen=True)
class Moment:
    start: datetime
    end: datetime | None
    kind: str  # "instant" | "day" | "evening"
    said: str

    @property
    def day(self) -> date:
        return self.start.date()


def clock(town: Town) -> datetime:
    """Now in the town's time zone; ``ASSISTANT_NOW`` (ISO 8601) pins it for tests and demos."""
    tz = ZoneInfo(town.timezone)
    pinned = os.environ.get("ASSISTANT_NOW")
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


def _take_time(text: str) -> tuple[time | None, str]:
    """Find a time of day; return it and the text without it."""
    for m in _TIME.finditer(text):
        if m.group("word"):
            t = time(0, 0) if m.group("word") == "midnight" else time(12, 0)
            return t, (text[:m.start()] + text[m.end():]).strip()
        hour, minute, ap = int(m.group("h")), int(m.group("m") or 0), (m.group("ap") or "").replace(".", "")
        preceded = text[:m.start()].rstrip().split()[-1:] if m.start() else []
        explicit = bool(ap or m.group("m") or re.match(r"\s*(at|@|around|about|by|from)\b", m.group(0)))
        if not explicit:
            continue  # a bare number ("march 3", "3 dogs") is not a time
        if preceded and preceded[0] in {*MONTH_WORDS} and not ap and not m.group("m"):
            continue
        if hour > 23 or minute > 59 or (ap and not 1 <= hour <= 12):
            raise NeedsClarification("That time doesn't look right. What time do you mean?", field="time")
        if ap == "pm" and hour != 12:
            hour += 12
        elif ap == "am" and hour == 12:
            hour = 0
        elif not ap and 1 <= hour <= 6:
            hour += 12  # "at 3" in a resident's message means the afternoon
        return time(hour, minute), (text[:m.start()] + text[m.end():]).strip()
    return None, text


MONTH_WORDS = {m.lower() for m in MONTHS} | {m.lower()[:3] for m in MONTHS} | {"sept"}


def _weekday(word: str) -> int | None:
    word = word.lower()
    if word in WEEKDAYS:
        return WEEKDAYS.index(word)
    if word.endswith("s") and word[:-1] in WEEKDAYS:
        return WEEKDAYS.index(word[:-1])
    return _ABBREV.get(word)


def _relative_day(text: str, today: date, prefer: str) -> tuple[date | None, str]:
    """Days named relative to today; (None, kind) when the text names none of them."""
    t = text
    if re.search(r"\b(day after tomorrow)\b", t):
        return today + timedelta(days=2), "day"
    if re.search(r"\b(tomorrow|tmrw|tmr|tomorow|tommorow|tommorrow)\b", t):
        return today + timedelta(days=1), "day"
    if re.search(r"\b(yesterday|yday)\b", t):
        return today - timedelta(days=1), "day"
    if re.search(r"\b(tonight|tonite|2nite|this evening|this eve)\b", t):
        return today, "evening"
    if re.search(r"\b(today|this afternoon|this morning)\b", t):
        return today, "day"
    if re.search(r"\b(this weekend|the weekend)\b", t):
        return today + timedelta(days=(5 - today.weekday()) % 7), "day"
    for m in re.finditer(r"\b(?:(next|this|last|on|coming|past)\s+)?([a-z]+)\b", t):
        wd = _weekday(m.group(2))
        if wd is None:
            continue
        qualifier = m.group(1)
        if qualifier in ("last", "past") or (qualifier in (None, "on") and prefer == "past"):
            back = (today.weekday() - wd) % 7 or 7
            return today - timedelta(days=back), "day"
        ahead = (wd - today.weekday()) % 7
        if qualifier == "next" and ahead == 0:
            ahead = 7
        return today + timedelta(days=ahead), "day"
    return None, ""


def _absolute_day(text: str, today: date, prefer: str) -> date | None:
    cleaned = re.sub(r"\b(on|the|of|in|for|by|at|during)\b", " ", text)
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", cleaned).strip()
    if not cleaned or not re.search(r"\d|[a-z]{3}", cleaned):
        return None
    settings = {"RELATIVE_BASE": datetime.combine(today, time(12, 0)),
                "PREFER_DATES_FROM": "past" if prefer == "past" else "future",
                "PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False,
                "REQUIRE_PARTS": ["month"], "DATE_ORDER": "MDY"}
    found = dateparser.parse(cleaned, languages=["en"], settings=settings)
    return found.date() if found else None


def parse_day(text: str, town: Town, now: datetime, prefer: str = "past") -> date:
    """A calendar day from a phrase ("March 3", "last Tuesday", "yesterday", "2026-03-03").

    ``prefer`` "past" (incidents, acquiring a dog) or "future" (burns, buying a license) settles phrases
    that name no year or week.
    """
    moment = resolve(text, town, now, prefer=prefer)
    return moment.day


def resolve(text: str, town: Town, now: datetime, prefer: str = "future") -> Moment:
    """A concrete moment for a phrase: "now", "tonight", "at 10pm", "tomorrow at 3", "on July 4"."""
    local = _local_now(town, now)
    tz = ZoneInfo(town.timezone)
    raw = _NOISE.sub(" ", (text or "").lower()).strip()
    if not raw:
        raise NeedsClarification("Which day and time do you mean?", field="when")
    if re.search(r"\b(now|right now|rn|at the moment|currently|immediately)\b", raw):
        return Moment(local, None, "instant", f"now ({words_for_day(local.date())}, {words_for_time(local)})")
    iso = re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?)?", raw)
    if iso:
        parsed = datetime.fromisoformat(raw.upper().replace(" ", "T"))
        day, at = parsed.date(), (parsed.time() if "t" in raw or " " in raw else None)
        kind = "day"
    else:
        at, rest = _take_time(raw)
        day, kind = _relative_day(rest, local.date(), prefer)
        if day is None:
            day = _absolute_day(rest, local.date(), prefer)
            kind = "day"
        if day is None:
            if at is None:
                raise NeedsClarification(f"I couldn't tell which day you mean by \"{text.strip()}\". "
                                         "Could you give a date, like \"June 6\"?", field="when")
            day = local.date()
    if at is not None:
        start = datetime.combine(day, at, tz)
        return Moment(start, None, "instant", f"{words_for_day(day)} at {words_for_time(start)}")
    if kind == "evening":
        start, end = (datetime.combine(day, t, tz) for t in EVENING)
        return Moment(start, end, "evening", f"tonight ({words_for_day(day)}, evening)")
    start = datetime.combine(day, time(0, 0), tz)
    return Moment(start, datetime.combine(day, time(23, 59), tz), "day", words_for_day(day))
