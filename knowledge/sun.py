"""Sunrise and sunset for a town (Dunkirk Code 7.11: burning is permitted "between sunrise and sunset")."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from astral import LocationInfo
from astral.sun import sun

from .model import Town


def sun_times(town: Town, day: date) -> tuple[datetime, datetime]:
    """(sunrise, sunset) on ``day`` at the town's coordinates, in the town's time zone."""
    place = LocationInfo(town.short_name, "Wisconsin", town.timezone, town.latitude, town.longitude)
    times = sun(place.observer, date=day, tzinfo=ZoneInfo(town.timezone))
    return times["sunrise"], times["sunset"]
