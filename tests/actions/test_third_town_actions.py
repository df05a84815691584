"""The action server answers a third town from its data (#23): the fixture town Fairview
(tests/fixtures/towns/fairview, invented) burns by permit (9.03) within a clock window, 12:00 p.m. to 7:00 p.m.
(9.04(1)), closed on Sundays and legal holidays (9.04(2)). A permit town runs no notification form; a town that
is told of burns within a clock window (Fairview's scheme with `before: notify`, built here) hears its clock
hours, never sunrise or sunset."""
from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from rasa_sdk.executor import CollectingDispatcher

from actions import common
from actions.burn_form import ActionStartBurn, ActionSubmitBurn, ValidateBurnForm, burning_covered
from actions.questions import question_for
from knowledge import load_town
from tests.actions.action_helpers import ent, make_tracker, texts
from tests.actions.test_forms import BURN_DOMAIN, BURN_SLOTS, run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "towns"
WEDNESDAY = "2026-07-08"  # NOW (conftest) is Thursday 2026-07-02


@pytest.fixture(scope="module")
def fairview_town():
    return load_town("fairview", root=FIXTURES)


@pytest.fixture
def fairview(monkeypatch, fairview_town):
    monkeypatch.setattr(common, "town", lambda: fairview_town)
    return fairview_town


@pytest.fixture
def clock_notify_town(monkeypatch, fairview_town):
    """Fairview's clock window and closed days, but the fire department is told of a burn (no permit)."""
    scheme = dataclasses.replace(fairview_town.burning_scheme, before="notify")
    t = dataclasses.replace(fairview_town, burning_scheme=scheme)
    monkeypatch.setattr(common, "town", lambda: t)
    return t


def burn_questions(tracker) -> list:
    return asyncio.run(ValidateBurnForm().required_slots(BURN_SLOTS, CollectingDispatcher(), tracker, BURN_DOMAIN))


def test_a_permit_town_gets_no_burn_notification_form(fairview):
    text = "I want to notify the fire department of a burn"
    assert not burning_covered(fairview)
    assert burn_questions(make_tracker(text, "notify_burn", active_loop="burn_form")) == []
    d, _ = run(ActionStartBurn(), make_tracker(text, "notify_burn"), {})
    said = " ".join(texts(d))
    assert "permit" in said and "9.03(1)" in said, said  # its permit_first rule: get a permit first
    assert "I'll record" not in said and "record your notification" not in said
    d, _ = run(ActionSubmitBurn(), make_tracker(text, "notify_burn"), {})
    assert texts(d) == []  # nothing was being recorded


def test_dunkirk_still_runs_its_notification_form_citing_its_notify_rule():
    d, _ = run(ActionStartBurn(), make_tracker("I want to notify the fire department of a burn", "notify_burn"), {})
    assert texts(d)[0].startswith("I'll record your burn notification for the Fire Department (Dunkirk Code "
                                  "7.12(1)).")
    assert burn_questions(make_tracker("I want to notify a burn", "notify_burn", active_loop="burn_form")) == BURN_SLOTS


def test_the_burn_time_question_names_the_town_window_ends():
    tracker = make_tracker("saturday", "inform", slots={"burn_date": "2026-07-04"})
    assert question_for("burn_form_burn_time", tracker)[0] == \
        "About what time will you start? (burning is allowed only between sunrise and sunset)"


def test_a_clock_town_burn_time_question_names_its_clock_hours(fairview):
    tracker = make_tracker("wednesday", "inform", slots={"burn_date": WEDNESDAY})
    assert question_for("burn_form_burn_time", tracker)[0] == \
        "About what time will you start? (burning is allowed only between 12:00 p.m. and 7:00 p.m.)"


@pytest.mark.parametrize("said, words", [("10:00", "No: 10:00 a.m is before 12:00 p.m. CDT."),
                                         ("20:00", "No: 8:00 p.m is after 7:00 p.m. CDT.")])
def test_a_clock_town_form_refuses_a_time_outside_its_window_in_clock_words(clock_notify_town, said, words):
    tracker = make_tracker(said, "inform", slots={"requested_slot": "burn_time", "burn_date": WEDNESDAY},
                           active_loop="burn_form")
    d, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    assert slots["burn_time"] is None
    said_back = " ".join(texts(d))
    assert said_back.startswith(words), said_back
    assert "sunrise" not in said_back and "sunset" not in said_back


def test_a_clock_town_form_takes_a_time_within_its_window(clock_notify_town):
    tracker = make_tracker("15:00", "inform", slots={"requested_slot": "burn_time", "burn_date": WEDNESDAY},
                           active_loop="burn_form")
    _, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    assert slots["burn_time"] == "15:00"


def test_a_closed_day_is_refused_by_its_rule_not_as_a_no_burning_order(clock_notify_town):
    tracker = make_tracker("sunday", "inform", [ent("sunday", "sunday", "when")],
                           slots={"requested_slot": "burn_date"}, active_loop="burn_form")
    d, slots = run(ValidateBurnForm(), tracker, BURN_DOMAIN)
    said = " ".join(texts(d))
    assert slots["burn_date"] is None
    assert "No burning is allowed on Sunday, July 5, 2026" in said and "9.04(2)" in said, said
    assert "no-burning order" not in said.lower()


def test_asked_who_may_allow_burning_outside_the_hours_a_clock_town_gives_its_own_exception(fairview):
    from actions.answers import ActionAnswer
    d = CollectingDispatcher()
    asyncio.run(ActionAnswer().run(d, make_tracker("can i get permission to burn after dark", "ask_burning_hours"),
                                   {}))
    lead = texts(d)[0].split("\n")[0]
    assert "9.04" in lead and "sunset" not in lead.lower() and "Town Board" not in lead, lead
