"""By when a dog got or brought in is vaccinated against rabies (knowledge/handlers/vaccination.py)."""
from __future__ import annotations

from datetime import date

import pytest

from knowledge import NeedsClarification, handlers


def test_a_dog_got_yesterday_is_vaccinated_within_the_towns_days_from_then(dunkirk):
    a = handlers.vaccination_due(dunkirk, on=date(2026, 5, 15), obtained=date(2026, 5, 14))
    assert a.value == "2026-06-13"  # 30 days (7.02-2(a))
    assert a.lead.startswith("By June 13, 2026: a dog you bring into the Town") and "(7.02-2(a))" in a.lead
    assert all(s.citations for s in a.steps)


def test_a_dog_got_younger_than_the_vaccination_age_is_asked_its_birth_day(dunkirk):
    a = handlers.vaccination_due(dunkirk, on=date(2026, 5, 15), obtained=date(2026, 5, 1), age_months=3)
    assert a.value is None and a.data["needs"] == "born" and "5 months" in a.lead and a.lead.endswith("born?")


def test_a_town_that_sets_no_days_for_a_new_dog_is_answered_from_its_topic(mequon):
    assert handlers.vaccination_due(mequon, on=date(2026, 5, 15), obtained=date(2026, 5, 14)) is None


def test_a_day_still_to_come_is_asked_back(dunkirk):
    with pytest.raises(NeedsClarification):
        handlers.vaccination_due(dunkirk, on=date(2026, 5, 15), obtained=date(2026, 6, 1))
