"""The words residents use for parts of the day, and what each means on the clock.

A part of the day said without a clock time is an interval, never the whole day. A part of the day said
with a bare hour ("tonight at 9", "tomorrow morning at 6") settles whether the hour is a.m. or p.m.
Sun words ("at sunset", "at dawn") are the town's own times from astral (Dunkirk Code 7.11 permits
burning "between sunrise and sunset"; dawn and dusk are civil twilight, before sunrise and after sunset).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from astral import LocationInfo
from astral.sun import sun

from . import timewords
from .model import Town


@dataclass(frozen=True)
class Part:
    """A part of the day: its clock interval and the bare hours it reads as a.m., p.m. or after midnight."""
    name: str            # how it is echoed: "morning", "evening", "night" ...
    start: time
    end: time
    am: frozenset[int]   # bare hours read as a.m. on the same day
    pm: frozenset[int]   # bare hours read as p.m. (12 -> noon)
    after_midnight: frozenset[int] = frozenset()  # bare hours read as a.m. of the next day ("tonight at 1")


def _part(key: str) -> Part:
    spec = timewords.PARTS[key]
    return Part(spec.name, spec.start, spec.end, spec.am, spec.pm, spec.after_midnight)


# The parts of the day of knowledge/vocabulary/time.yml, one object each (compared with ``is``).
PARTS: dict[str, Part] = {key: _part(key) for key in timewords.PARTS}
MORNING, FIRST_THING, AFTERNOON, AFTER_LUNCH = (PARTS[k] for k in ("morning", "first_thing", "afternoon",
                                                                 "after_lunch"))
EVENING, NIGHT, AFTER_DINNER, AFTER_WORK = (PARTS[k] for k in ("evening", "night", "after_dinner", "after_work"))
WHOLE_DAY = PARTS["day"]

# Phrase pattern -> (part, names today explicitly), in the file's order; matched on whole words.
PART_WORDS: list[tuple[str, Part, bool]] = [(timewords.alternation(words), PARTS[key], today)
                                            for words, key, today in timewords.PART_PHRASES]

# SMS and typing shorthand -> the word it stands for (applied on whole words before parsing).
SHORTHAND = timewords.SHORTHAND
_SHORTHAND = re.compile(r"(?<![\w/])(" + timewords.alternation(SHORTHAND) + r")(?![\w/])")


def expand_shorthand(text: str) -> str:
    """'can i burn 2nite' -> 'can i burn tonight'; 'tmrw 8am' -> 'tomorrow 8am'."""
    return _SHORTHAND.sub(lambda m: SHORTHAND[m.group(1)], text)


# Sun words -> astral's event name. "dawn" and "dusk" are civil twilight: before sunrise, after sunset.
SUN_WORDS = timewords.SUN_WORDS
SUN_PATTERN = re.compile(r"\b(?:at |around |about |by |before |after )?(" + "|".join(
    sorted((re.escape(w) for w in SUN_WORDS), key=len, reverse=True)) + r")\b")


#: how residents say the sun has set or is setting ("the sun goes down", "the sun's gone down", "the sun is down")
_SUN_DOWN = r"sun(?:'s| is| has)? (?:goes down|going down|gone down|went down|down|sets|set|setting|gone)"
#: "after dark", "after sunset", "overnight", "until sunrise": past sunset, read as dusk (civil twilight), so never
#: as the sunset minute itself ("can I burn after sunset tomorrow?" was once answered "Yes: at 8:38 p.m."); not
#: when it says when the fire ends ("out no later than sunset", "done when the sun sets"). "before sunrise": dawn,
#: before it. Matched before SUN_PATTERN, on lower-case text.
_AFTER_SUN = r"(?:the )?(?:dark|sunset|sundown|sun ?down|sun ?set|nightfall|dusk|" + _SUN_DOWN + r")"
AFTER_DARK = re.compile(r"\b(?:(?<!not )(?:after|past) (?:" + _AFTER_SUN + r"|it(?:'?s| is| gets| has gotten|'s gotten) "
                        r"dark(?: out)?)|at (?:dusk|twilight|nightfall)|(?<!no )(?<!not )later than " + _AFTER_SUN
                        + r"|(?:once|when) (?:" + _AFTER_SUN + r"|(?:it'?s|it is|it gets|it's gotten) dark)|"
                        r"in the dark|overnight|"
                        r"(?:until|till|til|up to) (?:sunrise|sun ?up|dawn|daybreak|first light|the sun (?:comes|is) up))\b")
#: a fire's end said just before "when/once ...": "have it out when the sun goes down", "I'll be done once it's dark"
#: (the fire ends in the window), not "friends over when it gets dark" nor "my shift is done when it gets dark"
_FIRE_ENDS = re.compile(r"(?:\b(?:it|fire|pile|burn|flames?|embers?)(?:'s| is| be| are| will be)? (?:out|done|over|finished|"
                        r"extinguished)|\b(?:put|have|get) (?:it|the fire|the pile|everything) (?:out|done)|"
                        r"\b(?:i'?ll be|we'?ll be|i'?m|we'?re|will be|be) (?:done|finished|out))\s+$")


def after_dark(text: str) -> re.Match | None:
    """The first after-dark phrase of lower-case ``text`` that is not a fire's end ("out when the sun goes down")."""
    for m in AFTER_DARK.finditer(text):
        if not (m.group(0).startswith(("once", "when")) and _FIRE_ENDS.search(text[max(0, m.start() - 40):m.start()])):
            return m
    return None


#: "the sun goes down" and the like, said for sunset; when_parse.normalise turns them into "sunset" before it drops
#: "the sun" (which is there so "Sunday" and "the sun" are not read as days)
SUN_GOES_DOWN = re.compile(r"\bthe " + _SUN_DOWN + r"\b")
SUN_COMES_UP = re.compile(r"\bthe sun(?:'s| is| has)? (?:comes up|coming up|come up|came up|rises|rising|risen|rose|up)\b")
BEFORE_LIGHT = re.compile(r"\bbefore (?:sunrise|sun ?up|dawn|daybreak|first light|(?:it'?s|it is|it gets) light)\b|"
                          r"\bat (?:dawn|daybreak|first light)\b")


_DEEP_NIGHT = re.compile(r"\b(?:late at night|(?:in )?the (?:middle|dead) of the night|in the dead of night|"
                         r"night ?time)\b")


def normalise_sun(text: str) -> str:
    """Lower case, straight apostrophes, SMS shorthand ("b4", "2nite") and the sun's movements said as events ("the sun
    goes down" -> "sunset"), so that AFTER_DARK and BEFORE_LIGHT read a message as when.resolve reads its phrase."""
    raw = expand_shorthand((text or "").lower().replace("\u2019", "'"))
    raw = _DEEP_NIGHT.sub("after dark", raw)  # before the parts of the day read "at night" in it as the evening
    return SUN_COMES_UP.sub("sunrise", SUN_GOES_DOWN.sub("sunset", raw))


def dark_phrase(text: str) -> str | None:
    """The after-dark or before-sunrise words of a message ("after it gets dark", "b4 sunrise" -> "before sunrise"),
    normalised; None when it has none."""
    raw = normalise_sun(text)
    m = after_dark(raw) or BEFORE_LIGHT.search(raw)
    return m.group(0) if m else None


def sun_event(town: Town, day: date, event: str) -> datetime:
    """The time of ``event`` ("sunrise", "sunset", "dawn", "dusk") on ``day`` in the town's time zone."""
    place = LocationInfo(town.short_name, "Wisconsin", town.timezone, town.latitude, town.longitude)
    found = sun(place.observer, date=day, tzinfo=ZoneInfo(town.timezone))[event]
    return found.replace(second=0, microsecond=0)
