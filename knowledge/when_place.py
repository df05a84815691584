"""Put what the words of a time phrase named (knowledge.when_parse) on the town's calendar: the Moment, in the
town's time zone, with the words to read back to the resident; a phrase with two readings is asked back."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from . import daypart
from .daypart import NIGHT, WHOLE_DAY
from .errors import NeedsClarification
from .model import MONTHS, Town
from .when_parse import (WEEKDAYS, Parsed, absolute_day, checked_date, month_day, normalise, take_clock, take_day,
                         take_part)


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


def local_now(town: Town, now: datetime) -> datetime:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise NeedsClarification("I need to know the time zone of that time.", field="now")
    return now.astimezone(ZoneInfo(town.timezone))


def words_for_day(day: date) -> str:
    return f"{WEEKDAYS[day.weekday()].capitalize()}, {MONTHS[day.month - 1]} {day.day}, {day.year}"


def words_for_time(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'} {moment.tzname()}"


def _by(said: str | None) -> str:
    """' by "next tues"' for a short phrase; nothing for a whole sentence (an answer never repeats the
    resident's message back)."""
    said = " ".join((said or "").split())
    return f' by "{said}"' if said and len(said.split()) <= 4 and len(said) <= 40 else ""


def _hour_24(p: Parsed) -> tuple[int, int, int]:
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


_IN = re.compile(r"\b(?:in|within)\s+(?P<n>an?|one|two|three|four|five|six|\d+|half an?|a couple(?: of)?|"
                 r"couple(?: of)?)\s*(?P<u>hours?|hrs?|h|minutes?|mins?|m)\b")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def moment_of(text: str, town: Town, now: datetime, prefer: str, day_only: bool) -> Moment:
    """The Moment of a phrase with no clock range in it (knowledge.when.resolve reads the ranges)."""
    local = local_now(town, now).replace(microsecond=0)
    tz = ZoneInfo(town.timezone)
    raw = normalise(text)
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
        day = checked_date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)), raw)
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
    p = Parsed(day_only=day_only)
    rest = take_part(raw, p)
    today = local.date()
    date_first, rest2 = month_day(rest, today, prefer)  # a date's number is never a clock time
    if date_first:
        p.day, rest = date_first, rest2
    rest = take_clock(rest, p)
    if p.day is None:
        rest = take_day(rest, p, today, prefer)
    if p.week and p.day is not None:  # "next week Tuesday": which Tuesday is not worth guessing
        raise NeedsClarification(f"Which date do you mean (\"{(text or '').strip()}\")? A date like \"June 6\" "
                                 "settles it.", field="when")
    if p.week and not p.weekend:
        return _week(p, today, local, tz, prefer)
    if p.day is None and not p.weekend:
        p.day = absolute_day(rest, today, prefer)
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


def _weekend(p: Parsed, today: date, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
    if p.clock or p.midnight or p.sun or p.part:
        raise AmbiguousTime("Which day of the weekend do you mean, Saturday or Sunday?", choices=("Saturday", "Sunday"))
    saturday = today + timedelta(days=(5 - today.weekday()) % 7) if today.weekday() != 6 else today - timedelta(1)
    part = p.part or WHOLE_DAY
    start = datetime.combine(saturday, part.start, tz)
    end = datetime.combine(saturday + timedelta(days=1), part.end, tz)
    return _days(start, end, local, prefer, f"this weekend{' ' + p.part_word if p.part else ''}", "weekend")


def _week(p: Parsed, today: date, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
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


def _place(p: Parsed, town: Town, local: datetime, tz: ZoneInfo, prefer: str) -> Moment:
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

