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
                                  "once the sun sets tomorrow", "before the sun comes up saturday"])
def test_a_burn_after_dark_or_before_sunrise_is_no(said):
    t = town("dunkirk")
    answer = handlers.burning(t, at=when.resolve(said, t, now=NOW), orders=[])
    assert answer.value["allowed"] is False and answer.lead.startswith("No"), answer.lead


def test_at_sunset_is_still_the_sunset_minute():
    t = town("dunkirk")
    moment = when.resolve("at sunset tomorrow", t, now=NOW)
    assert (moment.start.hour, moment.start.minute) == (20, 38)
