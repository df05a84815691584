"""Sun phrases with their preposition (knowledge/daypart.AFTER_DARK, BEFORE_LIGHT): "after sunset" is not the
sunset minute, so a burning question about it is never answered "Yes" (Dunkirk Code 7.11)."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from knowledge import handlers, town, when

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
