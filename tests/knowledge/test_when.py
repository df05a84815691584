"""knowledge.when beyond the phrase table: parse_day's day-only reading and the choices of a clarification."""

from __future__ import annotations

from datetime import date

import pytest

from knowledge import NeedsClarification, when

from .conftest import local


def test_parse_day_needs_no_am_pm_for_a_day(dunkirk):
    """An incident 'yesterday at 9' falls on yesterday whether 9 a.m. or 9 p.m.: no question."""
    assert when.parse_day("yesterday at 9", dunkirk, local(2026, 5, 15, 22, 0)) == date(2026, 5, 14)


def test_parse_day_last_night_is_yesterday(dunkirk):
    assert when.parse_day("last night", dunkirk, local(2026, 5, 15, 10, 0)) == date(2026, 5, 14)


def test_parse_day_refuses_february_29_of_a_common_year(dunkirk):
    with pytest.raises(NeedsClarification) as err:
        when.parse_day("Feb 29", dunkirk, local(2026, 5, 15, 10, 0))
    assert "2026 is not a leap year" in err.value.message and "2024" not in err.value.message


def test_a_bare_hour_names_both_readings_and_offers_them(dunkirk):
    with pytest.raises(when.AmbiguousTime) as err:
        when.resolve("at 9", dunkirk, local(2026, 5, 15, 10, 0))
    assert "9 in the morning or 9 at night?" in err.value.message
    picked = [when.resolve(f"tomorrow {c}", dunkirk, local(2026, 5, 15, 10, 0)).start.hour
              for c in err.value.choices]
    assert picked == [9, 21]


def test_a_bare_hour_of_one_to_five_is_afternoon_and_says_so(dunkirk):
    moment = when.resolve("at 3", dunkirk, local(2026, 5, 15, 10, 0))
    assert moment.start == local(2026, 5, 15, 15, 0)
    assert "3:00 p.m." in moment.said and "afternoon" in moment.said


def test_this_week_runs_from_now_to_sunday_night_and_next_week_is_monday_to_sunday(dunkirk):
    friday = local(2026, 5, 15, 10, 0)
    this = when.resolve("is there a burn ban this week", dunkirk, friday)
    assert (this.start, this.end, this.kind) == (friday, local(2026, 5, 17, 23, 59), "interval")
    nxt = when.resolve("next week", dunkirk, friday)
    assert (nxt.start, nxt.end) == (local(2026, 5, 18, 0, 0), local(2026, 5, 24, 23, 59))


def test_a_clock_time_this_week_asks_which_day(dunkirk):
    with pytest.raises(NeedsClarification) as err:
        when.resolve("next week at 9", dunkirk, local(2026, 5, 15, 10, 0))
    assert "Which day next week" in err.value.message


@pytest.mark.parametrize("phrase", ["the week after next", "next week tuesday", "later this week"])
def test_a_week_phrase_that_does_not_name_one_week_or_day_is_asked_back(dunkirk, phrase):
    with pytest.raises(NeedsClarification):
        when.resolve(phrase, dunkirk, local(2026, 6, 1, 10, 0))
