"""The burn notice's day and time against the town's burning window (knowledge/burn_hours.py): the window of a
day, a bare hour read in daylight, the words for when burning closes, and a reply to a time asked back."""
from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from rasa_sdk import Tracker

from knowledge import NeedsClarification, burn_hours, handlers, when

from . import common
from .readers.burning import pick_for


def burn_window(t, day: date, at: datetime | None = None):
    """(sunrise, sunset, closed all day, answer) for ``day`` from knowledge's burn_window: the daylight less the
    orders in force; with ``at``, answer.value["open_at"] says whether that time is open."""
    answer = handlers.burn_window(t, day=day, orders=common.burning_orders(t), at=at)
    v = answer.value or {}
    return v.get("sunrise"), v.get("sunset"), not v.get("allowed", True), answer


def daylight_reading(t, day: date, hour: int, minute: int) -> time | None:
    """A bare hour ("1", "at 7") on ``day``: its one reading that lies within the burning hours (1 a.m. is before
    sunrise, so "1" is 1 p.m.; the read-back shows it before anything is saved), or None when both or neither
    do (then the form asks which is meant)."""
    if not 1 <= hour <= 12 or not 0 <= minute <= 59:
        return None
    tz = ZoneInfo(t.timezone)
    readings = [time(hour % 12 + half, minute) for half in (0, 12)]
    open_ = [r for r in readings if burn_window(t, day, at=datetime.combine(day, r, tz))[3].value.get("open_at")]
    return open_[0] if len(open_) == 1 else None


def closed_at(start: datetime, window, t=None) -> str:
    """"No: 7:00 p.m is after sunset (6:12 p.m. CDT)." (a clock town: "... is after 7:00 p.m. CDT.") for a time
    outside the burning hours, "No: ... is on a Sunday." on a day the town closes, "No: burning is not allowed at
    ..." for one an order covers (the hours sentence that follows says which). The ends' words are the town's
    burning window's (knowledge/burn_hours.py)."""
    rise, set_ = window.value["sunrise"], window.value["sunset"]
    clock = when.words_for_time(start).rsplit(" ", 1)[0].rstrip(".")
    w = burn_hours.window(t or common.town(), start.date())
    if not w.open:
        return f"No: {clock} is on {w.closed_reason}."
    if start < rise:
        return f"No: {clock} is {burn_hours.side_words(w, True)}."
    if start > set_:
        return f"No: {clock} is {burn_hours.side_words(w, False)}."
    return f"No: burning is not allowed at {clock}."


def closing_words(t, day: date) -> str:
    """Where the day's burning window closes, in words: "sunset" or, for a clock window, "7:00 p.m. CDT"."""
    w = burn_hours.window(t, day)
    return w.end_word or when.words_for_time(w.end)


def resolve_with_pending(value: str, tracker: Tracker, t):
    """when.resolve of a reply to "About what time?"; after "Do you mean 9 in the morning or 9 at night?" the
    reply ("pm", "at night", "9pm") is read against the phrase asked about."""
    pending = tracker.get_slot("pending_when")
    now = common.now(t)
    if isinstance(pending, dict) and pending.get("phrase"):
        phrase = pick_for(pending, value)
        if phrase:
            try:
                return when.resolve(phrase, t, now=now, prefer="future")
            except when.AmbiguousTime:
                raise
            except NeedsClarification:
                pass
    return when.resolve(value, t, now=now, prefer="future")
