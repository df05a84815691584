"""The day a dog reaches the licensable age, from its birth day (Dunkirk 7.02-1(a): 5 months; the fixture town
Fairview: its own age)."""

from datetime import date
from pathlib import Path

import pytest

from knowledge import NeedsClarification, handlers, load_town
from knowledge.handlers.age import months_after

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "towns"


def test_a_dunkirk_dog_born_january_10_is_licensable_on_june_10(dunkirk):
    assert handlers.licensable_on(dunkirk, date(2026, 1, 10)) == date(2026, 6, 10)


def test_the_licensable_age_is_each_towns_parameter():
    fairview = load_town("fairview", root=FIXTURES)
    born = date(2026, 1, 10)
    months = int(fairview.value("dog_license.licensable_age_months", born))
    assert handlers.licensable_on(fairview, born) == months_after(born, months)


def test_a_day_the_later_month_lacks_becomes_its_last_day():
    assert months_after(date(2025, 8, 31), 6) == date(2026, 2, 28)
    assert months_after(date(2027, 8, 31), 6) == date(2028, 2, 29)
    assert months_after(date(2026, 9, 15), 5) == date(2027, 2, 15)


def test_a_birth_day_that_is_not_a_date_is_asked_back(dunkirk):
    with pytest.raises(NeedsClarification):
        handlers.licensable_on(dunkirk, "jan 10")
