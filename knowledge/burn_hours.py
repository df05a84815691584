"""When on a given day a town allows open burning, by the scheme its town.yml names (knowledge/DATA.md
"Burning scheme").

``daylight``: from sunrise to sunset (Dunkirk Code 7.11 "between sunrise and sunset"), ends named "sunrise" and
"sunset". ``clock``: from one clock time to another, both dated parameters of the town (the fixture town
Fairview's 9.04(1)), ends named by their time alone. Either may close on named days (``sundays``, ``legal_holidays``),
each backed by a rule of the town's `burning_hours` topic; the legal holidays are dated data with a citation.
Nothing here states law: the rules and numbers are the town's, checked at load (knowledge/load_scheme.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from .model import Citation
from .sun import sun_times
from .when import words_for_day, words_for_time

#: every rule a covered town's burning topics must carry whatever its scheme (the burning handler states them)
BURNING_RULES = {
    "burning_hours": ("not_prohibited_permitted",),
    "burning_rules": ("yes_conditions", "attend", "weather", "setback"),
    "burn_notification": (),
    "prohibited_materials": ("reminder", "state_rules_clause", "not_listed"),
    "no_burning_order": ("order_in_effect", "no_order_recorded", "status_source"),
    "burning_penalties": (),  # every rule of the topic is a step, in its order (at least one)
}
#: rules of `burning_rules` stated as steps, in this order, where the town's code has them
OPTIONAL_STEPS = ("attend", "weather", "setback", "firebreaks", "air_rules", "landowner_responsible")
#: what must come before a burn (town.yml `burning.before`), and the `burn_notification` rule that says so
BEFORE_RULES = {"notify": "notify_first", "permit": "permit_first"}
#: the schemes and, for each, the rules of `burning_hours` it needs: (the hours, the exception to them)
SCHEME_RULES = {"daylight": ("daylight_only", "after_sunset_exception"),
                "clock": ("clock_window", "outside_hours_exception")}
#: closed days a town may name, and the `burning_hours` rule that says so
CLOSED_DAY_RULES = {"sundays": "closed_sundays", "legal_holidays": "closed_legal_holidays"}


@dataclass(frozen=True)
class Scheme:
    """A town's burning hours as town.yml declares them (``burning:``)."""

    kind: str  # "daylight" or "clock"
    start: str = ""  # clock: the parameter (time_of_day) at which burning opens
    end: str = ""  # clock: the parameter at which it closes
    closed: tuple[str, ...] = ()  # "sundays", "legal_holidays"
    holidays: tuple[tuple[date, str], ...] = ()  # the legal holidays: (date, name)
    holidays_citation: Citation | None = None  # where the code names them
    before: str = "notify"  # "notify" (the fire department is told) or "permit" (one is granted)
    orders_by: str = ""  # who issues no-burning orders ("Town Board", "Fire Department"), named in the cited text
    orders_citation: Citation | None = None  # where the code says so

    @property
    def hours_rule(self) -> str:
        return SCHEME_RULES[self.kind][0]

    @property
    def exception_rule(self) -> str:
        return SCHEME_RULES[self.kind][1]

    @property
    def before_rule(self) -> str:
        return BEFORE_RULES[self.before]

    def holidays_unknown(self, day: date) -> bool:
        """Closed on legal holidays, but no date of ``day``'s year is listed: whether it is one is not known."""
        return "legal_holidays" in self.closed and all(d.year != day.year for d, _ in self.holidays)


DAYLIGHT = Scheme("daylight")


@dataclass(frozen=True)
class Window:
    """The burning window of one day: its ends (computed even on a closed day, for the words), what to call
    them ("sunrise"/"sunset", or "" for a clock time) and, on a closed day, the rule and the day's name."""

    day: date
    start: datetime
    end: datetime
    start_word: str = ""
    end_word: str = ""
    closed_rule: str = ""  # "" when open; else the `burning_hours` rule that closes the day
    closed_reason: str = ""  # "a Sunday", "a legal holiday (Independence Day)"

    @property
    def open(self) -> bool:
        return not self.closed_rule


def scheme(town) -> Scheme:
    """The town's scheme (daylight for a Town built without one)."""
    return getattr(town, "burning_scheme", None) or DAYLIGHT


def orders_by(town) -> str:
    """Who issues the town's no-burning orders, as town.yml `burning.orders_by` names it ("Town Board"); "" when
    the town has no burning scheme."""
    return scheme(town).orders_by


def window(town, day: date) -> Window:
    """The burning window of ``day`` in the town's time zone (closed days keep their ends, for the words)."""
    s = scheme(town)
    if s.kind == "daylight":
        a, b = sun_times(town, day)
        words = ("sunrise", "sunset")
    else:
        tz = ZoneInfo(town.timezone)
        a, b = (datetime.combine(day, time.fromisoformat(town.value(p, day)), tzinfo=tz) for p in (s.start, s.end))
        words = ("", "")
    rule, reason = "", ""
    holiday = next((name for d, name in s.holidays if d == day), "")
    if "legal_holidays" in s.closed and holiday:
        rule, reason = CLOSED_DAY_RULES["legal_holidays"], f"a legal holiday ({holiday})"
    elif "sundays" in s.closed and day.weekday() == 6:
        rule, reason = CLOSED_DAY_RULES["sundays"], "a Sunday"
    return Window(day, a, b, *words, closed_rule=rule, closed_reason=reason)


def opens(w: Window, clock: str, short: bool = False) -> str:
    """Words for where the window opens: "sunrise (6:02 a.m. CDT)", "sunrise, 6:02 a.m.," or "12:00 p.m. CST"."""
    return _end(w.start_word, clock, short)


def closes(w: Window, clock: str, short: bool = False) -> str:
    """Words for where the window closes: "sunset (8:37 p.m. CDT)", "sunset, 8:37 p.m." or "7:00 p.m. CST"."""
    return _end(w.end_word, clock, short).rstrip(",")


def _end(word: str, clock: str, short: bool) -> str:
    if not word:
        return clock
    return f"{word}, {clock}," if short else f"{word} ({clock})"


def hours_name(town) -> str:
    """"the daylight hours" or "the burning hours"."""
    return "the daylight hours" if scheme(town).kind == "daylight" else "the burning hours"


def day_words(w: Window) -> str:
    """"On Saturday, July 4, 2026, sunrise is 5:23 a.m. CDT and sunset 8:38 p.m. CDT. " (a clock window:
    "..., the burning hours are 12:00 p.m. CDT to 7:00 p.m. CDT. ")."""
    if w.start_word:
        return (f"On {words_for_day(w.day)}, {w.start_word} is {words_for_time(w.start)} and {w.end_word} "
                f"{words_for_time(w.end)}. ")
    return f"On {words_for_day(w.day)}, the burning hours are {words_for_time(w.start)} to {words_for_time(w.end)}. "


def side_words(w: Window, early: bool, clock=None) -> str:
    """"before sunrise (5:23 a.m. CDT)", "after 7:00 p.m. CDT", or "a Sunday" on a closed day."""
    clock = clock or words_for_time
    if not w.open:
        return w.closed_reason
    return f"before {opens(w, clock(w.start))}" if early else f"after {closes(w, clock(w.end))}"


def closed_days(town, start: datetime, end: datetime | None) -> list[Window]:
    """The closed days (a Sunday, a legal holiday) of the time asked about, in order."""
    days = [start.date() + timedelta(days=i) for i in range(((end or start).date() - start.date()).days + 1)]
    return [w for w in map(lambda d: window(town, d), days) if not w.open]
