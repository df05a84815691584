"""A third town as data (#23): the fixture town Fairview (tests/fixtures/towns/fairview, invented text) burns by
permit within a clock window (9.04(1), 12:00 p.m. to 7:00 p.m.), never on Sundays or legal holidays (9.04(2)),
and its Fire Department, not a Town Board, may prohibit burning (9.05). The same handlers answer it from its
data; the loader refuses a scheme that lacks what it needs, naming the file and the key."""

import re
import shutil
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from knowledge import KnowledgeError, handlers, load_town
from knowledge.burn_hours import window
from knowledge.model import BurningOrder
from knowledge.when import Moment

from tests.knowledge.broken_copy import edit, fails

TZ = ZoneInfo("America/Chicago")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "towns"
WEDNESDAY = date(2026, 7, 8)


@pytest.fixture(scope="module")
def fairview():
    return load_town("fairview", root=FIXTURES)


def at(hour, minute=0, day=WEDNESDAY):
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=TZ)


def everything(answer) -> str:
    return " ".join([answer.lead, answer.result, *map(str, answer.steps), *answer.caveats])


# -- the scheme and its window --------------------------------------------------------------------------

def test_the_fixture_town_loads_with_a_clock_scheme_closed_on_sundays_and_legal_holidays(fairview):
    s = fairview.burning_scheme
    assert (s.kind, s.before, s.closed) == ("clock", "permit", ("sundays", "legal_holidays"))
    assert s.holidays_citation.label.startswith("Fairview Code 1.05")


def test_the_window_of_a_clock_town_is_its_clock_times_and_of_dunkirk_sunrise_to_sunset(fairview, dunkirk):
    w = window(fairview, WEDNESDAY)
    assert (w.start, w.end, w.start_word, w.open) == (at(12), at(19), "", True)
    d = window(dunkirk, date(2026, 7, 4))
    assert (d.start_word, d.end_word) == ("sunrise", "sunset") and d.start.strftime("%H:%M") == "05:23"


def test_the_window_of_a_sunday_or_a_legal_holiday_is_closed_by_its_rule(fairview):
    assert window(fairview, date(2026, 7, 5)).closed_rule == "closed_sundays"
    holiday = window(fairview, date(2026, 11, 26))
    assert holiday.closed_rule == "closed_legal_holidays" and "Thanksgiving Day" in holiday.closed_reason


# -- may I burn? ------------------------------------------------------------------------------------------

def test_clock_window_town_says_yes_inside_the_window_until_its_end(fairview):
    answer = handlers.burning(fairview, at=at(14), material="leaves")
    assert answer.value["allowed"] is True
    assert answer.lead.startswith("Yes: at 2:00 p.m. Wednesday, until 7:00 p.m., if you have a burning permit")
    assert "until 7:00 p.m. CDT" in answer.result


def test_clock_window_town_says_no_before_12_noon(fairview):
    answer = handlers.burning(fairview, at=at(10), material="leaves")
    assert answer.value["allowed"] is False and answer.value["in_hours"] is False
    assert answer.lead == ("No: that is before 12:00 p.m. Burning is allowed only between 12:00 p.m. and 7:00 p.m., "
                           "with a permit (9.04(1)).")


def test_clock_window_town_says_no_after_7_pm_and_names_the_fire_department_exception(fairview):
    answer = handlers.burning(fairview, at=at(20, 30))
    assert answer.value["allowed"] is False
    assert answer.lead.startswith("No: that is after 7:00 p.m.") and "Fire Department" in answer.lead
    assert "(9.04(3))" in answer.lead


def test_clock_window_town_says_no_on_sunday(fairview):
    answer = handlers.burning(fairview, at=at(14, day=date(2026, 7, 5)), material="leaves")
    assert answer.value["allowed"] is False
    assert answer.lead == "No: that is a Sunday. No burning on Sundays (9.04(2))."
    assert fairview.topics["burning_hours"].rules["closed_sundays"].citation in answer.citations


def test_clock_window_town_says_no_on_a_legal_holiday(fairview):
    answer = handlers.burning(fairview, at=at(14, day=date(2026, 7, 4)), material="leaves")
    assert answer.value["allowed"] is False
    assert answer.lead == "No: that is a legal holiday (Independence Day). No burning on legal holidays (9.04(2))."
    window_answer = handlers.burn_window(fairview, day=date(2026, 12, 25))
    assert window_answer.value["allowed"] is False and window_answer.value["open"] == []


def test_clock_window_town_says_no_while_an_order_is_in_force(fairview):
    order = BurningOrder(active=True, start=at(9), end=None, reason="dry weather")
    answer = handlers.burning(fairview, at=at(14), material="leaves", orders=[order])
    assert answer.value["allowed"] is False and answer.value["order_active"] is True
    assert answer.lead == ("No: a Fire Department burning prohibition is in effect: no open burning is allowed "
                           "while it is (9.05(2)).")


def test_an_order_over_part_of_the_clock_window_leaves_the_rest_of_it_open(fairview):
    order = BurningOrder(active=True, start=at(11), end=at(15))
    answer = handlers.burn_window(fairview, day=WEDNESDAY, orders=[order])
    assert answer.value["open"] == [(at(15), at(19))]
    assert answer.lead == "Wednesday: burning only from 3:00 p.m. (when the order ends) to 7:00 p.m. (9.04(1))."
    evening = handlers.burning(fairview, at=Moment(at(12), at(23), "evening", "today"), orders=[order])
    assert evening.value["allowed"] is True and "from 3:00 p.m. CDT (when the order ends)" in evening.result


def test_a_weekend_over_a_sunday_is_open_on_saturday_only_and_says_why_not_sunday(fairview):
    saturday = at(0, day=date(2026, 7, 11))
    weekend = Moment(saturday, at(0, day=date(2026, 7, 13)), "weekend", "this weekend")
    answer = handlers.burning(fairview, at=weekend, material="leaves")
    assert answer.value["allowed"] is True
    assert ("only from 12:00 p.m. CDT to 7:00 p.m. CDT on Saturday, July 11, 2026, the burning hours; "
            "not on Sunday, July 12, 2026, a Sunday") in answer.result
    assert "Sunday, July 12, 2026 is a Sunday. No open burning is allowed on Sundays." in map(str, answer.steps)


def test_an_order_ending_within_the_clock_window_says_when_burning_opens_again(fairview):
    order = BurningOrder(active=True, start=at(13), end=at(15))
    answer = handlers.burning(fairview, at=at(14), orders=[order])
    assert answer.value["allowed"] is False
    assert answer.lead.endswith("(9.05(2)). Open again from 3:00 p.m. until 7:00 p.m.")


def test_the_burn_window_of_a_clock_town_names_its_clock_times(fairview):
    answer = handlers.burn_window(fairview, day=WEDNESDAY, at=at(13))
    assert answer.lead == "Wednesday: burning only from 12:00 p.m. to 7:00 p.m. (9.04(1))."
    assert answer.data["until"] == "7:00 p.m. CDT" and answer.value["open_at"] is True


def test_no_fixture_burning_answer_speaks_of_sunrise_sunset_or_a_town_board(fairview):
    days = [WEDNESDAY, date(2026, 7, 5), date(2026, 7, 4), date(2026, 12, 21)]
    for day in days:
        for hour in (6, 11, 12, 15, 19, 21):
            for material in (None, "leaves", "plastic", "corn stalks"):
                text = everything(handlers.burning(fairview, at=at(hour, day=day), material=material))
                assert "sunrise" not in text and "sunset" not in text and "Town Board" not in text, text
        text = everything(handlers.burn_window(fairview, day=day))
        assert "sunrise" not in text and "sunset" not in text and "Town Board" not in text, text


def test_who_may_prohibit_burning_comes_from_the_town_rules(fairview, dunkirk):
    fair = handlers.burning_order_status(fairview, now=at(14))
    assert "Fire Department may prohibit all burning" in everything(fair)
    dunk = handlers.burning_order_status(dunkirk, now=at(14))
    assert "Town Board" in everything(dunk) and "Fire Department may prohibit" not in everything(dunk)


def test_a_permit_town_is_told_to_get_a_permit_and_its_own_penalty_rules(fairview):
    text = everything(handlers.burning(fairview, at=at(14), material="leaves"))
    assert "get a burning permit from the Fairview Volunteer Fire Department" in text
    assert "notify" not in text.lower()
    assert "forfeiture of $50.00 to $500.00" in text and "Class C" not in text


def test_the_setback_handler_takes_the_fixture_towns_setback(fairview):
    near = handlers.burn_setback(fairview, distance_feet=20, on=WEDNESDAY)
    assert near.value is False and "setback of 30 feet (9.06(1))" in near.lead
    far = handlers.burn_setback(fairview, distance_feet=35, on=WEDNESDAY)
    assert far.value is True and "15 feet from the edge of any road's pavement" in far.result


# -- the loader refuses a scheme that lacks what it needs ---------------------------------------------------

@pytest.fixture
def copy(tmp_path) -> Path:
    """A private copy of the fixture town to break; load it with root=<the copy's parent>."""
    shutil.copytree(FIXTURES / "fairview", tmp_path / "fairview")
    return tmp_path


def refused(root: Path, file_part: str, key: str, problem_part: str) -> None:
    with pytest.raises(KnowledgeError) as err:
        load_town("fairview", root=root)
    e = err.value
    assert file_part in e.file and e.key == key and problem_part in e.problem, str(e)


@pytest.mark.parametrize("end", ["start", "end"])
def test_the_loader_refuses_a_clock_scheme_without_its_window_parameter(copy, end):
    edit(copy / "fairview/town.yml", lambda d: d["burning"].pop(end))
    refused(copy, "fairview/town.yml", f"burning.{end}", "missing: a clock scheme names the time_of_day parameter")


def test_the_loader_refuses_a_clock_window_naming_no_parameter_or_not_a_time(copy):
    edit(copy / "fairview/town.yml", lambda d: d["burning"].update(start="open_burning.hours.begin"))
    refused(copy, "fairview/town.yml", "burning.start", "names no parameter: 'open_burning.hours.begin'")
    edit(copy / "fairview/town.yml", lambda d: d["burning"].update(start="open_burning.setback_feet"))
    refused(copy, "fairview/town.yml", "burning.start", "must be a time_of_day parameter")


def test_the_loader_refuses_a_clock_scheme_without_its_rules(copy):
    edit(copy / "fairview/topics.yml", lambda d: d["burning_hours"]["rules"].pop("clock_window"))
    refused(copy, "fairview/topics.yml", "burning_hours.rules.clock_window", "clock hours, permit before")
    shutil.rmtree(copy / "fairview")
    shutil.copytree(FIXTURES / "fairview", copy / "fairview")
    edit(copy / "fairview/topics.yml", lambda d: d["burning_hours"]["rules"].pop("closed_sundays"))
    refused(copy, "fairview/topics.yml", "burning_hours.rules.closed_sundays", "needs this rule")


def test_the_loader_refuses_a_permit_town_without_its_permit_rule(copy):
    edit(copy / "fairview/topics.yml", lambda d: d["burn_notification"]["rules"].pop("permit_first"))
    refused(copy, "fairview/topics.yml", "burn_notification.rules.permit_first", "needs this rule")


def test_the_loader_refuses_legal_holidays_without_dates_or_named_nowhere_in_the_code(copy):
    edit(copy / "fairview/town.yml",
         lambda d: d["burning"]["legal_holidays"]["days"].append({"date": "2026-10-12", "name": "Columbus Day"}))
    refused(copy, "fairview/town.yml", "burning.legal_holidays.days[12].name", "'Columbus Day' is not named in")
    edit(copy / "fairview/town.yml", lambda d: d["burning"].pop("legal_holidays"))
    refused(copy, "fairview/town.yml", "burning.legal_holidays", "missing: closed on legal holidays needs")


def test_who_issues_no_burning_orders_is_town_data_named_in_its_cited_text(fairview, dunkirk):
    assert (fairview.burning_scheme.orders_by, fairview.burning_scheme.orders_citation.label) == \
        ("Fire Department", "Fairview Code 9.05(1)")
    assert (dunkirk.burning_scheme.orders_by, dunkirk.burning_scheme.orders_citation.label) == \
        ("Town Board", "Dunkirk Code 7.09(4)")


def test_the_loader_refuses_who_issues_orders_missing_or_not_named_in_the_cited_text(copy):
    edit(copy / "fairview/town.yml", lambda d: d["burning"]["orders_by"].update(who="Town Board"))
    refused(copy, "fairview/town.yml", "burning.orders_by.who", "'Town Board' is not named in Fairview Code 9.05(1)")
    edit(copy / "fairview/town.yml", lambda d: d["burning"].pop("orders_by"))
    refused(copy, "fairview/town.yml", "burning.orders_by", "missing: a town with no-burning orders names who")


def test_the_loader_refuses_an_unknown_scheme_or_closed_day(copy):
    edit(copy / "fairview/town.yml", lambda d: d["burning"].update(hours="moonlight"))
    refused(copy, "fairview/town.yml", "burning.hours", "must be one of daylight, clock")
    edit(copy / "fairview/town.yml", lambda d: d["burning"].update(hours="clock", closed=["saturdays"]))
    refused(copy, "fairview/town.yml", "burning.closed", "unknown closed day 'saturdays'")


def test_a_town_covering_burning_must_name_its_scheme(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d.pop("burning"))
    fails(kb, "dunkirk/town.yml", "burning", "missing: a town that covers burning names its hours", exact_key=True)


def test_a_daylight_scheme_takes_no_clock_times(kb):
    edit(kb / "towns/dunkirk/town.yml", lambda d: d["burning"].update(start="open_burning.setback_feet"))
    fails(kb, "dunkirk/town.yml", "burning.start", "a daylight scheme runs from sunrise to sunset", exact_key=True)


def test_the_fixture_is_marked_as_invented(fairview):
    assert "test fixture" in fairview.code_title
    assert "TEST FIXTURE" in (FIXTURES / "fairview/sections.yml").read_text().splitlines()[0]
    assert yaml.safe_load((FIXTURES / "fairview/town.yml").read_text())["name"] == "Town of Fairview"


def test_a_folder_of_towns_without_the_town_is_not_a_town(copy):
    with pytest.raises(Exception) as err:
        load_town("nowhere", root=copy)
    assert not isinstance(err.value, KnowledgeError)


# -- the other handlers on the fixture town, from its data ---------------------------------------------------

def test_the_fixture_town_licenses_dogs_at_its_own_age_of_six_months(fairview):
    puppy = handlers.license_cost(fairview, on=date(2026, 5, 10), licensable_age_on=date(2026, 8, 10))
    assert puppy.result == ("No license is needed yet: your dog reaches licensable age (6 months) on "
                            "August 10, 2026.")
    half = handlers.license_cost(fairview, on=date(2026, 8, 20), licensable_age_on=date(2026, 8, 10), neutered=1)
    assert half.value["half"] is True and half.value["total"] == 1.5 and half.value["exact"] is False


def test_the_fixture_towns_late_fee_and_deadline_come_from_its_parameters(fairview):
    late = handlers.license_cost(fairview, on=date(2026, 5, 10))
    assert late.value["late_fee"] == 10.0 and "including the $10.00 late fee" in late.lead
    due = handlers.license_deadline(fairview, on=date(2026, 5, 10), acquired=date(2026, 5, 1))
    assert due.lead == "License your dog by May 31, 2026 to avoid the late fee (6.01(3))."


def test_the_fixture_towns_definitions_sections_and_topics_answer_from_its_code(fairview):
    assert handlers.definition(fairview, "burn ban").value == "burning prohibition"
    assert handlers.section(fairview, "9.04(2)").value == "(2) No open burning shall be conducted on Sundays or on legal holidays."
    who = handlers.topic(fairview, "no_burning_order", on=WEDNESDAY, question="who can ban burning")
    assert who.lead.startswith("The Fire Department may prohibit all burning")
    fine = handlers.topic(fairview, "burning_penalties", on=WEDNESDAY, question="what is the fine")
    assert fine.lead == "Each violation is a forfeiture of $50.00 to $500.00 (9.08(2))."


def test_topics_the_fixture_code_does_not_cover_say_so_with_its_own_note(fairview):
    for answer in (handlers.animal_limits(fairview, on=WEDNESDAY, dogs=3),
                   handlers.quarantine(fairview, kind="bite", animal="dog", today=WEDNESDAY)):
        assert answer.value is None and "does not cover" in answer.result
        assert "The Fairview Code (a test fixture) says nothing on this" in everything(answer)


def test_a_permit_town_is_not_offered_burn_notifications(fairview, dunkirk):
    from knowledge import offer
    words = " ".join([offer.greeting(fairview), offer.sms_help(fairview, "the Clerk", "the fire department"),
                      offer.unavailable(fairview, "the fire department")]
                     + [s.title + s.ask for s in offer.starters(fairview)] + offer.examples(fairview))
    assert "notif" not in words.lower()
    assert "Notify a burn" in [s.title for s in offer.starters(dunkirk)]


def test_the_loader_refuses_a_clock_window_that_ends_before_it_starts(copy):
    def swap(d):
        d["open_burning.hours.end"]["values"][0]["value"] = "11:00"
    edit(copy / "fairview/parameters/burning.yml", swap)
    refused(copy, "fairview/town.yml", "burning.end", "the window must end after it starts: 12:00 to 11:00")


def test_a_year_without_listed_legal_holidays_is_answered_with_a_caveat_not_as_if_none(fairview):
    christmas = handlers.burning(fairview, at=at(14, day=date(2028, 12, 25)), material="leaves")
    assert any("do not reach 2028: whether that day is one, ask the Town Clerk, Town of Fairview." in c
               for c in christmas.caveats)
    assert fairview.topics["burning_hours"].rules["closed_legal_holidays"].citation in christmas.citations
    listed = handlers.burning(fairview, at=at(14), material="leaves")
    assert not any("do not reach" in c for c in listed.caveats)


def test_the_window_module_states_no_law_either():
    """knowledge/burn_hours.py, like burning.py (test_burning_law.py), takes every statement of law from data."""
    from knowledge import burn_hours
    from tests.knowledge.test_burning_law import LAW, _strings
    found = [s for s in _strings(Path(burn_hours.__file__)) if LAW.search(s) and not re.fullmatch(r"[a-z_]+", s)]
    assert not found, found


def test_every_step_of_every_fixture_burning_answer_carries_a_citation(fairview):
    """The property test_burning_law.py checks for the served towns, on a grid of the fixture town's answers;
    and a "Yes" at an instant is only inside an open window."""
    from tests.knowledge.test_burning_law import assert_every_step_cited
    order = BurningOrder(active=True, start=at(13), end=at(15))
    for day in (WEDNESDAY, date(2026, 7, 5), date(2026, 7, 4), date(2028, 12, 25)):
        for hour in range(0, 24, 3):
            for orders in ([], [order]):
                answer = handlers.burning(fairview, at=at(hour, day=day), material="leaves", orders=orders)
                assert_every_step_cited(answer)
                w = window(fairview, day)
                if answer.value["allowed"]:
                    assert w.open and w.start <= at(hour, day=day) <= w.end
        assert_every_step_cited(handlers.burn_window(fairview, day=day, orders=[order]))
        assert_every_step_cited(handlers.burning_order_status(fairview, now=at(12, day=day), orders=[order]))


@pytest.mark.parametrize("question", ["do I need a permit to burn brush", "how much is a dog license",
                                      "what is the fine for a dog at large"])
def test_the_town_s_own_name_in_a_question_does_not_move_the_rule_ranking(fairview, question):
    """"Fairview" is in many of the fixture's rules ("the Fairview Volunteer Fire Department"): said in a
    question it tells no rule apart, as "Dunkirk" and "Mequon" do not in theirs (no town name is written in
    Python)."""
    from knowledge import rules
    ranker = rules.ranker(fairview)
    assert ranker.scores(f"{question} in fairview") == ranker.scores(question)
    assert ranker.scores(f"{question}, Town of Fairview") == ranker.scores(question)


def test_a_town_whose_name_is_a_word_of_the_law_keeps_that_word_in_its_rules_and_questions(fairview):
    """A Town of Burns: its name is taken out as a phrase, so "burn", "burning" still find the burning rules."""
    import copy
    from knowledge import rules
    burns = copy.copy(fairview)
    burns.name, burns.short_name = "Town of Burns", "Burns"
    burns.__dict__.pop("_rule_ranker", None)
    question = "can I burn?"
    ours, theirs = rules.Ranker(burns).scores(question), rules.Ranker(fairview).scores(question)
    assert max(ours) > 0
    assert ours.index(max(ours)) == theirs.index(max(theirs))
