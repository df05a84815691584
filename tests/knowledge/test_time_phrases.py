"""The time-phrase table (time_phrases.yml): each phrase at six reference moments, one test id each.

Expected values are written from what the phrase means (see the comments at the top of the YAML), not from
what the code prints: the start (and end, for an interval) relative to the reference day, or "ask".
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from knowledge import NeedsClarification, town as shared_town, when
from knowledge.loader import SAFE_LOADER

TABLE = yaml.load((Path(__file__).parent / "time_phrases.yml").read_text(), Loader=SAFE_LOADER)
CHICAGO = ZoneInfo("America/Chicago")
REFERENCES = {"dec": date(2026, 12, 9), "jul": date(2026, 7, 8)}  # both Wednesdays
TIMES = ("09:00", "17:00", "22:00")
SUN_TOLERANCE = timedelta(minutes=15)
_POINT = re.compile(r"(?:(?P<rel>[+-]\d+)d|(?P<abs>\d{4}-\d{2}-\d{2})) (?P<approx>~)?(?P<hm>\d{2}:\d{2})")


def _expected(row: dict, season: str, at: str):
    for key in (f"{season} {at}", at, season, "expect"):
        if key in row:
            return str(row[key])
    raise KeyError(f"{row['phrase']!r}: no expectation for {season} {at}")


def _point(text: str, day: date) -> tuple[datetime, bool]:
    m = _POINT.fullmatch(text.strip())
    assert m, f"bad expectation {text!r}"
    on = date.fromisoformat(m.group("abs")) if m.group("abs") else day + timedelta(days=int(m.group("rel")))
    hour, minute = map(int, m.group("hm").split(":"))
    return datetime(on.year, on.month, on.day, hour, minute, tzinfo=CHICAGO), bool(m.group("approx"))


def _params():
    for row in TABLE:
        for season in REFERENCES:
            for at in TIMES:
                yield pytest.param(str(row["phrase"]), season, at, _expected(row, season, at),
                                   id=f"{row['phrase']} @ {season} {at}")


@pytest.fixture(scope="module")
def town():
    return shared_town("dunkirk")


def test_table_is_large_enough():
    assert len(TABLE) >= 150
    assert len({str(r["phrase"]) for r in TABLE}) == len(TABLE), "a phrase is listed twice"


@pytest.mark.parametrize("phrase,season,at,expected", list(_params()))
def test_time_phrase(town, phrase, season, at, expected):
    day = REFERENCES[season]
    hour, minute = map(int, at.split(":"))
    now = datetime(day.year, day.month, day.day, hour, minute, tzinfo=CHICAGO)
    if expected == "ask":
        with pytest.raises(NeedsClarification) as err:
            when.resolve(phrase, town, now)
        assert err.value.message.endswith("?"), "a clarification asks a question"
        return
    moment = when.resolve(phrase, town, now)
    if expected == "now":
        assert (moment.start, moment.end, moment.kind) == (now, None, "instant")
        return
    first, _, last = expected.partition("..")
    start, approx = _point(first, day)
    if approx:
        assert abs(moment.start - start) <= SUN_TOLERANCE, f"{moment.start} not within 15 min of {start}"
    else:
        assert moment.start == start, f"start {moment.start} != {start} ({moment.said})"
    if last:
        assert moment.end == _point(last, day)[0], f"end {moment.end} != {last} ({moment.said})"
        assert moment.kind != "instant"
    else:
        assert moment.end is None and moment.kind == "instant", f"expected an instant, got {moment}"
    weekday = when.WEEKDAYS[moment.start.weekday()].capitalize()
    assert weekday in moment.said, f"the reading {moment.said!r} does not name {weekday}"
