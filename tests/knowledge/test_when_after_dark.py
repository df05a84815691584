"""Sun phrases with their preposition (knowledge/daypart.AFTER_DARK, BEFORE_LIGHT): "after sunset" is not the
sunset minute, so a burning question about it is never answered "Yes" (Dunkirk Code 7.11)."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from knowledge import NeedsClarification, handlers, town, when

NOW = datetime(2026, 7, 2, 10, 0, tzinfo=ZoneInfo("America/Chicago"))


@pytest.mark.parametrize("said", ["after sunset tomorrow", "after dark tomorrow", "tomorrow after dark",
                                  "after dark", "tonight after dark", "after sundown", "once it's dark tonight",
                                  "before sunrise tomorrow", "before dawn on saturday", "tomorrow after the sunset",
                                  "tonight after the sun goes down", "later than sunset on friday",
                                  "once the sun sets tomorrow", "before the sun comes up saturday",
                                  "tomorrow after the sun has gone down", "tonight after the sun's gone down",
                                  "once the sun's down", "tonight until the sun comes up", "tonight until sunrise",
                                  "from sunset until the sun comes up tomorrow"])
def test_a_burn_after_dark_or_before_sunrise_is_no(said):
    t = town("dunkirk")
    answer = handlers.burning(t, at=when.resolve(said, t, now=NOW), orders=[])
    assert answer.value["allowed"] is False and answer.lead.startswith("No"), answer.lead


def test_at_sunset_is_still_the_sunset_minute():
    t = town("dunkirk")
    moment = when.resolve("at sunset tomorrow", t, now=NOW)
    assert (moment.start.hour, moment.start.minute) == (20, 38)


@pytest.mark.parametrize("said", ["tomorrow if it's out no later than sunset",
                                  "tomorrow and have it out when the sun goes down", "tomorrow until sunset",
                                  "before the sun goes down tomorrow"])
def test_a_fire_that_ends_by_sunset_is_still_allowed(said):
    t = town("dunkirk")
    answer = handlers.burning(t, at=when.resolve(said, t, now=NOW), orders=[])
    assert answer.value["allowed"] is True, answer.lead  # 7.11: up to sunset


@pytest.mark.parametrize("said, start, end", [("from 8 to 11 tonight", (20, 0), (23, 0)), ("8-11pm", (20, 0), (23, 0)),
                                              ("between 2 and 4 tomorrow", (14, 0), (16, 0)),
                                              ("after 8 tonight", (20, 0), (23, 59))])
def test_a_clock_range_is_an_interval_so_its_end_counts(said, start, end):
    t = town("dunkirk")
    moment = when.resolve(said, t, now=NOW)
    assert (moment.start.hour, moment.start.minute, moment.end.hour, moment.end.minute) == (*start, *end)


def test_a_range_that_runs_past_sunset_is_never_a_plain_yes():
    t = town("dunkirk")
    answer = handlers.burning(t, at=when.resolve("from 8 to 11 tonight", t, now=NOW), orders=[])
    assert "until sunset" in answer.lead and "not after" in answer.lead, answer.lead  # 7.11; sunset 8:38 p.m.


def test_a_date_is_not_read_as_a_clock_range():
    t = town("dunkirk")
    assert when.resolve("2026-12-20", t, now=NOW).kind == "day"


def test_a_range_that_starts_before_sunrise_says_from_sunrise_not_until_sunset():
    t = town("dunkirk")
    december = datetime(2026, 12, 2, 10, 0, tzinfo=ZoneInfo("America/Chicago"))  # sunrise about 7:10 a.m.
    answer = handlers.burning(t, at=when.resolve("tomorrow from 6 to 8 in the morning", t, now=december), orders=[])
    assert "from sunrise" in answer.lead and "not before" in answer.lead and "until sunset" not in answer.lead


def test_a_date_said_with_a_hyphen_is_not_a_clock_range():
    t = town("dunkirk")
    moment = when.resolve("7-4", t, now=NOW)
    assert moment.kind == "day" and moment.start.day == 4, moment  # July 4, not 7 a.m. to 4 p.m.


@pytest.mark.parametrize("said, minutes", [("in 15-20 mins", (15, 20)), ("in 2-3 hours", (120, 180))])
def test_a_wait_is_read_from_now(said, minutes):
    t = town("dunkirk")
    moment = when.resolve(said, t, now=NOW)
    assert (moment.start - NOW, moment.end - NOW) == tuple(timedelta(minutes=m) for m in minutes), moment


def test_a_wait_that_ends_after_sunset_is_not_a_plain_yes():
    t = town("dunkirk")
    evening = datetime(2026, 12, 2, 16, 10, tzinfo=ZoneInfo("America/Chicago"))  # sunset about 4:22 p.m.
    answer = handlers.burning(t, at=when.resolve("in 15-20 mins", t, now=evening), orders=[])
    assert answer.lead.startswith("No"), answer.lead


@pytest.mark.parametrize("said", ["tonight 10 to 2", "tonight 9 to 12", "tonight 8-10"])
def test_a_night_range_is_after_sunset(said):
    t = town("dunkirk")
    answer = handlers.burning(t, at=when.resolve(said, t, now=NOW), orders=[])
    assert answer.lead.startswith("No") or "not after" in answer.lead, answer.lead  # 7.11


@pytest.mark.parametrize("said", ["saturday 6 to 12", "tomorrow 5 to 12"])
def test_a_range_ending_at_a_bare_12_is_asked_back(said):
    with pytest.raises(NeedsClarification):
        when.resolve(said, town("dunkirk"), now=NOW)


@pytest.mark.parametrize("said", ["from 7-4 through 7-6", "between 11-1 and 11-3", "on 12-5 at night"])
def test_hyphen_dates_beside_other_numbers_or_after_on_are_not_clock_ranges(said):
    t = town("dunkirk")
    try:
        moment = when.resolve(said, t, now=NOW)
    except NeedsClarification:
        return  # asked back: fine
    assert moment.kind != "interval", moment  # a date, never a span of clock hours ("7 a.m. to 4 p.m.")


@pytest.mark.parametrize("said", ["july 4 morning 4-6", "7/4 morning 4-6", "tomorrow morning 4-6 with 2 piles"])
def test_a_hyphen_range_beside_another_number_is_asked_back_never_read_as_its_end(said):
    with pytest.raises(NeedsClarification):  # never "Yes: at 6:00 a.m." for a fire lit at 4, before sunrise
        when.resolve(said, town("dunkirk"), now=NOW)
