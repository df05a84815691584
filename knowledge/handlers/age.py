"""The day a dog reaches the town's licensable age (Dunkirk 7.02-1(a): "5 months of age"; Mequon 58-533)."""

from __future__ import annotations

import calendar
from datetime import date

from ..model import Town
from .common import a_day


def months_after(day: date, months: int) -> date:
    """``day`` plus whole calendar ``months``; a day the shorter month lacks becomes its last day (Aug 31 + 6
    months is Feb 28 or 29)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def licensable_on(town: Town, born: date) -> date:
    """The day a dog born on ``born`` reaches the town's licensable age (dog_license.licensable_age_months, as in
    force on its birth day)."""
    born = a_day(born, "born")
    return months_after(born, int(town.value("dog_license.licensable_age_months", born)))


def licensable_age_months(town: Town, on: date) -> int | None:
    """The town's licensable age in months in force on ``on`` (dog_license.licensable_age_months); None when its
    code sets none or our copy lacks the number."""
    if not town.has_param("dog_license.licensable_age_months"):
        return None
    value = town.value("dog_license.licensable_age_months", on)
    return None if value is None else int(value)
